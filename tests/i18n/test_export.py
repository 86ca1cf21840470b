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
SLR = "urn:oasis:names:tc:xliff:sizerestriction:2.0"



def test_the_po_holds_every_string_with_its_id_source_and_context(shipped, tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
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


def test_msgfmt_accepts_the_po_without_a_warning(tmp_path, exports):
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed (scripts/install --test installs it)"
    done = subprocess.run([msgfmt, "--check", "--statistics", "-o", str(tmp_path / "fr.mo"),
                           str(exports.to("po", tmp_path / "fr.po"))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr and "translated messages" in done.stderr


def test_the_xliff_is_valid_xliff_2(tmp_path, exports):
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    assert schema.validate(doc), schema.error_log
    unit = doc.find(".//x:unit[@name='cards/kindle/name']", NS)
    assert unit.get("id") == "cards:kindle:name"
    assert unit.findtext("x:segment/x:source", namespaces=NS) == "Kindle"
    assert unit.findtext("x:segment/x:target", namespaces=NS) == "Étincelle"
    assert unit.find("x:segment", NS).get("state") == "reviewed"
    assert "cards/red.yaml:10" in [n.text for n in unit.iterfind("x:notes/x:note[@category='location']", NS)]


def test_a_broken_file_fails_the_schema(tmp_path, exports):
    """The schema is not a rubber stamp: a unit without its segment, or an unknown state, fails it."""
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    doc.find(".//x:segment", NS).set("state", "done")
    assert not schema.validate(doc)


def test_the_export_is_byte_identical_run_to_run_and_from_any_folder(shipped, tmp_path, monkeypatch, exports):
    """Another run, of another copy of the game, from another working folder: the session's export, byte for byte."""
    monkeypatch.chdir(tmp_path)
    for fmt in ("po", "xliff"):
        assert export(shipped, fmt, tmp_path / f"b.{fmt}").read_bytes() == exports.to(fmt, tmp_path / f"a.{fmt}").read_bytes()


def test_another_language_is_a_usage_error(shipped, tmp_path):
    result = forge("i18n", "export", "--root", str(shipped), "--lang", "de", "--out", str(tmp_path / "x.po"))
    assert result.exit_code == 2
    assert not (tmp_path / "x.po").exists()


def fill(comment: str) -> int:
    return int(re.search(r"fills\s+(\d+) %", comment).group(1))


def test_a_card_name_says_how_much_room_it_has(shipped, tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
    note = " ".join(po.find("Kindle", msgctxt="cards/kindle/name").comment.split())  # polib wraps comments
    assert "Room: the name bar is" in note and "the French fills" in note
    red = shipped / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace('fr: "Étincelle"', 'fr: "Étincelle des braises ardentes"'),
                   encoding="utf-8")
    longer = polib.pofile(str(export(shipped, "po", tmp_path / "long.po")))
    assert fill(longer.find("Kindle", msgctxt="cards/kindle/name").comment) > 2 * fill(note)


# -- maximum lengths (issue 11 §2: "the maximum length that fits") ------------------------------------
def test_every_bounded_string_carries_its_limit_in_the_po_and_the_xliff(tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
    flags = {e.msgctxt: int(f.split(":")[1]) for e in po for f in e.flags if f.startswith("max-length:")}
    # one of each printed kind: a name, a type, a faction, a keyword, a phrase, a flavour, a book heading
    heading = next(e.msgctxt for e in po if e.msgid == "Frequently asked questions")
    for pid in ("cards/kindle/name", "locales/types.creature", "locales/factions.red", "locales/keywords.wound",
                "locales/phrases.wound", "cards/kindle/flavor", heading):
        assert pid in flags, pid
    assert 20 < flags["cards/kindle/name"] < 60 and flags["locales/phrases.wound"] > 5 * flags["cards/kindle/name"]
    assert "Room: the type bar, less the rest of its type line is" in " ".join(
        po.find("locales/types.creature", by="msgctxt").comment.split())
    assert "locales/language" not in flags and "strings/setup.caption" not in flags  # not bounded
    assert "strings/kind" in flags and "strings/anatomy.cost.label" in flags  # a table header, a legend label
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    assert etree.XMLSchema(etree.parse(str(XSD))).validate(doc)
    sizes = {u.get("name"): int(u.get(f"{{{SLR}}}sizeRestriction")) for u in doc.iterfind(".//x:unit", NS)
             if u.get(f"{{{SLR}}}sizeRestriction") is not None}
    assert sizes == flags
    assert doc.find(f"x:file/{{{SLR}}}profiles", NS).get("generalProfile") == "xliff:codepoints"


def test_a_limit_follows_the_layout(shipped, tmp_path, exports):
    before = polib.pofile(str(exports.to("po", tmp_path / "a.po")))
    card = shipped / "templates/cards/card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("name: {box: [13.8, 3.6, 45.6, 8.4], max_size: 12.5, "
                                                             "min_size: 7.0}",
                                                             "name: {box: [13.8, 3.6, 30.0, 8.4], max_size: 12.5, "
                                                             "min_size: 7.0}"), encoding="utf-8")
    after = polib.pofile(str(export(shipped, "po", tmp_path / "b.po")))

    def limit(po, pid):
        return next(int(f.split(":")[1]) for f in po.find(pid, by="msgctxt").flags if f.startswith("max-length"))
    assert limit(after, "cards/kindle/name") < 0.75 * limit(before, "cards/kindle/name")


def test_the_size_schema_is_not_a_rubber_stamp(tmp_path, exports):
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    doc.find(".//x:unit[@name='cards/kindle/name']", NS).set(f"{{{SLR}}}sizeRestriction", "many")
    assert not schema.validate(doc)
