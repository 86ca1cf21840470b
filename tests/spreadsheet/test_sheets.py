"""`forge cards export` / `forge cards import` (issue 9 §5): spreadsheets in and out, byte for byte."""
from __future__ import annotations

import csv
import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from forge.carddb.database import load_database
from forge.spreadsheet.exchange import export_cards, import_cards


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "cards").iterdir())}


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _write_rows(path: Path, rows: list[list[str]]) -> Path:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    return path


def _edit(rows, card_id: str, **cells) -> None:
    header = rows[0]
    row = next(r for r in rows[1:] if r[header.index("id")] == card_id)
    for column, value in cells.items():
        row[header.index(column.replace("__", "."))] = value


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_then_import_changes_no_byte(shipped, tmp_path, fmt):
    before = _snapshot(shipped)
    exported = export_cards(shipped, fmt)
    assert exported.cards == len(load_database(shipped).db.cards) and not exported.findings
    sheet = tmp_path / f"cards.{fmt}"
    sheet.write_bytes(exported.data)
    result = import_cards(shipped, sheet)
    assert result.ok and result.changed == [] and result.added == [] and result.files == []
    assert result.unchanged == exported.cards
    assert _snapshot(shipped) == before


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_export_is_reproducible(shipped, fmt):
    assert export_cards(shipped, fmt).data == export_cards(shipped, fmt).data


def test_the_xlsx_is_a_real_workbook_with_a_header_and_one_row_per_card(shipped, tmp_path):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(export_cards(shipped, "xlsx").data)
    sheet = load_workbook(path).worksheets[0]
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["file", "id", "type", "set"] and sheet.max_row == 1 + len(load_database(shipped).db.cards)
    kindle = next(r for r in sheet.iter_rows(min_row=2, values_only=True) if r[1] == "kindle")
    assert kindle[header.index("cost")] == 1  # a number, not text
    assert kindle[header.index("effects")] == "essence: 1\nunblockable_wound: 1"
    with zipfile.ZipFile(path) as archive:
        assert {i.date_time for i in archive.infolist()} == {(2020, 1, 1, 0, 0, 0)}


