"""A translator's file cannot write control, direction or invisible characters into the sources.

Before, `forge i18n import` wrote an ESC sequence or a bell into a card name or a rulebook paragraph
(they then reached terminals, logs and every rendered page), and a right-to-left override or a
zero-width space into any French string. Now each is a finding at the import file's line:col and the
import writes nothing at all, the good strings of the same file included.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from lxml import etree

from tests.i18n.helpers import changed, export, prose_id, run_import, snapshot

from ..conftest import REPO

NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
#: (character, its code as the finding names it): C0 and C1 controls, bidi controls, invisible format characters.
HIDDEN = [("\x1b[2J\x1b[31m", "001B"), ("\x07", "0007"), ("\x00", "0000"), ("\x85", "0085"), ("\r", "000D"),
          ("\u202e", "202E"), ("\u2067", "2067"), ("\u200f", "200F"), ("\u200b", "200B"), ("\u2028", "2028"),
          ("\ufeff", "FEFF")]


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, str]:
    """The shipped game's French as `forge i18n export` writes it, PO and XLIFF, exported once for the module:
    each test edits a copy (``fresh``)."""
    root = tmp_path_factory.mktemp("exported")
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, root / part)
    return {fmt: export(root, fmt, root / f"fr.{fmt}").read_text(encoding="utf-8") for fmt in ("po", "xliff")}


def fresh(exported: dict[str, str], fmt: str, file: Path) -> Path:
    file.write_text(exported[fmt], encoding="utf-8")
    return file


def refused(root: Path, file: Path, code: str) -> list[dict]:
    before = snapshot(root)
    got, report = run_import(root, file)
    assert got == 1, report
    assert report["written"] is False and report["changed"] == []
    assert changed(before, snapshot(root)) == []
    found = [f for f in report["findings"] if f["rule"] == "import-character"]
    assert found and all(f"U+{code}" in f["message"] for f in found), report["findings"]
    return found


@pytest.mark.parametrize("hidden, code", HIDDEN)
def test_a_hidden_character_in_a_po_is_refused_at_its_place(shipped, exported, tmp_path, hidden, code):
    po = polib.pofile(str(fresh(exported, "po", tmp_path / "fr.po")))
    po.find("cards/ash-runner/name", by="msgctxt").msgstr = "Coureur des Braises"  # good, not written either
    po.find("cards/kindle/name", by="msgctxt").msgstr = f"Étin{hidden}celle"
    po.save(str(tmp_path / "fr.po"))
    finding = refused(shipped, tmp_path / "fr.po", code)[0]
    lines = (tmp_path / "fr.po").read_text(encoding="utf-8").split("\n")
    line = lines[finding["line"] - 1]
    if hidden == "\r":  # polib writes a CR as the escape \r: the finding is at the msgstr
        assert line.startswith("msgstr"), (finding, line)
    else:
        assert line[finding["column"] - 1] == hidden[0] and "Étin" in line, (finding, line)


@pytest.mark.parametrize("hidden, code", [("\x1b]8;;http://evil\x1b\\", "001B"), ("\x07", "0007")])
def test_a_control_in_a_rulebook_paragraph_is_refused(shipped, exported, tmp_path, hidden, code):
    po = polib.pofile(str(fresh(exported, "po", tmp_path / "fr.po")))
    entry = po.find(prose_id(shipped, "rulebook", "reduce your opponent's health"), by="msgctxt")
    entry.msgstr = entry.msgstr.replace(" ", f" {hidden}", 1)
    po.save(str(tmp_path / "fr.po"))
    refused(shipped, tmp_path / "fr.po", code)


@pytest.mark.parametrize("hidden, code", [("\u202e", "202E"), ("\u2066", "2066"), ("\u200b", "200B"),
                                          ("\u00ad", "00AD")])
def test_a_hidden_character_in_an_xliff_is_refused_at_its_place(shipped, exported, tmp_path, hidden, code):
    file = fresh(exported, "xliff", tmp_path / "fr.xlf")
    doc = etree.parse(str(file))
    doc.find(".//x:unit[@name='cards/kindle/name']/x:segment/x:target", NS).text = f"Étin{hidden}celle"
    doc.write(str(file), xml_declaration=True, encoding="UTF-8")
    [finding] = refused(shipped, file, code)
    line = file.read_text(encoding="utf-8").split("\n")[finding["line"] - 1]
    assert line[finding["column"] - 1] == hidden, (finding, line)


def test_an_escaped_bidi_override_in_an_xliff_is_refused_at_its_target(shipped, exported, tmp_path):
    file = fresh(exported, "xliff", tmp_path / "fr.xlf")
    text = file.read_text(encoding="utf-8")
    text, n = re.subn(r"(<unit [^>]*name=\"cards/kindle/name\"[\s\S]*?<target[^>]*>)", r"\1&#x202E;", text, count=1)
    assert n == 1
    file.write_text(text, encoding="utf-8")
    [finding] = refused(shipped, file, "202E")
    line = file.read_text(encoding="utf-8").split("\n")[finding["line"] - 1]
    assert line[finding["column"] - 1:].startswith("<target"), (finding, line)


def test_tabs_line_breaks_and_french_spaces_are_imported(shipped, exported, tmp_path):
    po = polib.pofile(str(fresh(exported, "po", tmp_path / "fr.po")))
    po.find("cards/kindle/name", by="msgctxt").msgstr = "Étincelle\u00a0!"
    po.find("cards/kindle/flavor", by="msgctxt").msgstr = "Deux lignes\u202f:\net\tune tabulation"
    po.save(str(tmp_path / "fr.po"))
    code, report = run_import(shipped, tmp_path / "fr.po")
    assert code == 0, report
    assert sorted(report["changed"]) == ["cards/kindle/flavor", "cards/kindle/name"]


def test_a_file_full_of_hidden_characters_is_refused_quickly_in_a_bounded_report(tmp_path):
    from forge.i18n import importer

    from ..conftest import cpu_seconds

    units = "".join(f'<unit id="u{i}" name="cards/c{i}/name"><segment state="final"><source>a</source>'
                    f"<target>b\u200b</target></segment></unit>" for i in range(20000))
    file = tmp_path / "fr.xlf"  # one line, as a minifier writes it
    file.write_text('<?xml version="1.0" encoding="UTF-8"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" '
                    f'version="2.0" srcLang="en" trgLang="fr"><file id="f">{units}</file></xliff>', encoding="utf-8")
    started = cpu_seconds()
    items, found, io_error = importer.read(file)
    assert cpu_seconds() - started < 5
    hidden = [f for f in found if f.rule == "import-character"]
    assert len(hidden) == importer.MAX_REPORTED + 1 and hidden[-1].message.startswith("19900 more")
