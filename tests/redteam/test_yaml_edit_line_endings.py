"""A card or locale file written with CRLF line breaks stays CRLF when forge edits it.

Before, `forge cards import` wrote the lines of a changed card with LF into a CRLF file, and
`forge i18n import` added a missing French key to a CRLF table with LF: files with mixed line
breaks, which every editor and `git diff` show as changed everywhere. Now the one YAML editor
(`forge.carddb.yamledit`) writes the file's own line break, and the rest of the file keeps its bytes.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import polib

from forge.carddb import yamlsrc
from forge.spreadsheet.exchange import export_cards, import_cards
from tests.i18n.helpers import export, run_import


def crlf(path: Path, old: str = "", new: str = "") -> str:
    text = path.read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    text = text.replace("\n", "\r\n")
    path.write_bytes(text.encode("utf-8"))
    return text


def only_crlf(text: str) -> bool:
    return text.count("\n") == text.count("\r\n") > 0


def test_a_sheet_import_writes_crlf_into_a_crlf_card_file(shipped, tmp_path):
    red = shipped / "cards" / "red.yaml"
    before = crlf(red)
    rows = list(csv.reader(io.StringIO(export_cards(shipped, "csv").data.decode("utf-8-sig"), newline="")))
    header = rows[0]
    row = next(r for r in rows[1:] if r[header.index("id")] == "kindle")
    row[header.index("cost")] = "2"
    row[header.index("effects")] = "essence: 1\nunblockable_wound: 1\ndraw: 1"
    new = list(row)
    new[header.index("id")] = "kindle-two"
    rows.append(new)
    sheet = tmp_path / "s.csv"
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    sheet.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    result = import_cards(shipped, sheet)
    assert result.ok and result.files == ["cards/red.yaml"], result.findings
    after = red.read_bytes().decode("utf-8")
    assert only_crlf(after), [line for line in after.split("\n") if not line.endswith("\r")][:3]
    data, _ = yamlsrc.load(after)
    kindle = next(c for c in data["cards"] if c["id"] == "kindle")
    assert kindle["cost"] == 2 and kindle["effects"][-1] == {"draw": 1}
    assert any(c["id"] == "kindle-two" for c in data["cards"])
    assert after.startswith(before[:before.index("  - id: kindle")])  # the cards above are untouched


def test_a_translation_added_to_a_crlf_table_is_written_with_crlf(shipped, tmp_path):
    fr = shipped / "locales" / "fr.yaml"
    crlf(fr, '  finish: "Terminer"\n', "")
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    entry = po.find("locales/steps.finish", by="msgctxt")
    assert entry is not None and not entry.msgstr
    entry.msgstr = "Terminer"
    po.save(str(tmp_path / "fr.po"))
    code, report = run_import(shipped, tmp_path / "fr.po")
    assert code == 0 and report["changed"] == ["locales/steps.finish"], report["findings"]
    after = fr.read_bytes().decode("utf-8")
    assert only_crlf(after), [line for line in after.split("\n") if not line.endswith("\r")][:3]
    data, _ = yamlsrc.load(after)
    assert data["steps"]["finish"] == "Terminer"
