"""Rows to and from CSV and XLSX files, reproducibly, and safely from a stranger's sheet.

CSV is UTF-8 with a byte-order mark (so that Excel reads the accents) and CRLF line
ends (RFC 4180). XLSX is written with openpyxl, then its zip is made anew with fixed
dates, so the same cards give the same bytes. An XLSX is a zip of XML: before
openpyxl opens one, its entries are checked (count, total size, compression ratio)
and every XML part is refused if it declares a DTD, so that a zip bomb is never
unpacked and no entity is expanded; then the sheet is read by the cells it really
holds, never by the size its ``<dimension>`` claims, within ``forge.core.limits``' budget.

A card name is contributor text: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return would be a formula to a spreadsheet program (``=WEBSERVICE(…)``
sends the sheet's cells to a URL). As OWASP's CSV-injection guidance says, forge
writes such a CSV cell with a ``'`` in front, and an XLSX cell as a string, never a
formula. The CSV round trip is exact: a cell matching ``'*`` then one of those
characters gets one more ``'`` on export and loses one on import, so a name that really
starts with ``-`` or ``'=`` comes back as it was.
"""
from __future__ import annotations

import csv
import io
import re
import zipfile
import datetime
import warnings

from ..core.escape import neutralise, restore
from ..core.limits import (MAX_SHEET_CHARS, MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_XLSX_ENTRIES, MAX_XLSX_RATIO,
                      MAX_XLSX_UNPACKED)
from ..core import safeio

FIXED_DATE = (2020, 1, 1, 0, 0, 0)


