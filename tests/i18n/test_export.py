"""``forge i18n export``: every string with its id, English, context and terms; msgfmt and XLIFF 2.0 accept it."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib
from lxml import etree

from forge.i18n import inventory

from .helpers import export, forge

XSD = Path(__file__).parents[1] / "data" / "xliff" / "xliff_core_2.0_forge.xsd"
NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}



def test_the_po_holds_every_string_with_its_id_source_and_context(shipped, tmp_path):
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    pairs = [p for p in inventory.build(shipped).pairs if p.en is not None and p.en.text.strip()]
    assert [e.msgctxt for e in po] == [p.id for p in pairs]
    assert po.metadata["Language"] == "fr"
    kindle = po.find("Kindle", msgctxt="cards/kindle/name")
    assert kindle.msgstr == "Étincelle" and "fuzzy" not in kindle.flags
    assert kindle.occurrences == [("cards/red.yaml", "10")]  # English and French on one line
    assert "Card `kindle` (spell): its name." in kindle.comment
    assert "output/gamecrafter/fr/kindle.png" in kindle.comment
    wound = next(e for e in po if e.msgctxt == "locales/phrases.wound")
    assert "Wound = Blessures (f.)" in wound.comment  # the termbase term it contains


def test_msgfmt_accepts_the_po_without_a_warning(shipped, tmp_path):
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed (scripts/install --test installs it)"
    done = subprocess.run([msgfmt, "--check", "--statistics", "-o", str(tmp_path / "fr.mo"),
                           str(export(shipped, "po", tmp_path / "fr.po"))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr and "translated messages" in done.stderr


def test_the_xliff_is_valid_xliff_2(shipped, tmp_path):
    doc = etree.parse(str(export(shipped, "xliff", tmp_path / "fr.xlf")))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    assert schema.validate(doc), schema.error_log
    unit = doc.find(".//x:unit[@name='cards/kindle/name']", NS)
    assert unit.get("id") == "cards:kindle:name"
    assert unit.findtext("x:segment/x:source", namespaces=NS) == "Kindle"
    assert unit.findtext("x:segment/x:target", namespaces=NS) == "Étincelle"
    assert unit.find("x:segment", NS).get("state") == "reviewed"
    assert "cards/red.yaml:10" in [n.text for n in unit.iterfind("x:notes/x:note[@category='location']", NS)]


def test_a_broken_file_fails_the_schema(shipped, tmp_path):
    """The schema is not a rubber stamp: a unit without its segment, or an unknown state, fails it."""
    doc = etree.parse(str(export(shipped, "xliff", tmp_path / "fr.xlf")))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    doc.find(".//x:segment", NS).set("state", "done")
    assert not schema.validate(doc)


def test_the_export_is_byte_identical_run_to_run_and_from_any_folder(shipped, tmp_path, monkeypatch):
    a = export(shipped, "po", tmp_path / "a.po").read_bytes()
    monkeypatch.chdir(tmp_path)
    b = export(shipped, "po", tmp_path / "b.po").read_bytes()
    assert a == b
    assert export(shipped, "xliff", tmp_path / "a.xlf").read_bytes() == \
        export(shipped, "xliff", tmp_path / "b.xlf").read_bytes()


def test_another_language_is_a_usage_error(shipped, tmp_path):
    result = forge("i18n", "export", "--root", str(shipped), "--lang", "de", "--out", str(tmp_path / "x.po"))
    assert result.exit_code == 2
    assert not (tmp_path / "x.po").exists()


def fill(comment: str) -> int:
    return int(re.search(r"fills\s+(\d+) %", comment).group(1))


def test_a_card_name_says_how_much_room_it_has(shipped, tmp_path):
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    note = " ".join(po.find("Kindle", msgctxt="cards/kindle/name").comment.split())  # polib wraps comments
    assert "Room: the name bar is" in note and "the French fills" in note
    red = shipped / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace('fr: "Étincelle"', 'fr: "Étincelle des braises ardentes"'),
                   encoding="utf-8")
    longer = polib.pofile(str(export(shipped, "po", tmp_path / "long.po")))
    assert fill(longer.find("Kindle", msgctxt="cards/kindle/name").comment) > 2 * fill(note)
