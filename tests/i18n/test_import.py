"""``forge i18n import``: translations back into the sources, every other byte kept."""
from __future__ import annotations

from pathlib import Path

import polib
import pytest
from lxml import etree

from forge.carddb import yamlsrc
from forge.i18n import inventory

from .helpers import changed, export, prose_id, run_import, snapshot

NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}




def french(root: Path) -> dict[str, str]:
    return {p.id: p.fr.text for p in inventory.build(root).pairs if p.fr is not None}


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_an_unchanged_import_changes_no_byte(shipped, tmp_path, fmt, exports):
    file = exports.to(fmt, tmp_path / f"fr.{fmt}")
    before = snapshot(shipped)
    code, report = run_import(shipped, file)
    assert code == 0, report
    assert report["strings"] > 600 and report["changed"] == [] and report["files"] == []
    assert changed(before, snapshot(shipped)) == []


def test_changed_strings_are_written_in_place_and_nothing_else_moves(shipped, tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
    goal = prose_id(shipped, "rulebook", "reduce your opponent's health")
    new = {
        "cards/kindle/name": "L'Étincelle : vive",  # a quoted value in a flow mapping
        "locales/keywords.rush": "Ruée: rapide",  # a plain value that cannot stay plain
        "strings/by": "de",  # a plain label
        goal: po.find(goal, by="msgctxt").msgstr.replace("réduisez", "amenez"),
        "cards/kindle/flavor": 'Deux "lignes"\net un retour',  # escapes in double quotes
    }
    for entry in po:
        if entry.msgctxt in new:
            entry.msgstr = new[entry.msgctxt]
    po.save(str(tmp_path / "fr.po"))
    before = snapshot(shipped)
    code, report = run_import(shipped, tmp_path / "fr.po")
    assert code == 0, report
    assert report["changed"] == sorted(new)
    # the sidecar records the paragraph's new French (a paragraph's record is found again by it)
    assert changed(before, snapshot(shipped)) == sorted(
        ["cards/red.yaml", "locales/fr.yaml", "templates/books/strings.yaml", "templates/books/rulebook.fr.md",
         "locales/fr.fingerprints.yaml"])
    now = french(shipped)
    assert {k: now[k] for k in new} == new
    # only the lines of the changed strings differ; comments and layout are the same bytes
    lines_changed = {"cards/red.yaml": 2, "locales/fr.yaml": 1, "templates/books/strings.yaml": 1,
                     "templates/books/rulebook.fr.md": 1, "locales/fr.fingerprints.yaml": 1}
    for rel, count in lines_changed.items():
        old_lines = before[rel].decode().split("\n")
        new_lines = (shipped / rel).read_text(encoding="utf-8").split("\n")
        assert len(old_lines) == len(new_lines)
        assert sum(a != b for a, b in zip(old_lines, new_lines)) == count, rel
    red = (shipped / "cards/red.yaml").read_text(encoding="utf-8")
    assert 'name: {en: "Kindle", fr: "L\'Étincelle : vive"}' in red
    assert 'fr: "Deux \\"lignes\\"\\net un retour"}' in red
    assert '  rush: "Ruée: rapide"\n' in (shipped / "locales/fr.yaml").read_text(encoding="utf-8")
    # a second import of the same file changes nothing more
    again = snapshot(shipped)
    assert run_import(shipped, tmp_path / "fr.po")[0] == 0
    assert changed(again, snapshot(shipped)) == []


def test_a_missing_french_is_added_to_its_mapping(shipped, tmp_path):
    red = shipped / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace('name: {en: "Kindle", fr: "Étincelle"}',
                                                           'name: {en: "Kindle"}'), encoding="utf-8")
    loc = shipped / "locales/fr.yaml"
    text = loc.read_text(encoding="utf-8")
    loc.write_text(text.replace("  rush: Ruée\n", ""), encoding="utf-8")
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    for entry in po:
        if entry.msgctxt == "cards/kindle/name":
            assert entry.msgstr == ""
            entry.msgstr = "Étincelle"
        if entry.msgctxt == "locales/keywords.rush":
            entry.msgstr = "Ruée"
    po.save(str(tmp_path / "fr.po"))
    code, report = run_import(shipped, tmp_path / "fr.po")
    assert code == 0, report
    assert 'name: {en: "Kindle", fr: Étincelle}' in red.read_text(encoding="utf-8")
    assert french(shipped)["locales/keywords.rush"] == "Ruée"
    data, _ = yamlsrc.load(loc.read_text(encoding="utf-8"))
    assert data["keywords"]["rush"] == "Ruée" and list(data["keywords"])[-1] == "rush"


def test_an_xliff_translation_is_imported(shipped, tmp_path, exports):
    file = exports.to("xliff", tmp_path / "fr.xlf")
    doc = etree.parse(str(file))
    target = doc.find(".//x:unit[@name='cards/ash-runner/name']/x:segment/x:target", NS)
    target.text = "Coureur de Cendre"
    doc.write(str(file), xml_declaration=True, encoding="UTF-8")
    code, report = run_import(shipped, file)
    assert code == 0, report
    assert report["changed"] == ["cards/ash-runner/name"]
    assert french(shipped)["cards/ash-runner/name"] == "Coureur de Cendre"


def test_dry_run_writes_nothing(shipped, tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
    po.find("Kindle", msgctxt="cards/kindle/name").msgstr = "Braise"
    po.save(str(tmp_path / "fr.po"))
    before = snapshot(shipped)
    code, report = run_import(shipped, tmp_path / "fr.po", "--dry-run")
    assert code == 0 and report["changed"] == ["cards/kindle/name"] and report["written"] is False
    assert changed(before, snapshot(shipped)) == []


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_a_translation_longer_than_its_limit_is_written_with_a_warning(shipped, tmp_path, fmt, exports):
    file = exports.to(fmt, tmp_path / f"fr.{fmt}")
    long_name = "Étincelle des braises ardentes qui ne s'éteignent jamais au cœur de la forge"
    text = file.read_text(encoding="utf-8")
    old = 'msgstr "Étincelle"' if fmt == "po" else "<target>Étincelle</target>"
    new = f'msgstr "{long_name}"' if fmt == "po" else f"<target>{long_name}</target>"
    assert text.count(old) == 1
    file.write_text(text.replace(old, new), encoding="utf-8")
    code, report = run_import(shipped, file)
    assert code == 0 and report["changed"] == ["cards/kindle/name"]
    [warning] = [f for f in report["findings"] if f["rule"] == "import-too-long"]
    assert "cards/kindle/name" in warning["message"] and warning["severity"] == "warning"
    # within its limit, no warning
    file.write_text(text, encoding="utf-8")
    code, report = run_import(shipped, file)
    assert code == 0 and not [f for f in report["findings"] if f["rule"] == "import-too-long"]