class SheetError(Exception):
    """A sheet that cannot be read at all: the message and a hint."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


# -- CSV -------------------------------------------------------------------------------
def write_csv(rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([[neutralise(c) for c in row] for row in rows])
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
        return _within_budget([restore(c) for c in row] for row in csv.reader(io.StringIO(text, newline=""),
                                                                             strict=True))
    except csv.Error as exc:
        raise SheetError(f"the CSV does not parse: {exc}", "check the quotes around cells with commas") from None


def _within_budget(rows) -> list[list]:
    """The rows, read one by one and refused (SheetError) past MAX_SHEET_ROWS, _COLUMNS or _CHARS."""
    out, chars = [], 0
    for row in rows:
        if len(out) >= MAX_SHEET_ROWS:
            raise SheetError(f"the sheet has more than {MAX_SHEET_ROWS:,} rows (the budget)",
                             "a card sheet has one row per card; remove the empty or extra rows")
        while row and row[-1] in (None, ""):
            row.pop()  # trailing empty cells (a sheet program's formatting) are not columns
        if len(row) > MAX_SHEET_COLUMNS:
            raise SheetError(f"row {len(out) + 1} has a value in column {len(row):,}, more than the budget of "
                             f"{MAX_SHEET_COLUMNS} columns", "remove the cells right of the card's columns")
        chars += sum(len(str(c)) for c in row if c is not None)
        if chars > MAX_SHEET_CHARS:
            raise SheetError(f"the sheet holds more than {MAX_SHEET_CHARS:,} characters (the budget)",
                             "export only the cards sheet")
        out.append(row)
    return out


def cell_name_csv(row: int, col: int) -> str:
    return f"row {row}, column {col}"


# -- XLSX ------------------------------------------------------------------------------
def cell_name_xlsx(row: int, col: int) -> str:
    from openpyxl.utils import get_column_letter  # lazy: loads openpyxl only when needed

    return f"{get_column_letter(col)}{row}"


def write_xlsx(rows: list[list[str]], kinds: list[str]) -> bytes:
    """One sheet, `cards`: a bold frozen header, filters, wrapped multi-line cells, readable widths."""
    from openpyxl import Workbook  # lazy: loads openpyxl only when needed
    from openpyxl.styles import Alignment, Font  # lazy: loads openpyxl only when needed
    from openpyxl.utils import get_column_letter  # lazy: loads openpyxl only when needed

    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    for row in rows:
        sheet.append([_typed(v, k) for v, k in zip(row, kinds)])
    for cells in sheet.iter_rows():
        for cell in cells:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text, never a formula: `=WEBSERVICE(…)` in a name stays a name
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
    """The first sheet's rows (cell values) and the sheet's title; a zip bomb, a DTD or a broken file is refused.

    The zip and its XML parts are checked before openpyxl opens it (``_check_parts``); the
    sheet is then read by its real rows and cells (its declared ``<dimension>`` is dropped,
    and no row is read wider than the column budget), within ``_within_budget``.
    """
    _check_parts(data)

    from openpyxl import load_workbook  # lazy: loads openpyxl only when needed

    broken = "open it in a spreadsheet program and save it again, or export it as CSV"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about styles and extensions it does not read
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a broken workbook
        raise SheetError(f"the workbook cannot be read: {type(exc).__name__}: {exc}", broken) from None
    try:
        if not book.worksheets:
            raise SheetError("the workbook has no worksheet", "export the cards sheet again")
        sheet = book.worksheets[0]
        sheet.reset_dimensions()  # the <dimension> a file declares is not what it holds (A1:XFD1048576)
        rows = _within_budget(list(row) for row in sheet.iter_rows(max_col=MAX_SHEET_COLUMNS + 1, values_only=True))
        return rows, sheet.title
    except SheetError:
        raise
    except Exception as exc:  # the sheet's XML is parsed only now, row by row
        raise SheetError(f"the worksheet cannot be read: {type(exc).__name__}: {exc}", broken) from None
    finally:
        book.close()


#: A cell element of a worksheet part (``<c …>``, with or without a namespace prefix), and a cell's address.
_CELL = re.compile(r"<(?:[\w.-]+:)?c[\s/>]")
_ADDRESS = re.compile(r'\br\s*=\s*["\']([A-Za-z]{1,3})([0-9]{1,7})["\']')
_BOMS_AND_SIGNATURES = (b"<", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00<", b"\x00\x00")


def _check_parts(data: bytes) -> None:
    """SheetError unless the zip is within budget and none of its XML parts declares a DTD.

    openpyxl parses the parts with expat, which would read a DOCTYPE's entities: each part
    that may be XML is decoded by its own encoding (UTF-16 included) and refused if it holds
    one. Cells are counted on the text too, so no worksheet reaches openpyxl with more
    than MAX_SHEET_ROWS × MAX_SHEET_COLUMNS of them.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise SheetError("the file is not an XLSX workbook (not a zip archive)",
                         "save the sheet as Excel Workbook (.xlsx), or export it as CSV") from None
    with archive:
        infos = archive.infolist()
        unpacked = sum(i.file_size for i in infos)
        if len(infos) > MAX_XLSX_ENTRIES or unpacked > MAX_XLSX_UNPACKED or \
                any(i.compress_size and i.file_size / i.compress_size > MAX_XLSX_RATIO for i in infos):
            raise SheetError(f"the workbook unpacks to {unpacked:,} bytes in {len(infos)} parts: more than a card "
                             f"sheet holds (the budget: {MAX_XLSX_UNPACKED:,} bytes, {MAX_XLSX_ENTRIES} parts, "
                             f"compression ratio {MAX_XLSX_RATIO}); refused", "export only the cards sheet")
        cells = 0
        for info in infos:
            try:
                body = archive.read(info)
            except Exception as exc:  # zipfile raises many kinds on a damaged entry
                raise SheetError(f"the workbook's part {info.filename} cannot be unpacked ({type(exc).__name__})",
                                 "open it in a spreadsheet program and save it again") from None
            if not body.lstrip(b" \t\r\n").startswith(_BOMS_AND_SIGNATURES):
                continue  # not XML (a picture, a binary part): openpyxl does not parse it
            try:
                text = safeio.refuse_dtd(body, f"the workbook's part {info.filename}")
            except safeio.XMLRefused as exc:
                raise SheetError(exc.message, exc.hint) from None
            cells += len(_CELL.findall(text))
            if info.filename.startswith("xl/worksheets/"):
                _check_addresses(text)
        if cells > MAX_SHEET_ROWS * MAX_SHEET_COLUMNS:
            raise SheetError(f"the workbook holds {cells:,} cells, more than the budget of "
                             f"{MAX_SHEET_ROWS * MAX_SHEET_COLUMNS:,}", "export only the cards sheet")


def _check_addresses(text: str) -> None:
    """SheetError when a cell's address (``r="XFD1048576"``) lies outside the rows and columns of the budget.

    openpyxl would fill every row and column up to it; a cell without an address comes
    next to the one before it, so those are counted as they are read (``_within_budget``).
    """
    from openpyxl.utils import get_column_letter  # lazy: loads openpyxl only when needed

    rows = cols = 0
    for letters, row in _ADDRESS.findall(text):
        col = 0
        for letter in letters.upper():
            col = col * 26 + ord(letter) - ord("A") + 1
        rows, cols = max(rows, int(row)), max(cols, col)
    if rows > MAX_SHEET_ROWS:
        raise SheetError(f"the sheet has a cell in row {rows:,}: more than {MAX_SHEET_ROWS:,} rows (the budget)",
                         "a card sheet has one row per card; delete the rows below the cards")
    if cols > MAX_SHEET_COLUMNS:
        raise SheetError(f"the sheet has a cell in column {get_column_letter(min(cols, 18278))} ({cols:,}): more "
                         f"than the budget of {MAX_SHEET_COLUMNS} columns",
                         "delete the columns right of the card's columns")
