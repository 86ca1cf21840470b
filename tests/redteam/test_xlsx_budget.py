"""`forge cards import` reads an XLSX by the cells it holds, within a budget, and never reads a DTD.

Before: a sheet whose `<dimension>` claimed A1:XFD1048576, with one cell in row 1048576, made
openpyxl pad a million rows to 16,384 columns (MemoryError at 1.9 GB, 3.7 GB unboxed); a
DOCTYPE in a sheet part had its entities expanded by expat into the cards. Now the declared
dimension is dropped, rows, columns and characters are counted as they are read, and every XML
part of the zip is refused if it declares a DTD, whatever its encoding.
"""
from __future__ import annotations

import io
import re
import zipfile
from functools import lru_cache
from pathlib import Path

import pytest

from forge.core import limits

from .boxed import REPO, forge


@lru_cache(maxsize=1)
def exported() -> bytes:
    """The shipped cards as `forge cards export --format xlsx` writes them (made once, in this process)."""
    from forge.spreadsheet.exchange import export_cards

    return export_cards(REPO, "xlsx").data


def with_sheet(data: bytes, edit) -> bytes:
    """The workbook with its worksheet part rewritten by ``edit`` (bytes to bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            dst.writestr(info.filename, edit(body) if info.filename == "xl/worksheets/sheet1.xml" else body)
    return out.getvalue()


def far_row(body: bytes) -> bytes:
    body = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', body)
    return body.replace(b"</sheetData>", b'<row r="1048576"><c r="B1048576" t="inlineStr"><is><t>x</t></is></c>'
                                          b"</row></sheetData>")


def wide_rows(body: bytes) -> bytes:
    cells = "".join(f'<c r="XF{n}" t="inlineStr"><is><t>x</t></is></c>' for n in range(70, 90))
    return body.replace(b"</sheetData>", f'<row r="70">{cells}</row></sheetData>'.encode())


def doctype(encoding: str):
    def edit(body: bytes) -> bytes:
        text = body.decode("utf-8")
        text = re.sub(r"^<\?xml[^>]*\?>", "", text)
        dtd = '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        text = text.replace("<t>kindle</t>", "<t>&b;</t>", 1)
        declaration = f'<?xml version="1.0" encoding="{encoding.upper().replace("-SIG", "")}"?>'
        return (declaration + dtd + text).encode(encoding)
    return edit


def refused(root: Path, tmp_path: Path, data: bytes, words: str) -> str:
    sheet = tmp_path / "attack.xlsx"
    sheet.write_bytes(data)
    before = {p.name: p.read_bytes() for p in (root / "cards").iterdir()}
    code, output = forge("cards", "import", str(sheet), "--root", str(root))
    assert code == 1, output
    assert "attack.xlsx:1:1: [sheet]" in output and words in output, output
    assert "internal error" not in output and "Traceback" not in output
    assert {p.name: p.read_bytes() for p in (root / "cards").iterdir()} == before
    return output


def test_a_declared_dimension_is_not_read(shipped: Path, tmp_path: Path):
    output = refused(shipped, tmp_path, with_sheet(exported(), far_row),
                     f"more than {limits.MAX_SHEET_ROWS:,} rows")
    assert "budget" in output


def test_a_row_wider_than_the_budget_is_refused(shipped: Path, tmp_path: Path):
    refused(shipped, tmp_path, with_sheet(exported(), wide_rows),
            f"budget of {limits.MAX_SHEET_COLUMNS} columns")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
def test_a_sheet_part_with_a_doctype_is_refused(shipped: Path, tmp_path: Path, encoding: str):
    refused(shipped, tmp_path, with_sheet(exported(), doctype(encoding)), "document type")


def test_a_sheet_as_it_was_exported_still_imports(shipped: Path, tmp_path: Path):
    sheet = tmp_path / "cards.xlsx"
    sheet.write_bytes(exported())
    code, output = forge("cards", "import", str(sheet), "--root", str(shipped), "--dry-run")
    assert code == 0 and "64 unchanged" in output, output
