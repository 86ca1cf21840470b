"""The termbase (issue 11 §4): exported as TBX and CSV that read back to the same terms; kept consistent."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from xml.etree import ElementTree as ET

from forge.text import termbase
from forge.text.sources import Sources

NS = {"t": "urn:iso:std:iso:30042:ed-2"}
LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def shipped_terms(root):
    return termbase.load(Sources(root)).terms


def test_tbx_reads_back_to_the_termbase(shipped, cli):
    result = cli(["i18n", "termbase", "--root", str(shipped), "--format", "tbx"])
    assert result.exit_code == 0, result.output
    tree = ET.fromstring(result.stdout.encode("utf-8"))
    entries = tree.findall(".//t:conceptEntry", NS)
    terms = shipped_terms(shipped)
    assert len(entries) == len(terms) > 30
    by_id = {e.get("id"): e for e in entries}
    exile = by_id["exile-pile"]
    fr = exile.find("t:langSec[@{http://www.w3.org/XML/1998/namespace}lang='fr']", NS)
    assert fr.find("t:termSec/t:term", NS).text == "pile d’exil"
    assert fr.find("t:termSec/t:termNote[@type='grammaticalGender']", NS).text == "feminine"
    for entry, term in zip(entries, terms):
        heads = {sec.get(LANG): sec.find("t:termSec/t:term", NS).text for sec in entry.findall("t:langSec", NS)}
        assert heads == {"en": term.en, "fr": term.fr}


def test_csv_reads_back_to_the_termbase(shipped, tmp_path, cli):
    out = tmp_path / "terms.csv"
    result = cli(["i18n", "termbase", "--root", str(shipped), "--format", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    terms = shipped_terms(shipped)
    assert [(r["en"], r["fr"], r["fr_gender"]) for r in rows] == [(t.en, t.fr, t.gender) for t in terms]
    assert next(r for r in rows if r["id"] == "exhaust")["fr_forms"].split("|")[:2] == ["épuiser", "épuise"]


def test_an_english_term_with_two_french_terms(shipped, cli):
    path = shipped / "locales/termbase.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "  - {id: rush-again, en: Rush, fr: Charge}\n", encoding="utf-8")
    line = text.count("\n") + 1
    result = cli(["parity", "--root", str(shipped), "--format", "json"])
    found = json.loads(result.stdout)["findings"]
    assert result.exit_code == 1
    assert ("locales/termbase.yaml", line, "terminology") in {(f["file"], f["line"], f["rule"]) for f in found}


def test_a_broken_termbase_is_not_exported(shipped, cli):
    (shipped / "locales/termbase.yaml").write_text("terms: [\n", encoding="utf-8")
    result = cli(["i18n", "termbase", "--root", str(shipped)])
    assert result.exit_code == 2 and "cannot export the termbase" in result.output


def test_a_term_naming_a_locale_key_that_does_not_exist(shipped, cli):
    path = shipped / "locales/termbase.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("locale: [keywords.rush]", "locale: [keyword.rush]"), encoding="utf-8")
    line = text[:text.index("{id: rush,")].count("\n") + 1  # the term's line
    result = cli(["parity", "--root", str(shipped), "--format", "json"])
    found = json.loads(result.stdout)["findings"]
    assert result.exit_code == 1
    assert [(f["file"], f["line"], f["rule"]) for f in found] == [("locales/termbase.yaml", line, "termbase")]


def test_forbidden_variants_are_deprecated_terms_in_tbx_and_columns_in_csv(shipped, cli):
    result = cli(["i18n", "termbase", "--root", str(shipped), "--format", "tbx"])
    tree = ET.fromstring(result.stdout.encode("utf-8"))
    entry = next(e for e in tree.findall(".//t:conceptEntry", NS) if e.get("id") == "discard-pile")
    fr = entry.find(f"t:langSec[@{LANG}='fr']", NS)
    status = {sec.find("t:term", NS).text: sec.find("t:termNote[@type='administrativeStatus']", NS).text
              for sec in fr.findall("t:termSec", NS)}
    assert status["défausse"] == "preferredTerm-admn" and status["cimetière"] == "deprecatedTerm-admn"
    assert tree.get("type") == "TBX-Basic"
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(cli(["i18n", "termbase", "--root", str(shipped), "--format", "csv"]).stdout))}
    assert rows["discard-pile"]["fr_forbidden"] == "cimetière|pile de défausse"
    assert rows["discard-pile"]["en_forbidden"] == "graveyard"


RNG = Path(__file__).parents[1] / "data" / "tbx" / "tbx_basic_forge.rng"


def test_the_tbx_is_valid_against_the_tbx_basic_schema(shipped, cli):
    from lxml import etree

    result = cli(["i18n", "termbase", "--root", str(shipped), "--format", "tbx"])
    doc = etree.fromstring(result.stdout.encode("utf-8"))
    schema = etree.RelaxNG(etree.parse(str(RNG)))
    assert schema.validate(doc), schema.error_log
    # not a rubber stamp: a status outside TBX-Basic's picklist, or a concept id that is no XML ID, fails it
    note = doc.find(".//t:termNote[@type='administrativeStatus']", NS)
    note.text = "forbidden"
    assert not schema.validate(doc)
    note.text = "deprecatedTerm-admn"
    assert schema.validate(doc)
    doc.find(".//t:conceptEntry", NS).set("id", "1 wound")
    assert not schema.validate(doc)


def test_a_term_id_that_is_no_xml_name_still_makes_a_valid_tbx(shipped, cli):
    from lxml import etree

    path = shipped / "locales/termbase.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("{id: wound,", "{id: 2 wounds,"), encoding="utf-8")
    result = cli(["i18n", "termbase", "--root", str(shipped), "--format", "tbx"])
    doc = etree.fromstring(result.stdout.encode("utf-8"))
    assert doc.find(".//t:conceptEntry", NS).get("id") == "term-2-wounds"
    assert etree.RelaxNG(etree.parse(str(RNG))).validate(doc)
