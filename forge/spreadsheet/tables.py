"""Rows to and from CSV and XLSX files, reproducibly, and safely from a stranger's sheet.

CSV is UTF-8 with a byte-order mark (so that Excel reads the accents) and CRLF line
ends (RFC 4180). XLSX is written with openpyxl, then its zip is made anew with fixed
dates, so the same cards give the same bytes. An XLSX is a zip of XML: before
openpyxl opens one, its entries are checked (count, total size, compression ratio),
so that a zip bomb is refused, never unpacked.
"""
from __future__ import annotations

import csv
import io
import zipfile

FIXED_DATE = (2020, 1, 1, 0, 0, 0)
MAX_XLSX_UNPACKED = 64 * 1024 * 1024
MAX_XLSX_ENTRIES = 1000
MAX_RATIO = 200


class SheetError(Exception):
    """A sheet that cannot be read at all: the message and a hint."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


# -- CSV -------------------------------------------------------------------------------
def write_csv(rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def read_csv(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SheetError(f"the file is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                         "save the sheet as \"CSV UTF-8\"") from None
    if "\0" in text:
        raise SheetError("the file holds NUL characters: it is not a CSV file", "export the sheet as CSV")
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), strict=True)]
    except csv.Error as exc:
        raise SheetError(f"the CSV does not parse: {exc}", "check the quotes around cells with commas") from None


def cell_name_csv(row: int, col: int) -> str:
    return f"row {row}, column {col}"


# -- XLSX ------------------------------------------------------------------------------
def cell_name_xlsx(row: int, col: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(col)}{row}"


def write_xlsx(rows: list[list[str]], kinds: list[str]) -> bytes:
    """One sheet, `cards`: a bold frozen header, filters, wrapped multi-line cells, readable widths."""
    import datetime

    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    for row in rows:
        sheet.append([_typed(v, k) for v, k in zip(row, kinds)])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    wrap = Alignment(wrap_text=True, vertical="top")
    widths = {"lines": 42, "lang": 30, "map": 22, "list": 18, "file": 18}
    for col, kind in enumerate(kinds, start=1):
        sheet.column_dimensions[get_column_letter(col)].width = widths.get(kind, 14)
        if kind in ("lines", "lang"):
            for (cell,) in sheet.iter_rows(min_row=2, min_col=col, max_col=col):
                cell.alignment = wrap
    sheet.freeze_panes = "C2"
    sheet.auto_filter.ref = sheet.dimensions
    fixed = datetime.datetime(*FIXED_DATE)
    book.properties.creator = "forge"
    book.properties.created = fixed
    book.properties.modified = fixed
    buffer = io.BytesIO()
    book.save(buffer)
    return _fixed_zip(buffer.getvalue(), fixed.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _typed(value: str, kind: str):
    if kind == "number" and value.lstrip("-").isdigit():
        return int(value)
    return value


def _fixed_zip(data: bytes, stamp: str) -> bytes:
    """The same zip with every entry dated FIXED_DATE, and the save time in its properties replaced."""
    import re

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(<)", rb"\g<1>" + stamp.encode() + rb"\2",
                              body)
            entry = zipfile.ZipInfo(info.filename, date_time=FIXED_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, body)
    return out.getvalue()


def read_xlsx(data: bytes) -> tuple[list[list], str]:
    """The first sheet's rows (cell values) and the sheet's title; a zip bomb or a broken file is refused."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SheetError("the file is not an XLSX workbook (not a zip archive)",
                         "save the sheet as Excel Workbook (.xlsx), or export it as CSV") from None
    with archive:
        infos = archive.infolist()
        unpacked = sum(i.file_size for i in infos)
        if len(infos) > MAX_XLSX_ENTRIES or unpacked > MAX_XLSX_UNPACKED or \
                any(i.compress_size and i.file_size / i.compress_size > MAX_RATIO for i in infos):
            raise SheetError(f"the workbook unpacks to {unpacked:,} bytes in {len(infos)} parts: more than a card "
                             "sheet holds; refused", "export only the cards sheet")
    import warnings

    from openpyxl import load_workbook

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles and extensions it does not read
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds on a broken workbook
        raise SheetError(f"the workbook cannot be read: {type(exc).__name__}: {exc}",
                         "open it in a spreadsheet program and save it again, or export it as CSV") from None
    try:
        sheet = book.worksheets[0]
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        return rows, sheet.title
    finally:
        book.close()