def test_a_changed_cell_rewrites_only_its_field(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    _edit(rows, "kindle", cost="2", effects="essence: 1\nunblockable_wound: 1\ndraw: 1")
    red = shipped / "cards" / "red.yaml"
    before = red.read_text(encoding="utf-8")
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    assert result.ok and result.changed == ["kindle"] and result.files == ["cards/red.yaml"]
    after = red.read_text(encoding="utf-8")
    expected = before.replace("    cost: 1\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"",
                              "    cost: 2\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"", 1)
    expected = expected.replace("      - essence: 1\n      - unblockable_wound: 1\n\n",
                                "      - essence: 1\n      - unblockable_wound: 1\n      - draw: 1\n\n", 1)
    assert after == expected


def test_a_new_row_is_appended_to_its_faction_file_in_the_files_style(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    header = rows[0]
    new = dict.fromkeys(header, "")
    new.update({"id": "ember-fox", "type": "creature", "factions": "red", "cost": "2", "allegiance": "red: 1",
                "copies": "1", "name.en": "Ember Fox", "name.fr": "Renard des Braises",
                "flavor.en": "Quick, and then: ash.", "flavor.fr": "Vif, puis : des cendres.", "keywords": "rush",
                "activate": "wound: 2\nif: {red: 3}, wound: 1"})
    rows.append([new[c] for c in header])
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    assert result.ok and result.added == ["ember-fox"]
    text = (shipped / "cards" / "red.yaml").read_text(encoding="utf-8")
    assert text.endswith(
        "\n\n  - id: ember-fox\n    type: creature\n    factions: [red]\n    cost: 2\n    allegiance: {red: 1}\n"
        "    copies: 1\n    name: {en: \"Ember Fox\", fr: \"Renard des Braises\"}\n"
        "    flavor: {en: \"Quick, and then: ash.\", fr: \"Vif, puis : des cendres.\"}\n    keywords: [rush]\n"
        "    activate:\n      - wound: 2\n      - if: {red: 3}\n        wound: 1\n")
    card = next(c for c in load_database(shipped).db.cards if c.id == "ember-fox")
    assert card.cost == 2 and card.keywords.rush


def test_comments_inside_and_between_cards_are_kept(shipped, tmp_path):
    starter = shipped / "cards" / "starter.yaml"
    text = starter.read_text(encoding="utf-8")
    first = next(c for c in load_database(shipped).db.of_set("starter") if c.type == "creature")
    marker = f"  - id: {first.id}\n"
    text = text.replace(marker, marker + "    # balanced in playtest 4\n", 1)
    starter.write_text(text, encoding="utf-8")
    rows = _rows(export_cards(shipped, "csv").data)
    _edit(rows, first.id, copies="2")
    assert import_cards(shipped, _write_rows(tmp_path / "s.csv", rows)).ok
    after = starter.read_text(encoding="utf-8")
    assert "    # balanced in playtest 4\n" in after
    assert [line for line in after.splitlines() if line.lstrip().startswith("#")] == \
           [line for line in text.splitlines() if line.lstrip().startswith("#")]
    changed = [(a, b) for a, b in zip(text.splitlines(), after.splitlines()) if a != b]
    assert len(text.splitlines()) == len(after.splitlines())
    assert [b for _, b in changed] == ["    copies: 2"]


def test_an_emptied_cell_removes_the_field(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    _edit(rows, "ash-runner", keywords="")
    assert import_cards(shipped, _write_rows(tmp_path / "s.csv", rows)).ok
    text = (shipped / "cards" / "red.yaml").read_text(encoding="utf-8")
    block = text.split("  - id: ash-runner\n", 1)[1].split("\n\n", 1)[0]
    assert "keywords" not in block and "activate:" in block


def test_every_problem_is_at_its_row_and_column_and_nothing_is_written(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    header = rows[0]
    _edit(rows, "kindle", cost="two")
    _edit(rows, "flame-lash", effects="wound: [3")
    _edit(rows, "ash-runner", factions="red, purple")
    before = _snapshot(shipped)
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    assert not result.ok and _snapshot(shipped) == before
    row_of = {r[header.index("id")]: n for n, r in enumerate(rows, start=1)}
    at = {(f.position.line, f.position.col): f for f in result.findings}
    cost = at[(row_of["kindle"], header.index("cost") + 1)]
    assert cost.rule == "schema" and "'two' is not a whole number" in cost.message and cost.position.file == "s.csv"
    effects = at[(row_of["flame-lash"], header.index("effects") + 1)]
    assert effects.rule == "sheet-cell" and "line 1 of the cell" in effects.message and effects.hint
    faction = at[(row_of["ash-runner"], header.index("factions") + 1)]
    assert "purple" in faction.message and "red, white, black, blue" in faction.hint


def test_an_unknown_column_gets_a_suggestion(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    rows[0][rows[0].index("copies")] = "copeis"
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    found = next(f for f in result.findings if "unknown column" in f.message)
    assert (found.position.line, found.position.col) == (1, rows[0].index("copeis") + 1)
    assert found.hint == "did you mean `copies`?"


def test_a_duplicate_id_in_the_sheet_is_refused(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    rows.append(list(rows[1]))
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    assert [f.rule for f in result.findings] == ["duplicate-id"]
    assert result.findings[0].position.line == len(rows)


def test_a_card_cannot_move_file_by_sheet(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    _edit(rows, "kindle", file="cards/blue.yaml")
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows))
    assert [f.rule for f in result.findings] == ["import"] and "cards/red.yaml" in result.findings[0].hint


def test_an_xlsx_zip_bomb_is_refused_before_it_is_unpacked(shipped, tmp_path):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (80 * 1024 * 1024))
    result = import_cards(shipped, bomb)
    assert not result.ok and "refused" in result.findings[0].message


def test_a_file_that_is_not_a_workbook_is_one_finding(shipped, tmp_path):
    fake = tmp_path / "cards.xlsx"
    fake.write_bytes(b"PK\x03\x04 not really a zip")
    result = import_cards(shipped, fake)
    assert [f.rule for f in result.findings] == ["sheet"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_is_never_read_as_a_sheet(shipped, tmp_path, no_hang):
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    result = import_cards(shipped, fifo)
    assert [f.rule for f in result.findings] == ["special-file"]


def test_the_commands_report_and_exit_like_the_others(shipped, tmp_path, cli):
    out = tmp_path / "cards.csv"
    done = cli(["cards", "export", "--root", str(shipped), "--out", str(out)])
    assert done.exit_code == 0 and out.is_file()
    dry = cli(["cards", "import", str(out), "--root", str(shipped), "--format", "json", "--dry-run"])
    assert dry.exit_code == 0 and json.loads(dry.output)["unchanged"] == len(load_database(shipped).db.cards)
    rows = _rows(out.read_bytes())
    _edit(rows, "kindle", cost="-1")
    bad = cli(["cards", "import", str(_write_rows(out, rows)), "--root", str(shipped)])
    assert bad.exit_code == 1 and "cards.csv:" in bad.output and "nothing written" in bad.output
    missing = cli(["cards", "import", str(tmp_path / "nope.csv"), "--root", str(shipped)])
    assert missing.exit_code == 2


def test_dry_run_writes_nothing(shipped, tmp_path):
    rows = _rows(export_cards(shipped, "csv").data)
    _edit(rows, "kindle", cost="2")
    before = _snapshot(shipped)
    result = import_cards(shipped, _write_rows(tmp_path / "s.csv", rows), dry_run=True)
    assert result.ok and result.changed == ["kindle"] and _snapshot(shipped) == before


def test_stdout_export_is_the_csv(shipped, cli):
    done = cli(["cards", "export", "--root", str(shipped), "--out", "-"])
    assert done.exit_code == 0 and done.output.startswith("file,id,type,set,")


def test_the_readme_card_example_works_when_pasted_as_written(shipped):
    """README, "Writing a card": replace the `ash-runner` block with the example; the database validates."""
    from forge.checks.validate import validate

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Writing a card", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    red = shipped / "cards" / "red.yaml"
    text = red.read_text(encoding="utf-8")
    start = text.index("  - id: ash-runner\n")
    end = text.index("\n\n", start) + 1
    red.write_text(text[:start] + block + text[end:], encoding="utf-8")
    report = validate(shipped, extra=True)
    assert [f.render() for f in report.findings if f.severity == "error"] == []
    assert any(c.id == "ember-fox" for c in report.load.db.cards)
