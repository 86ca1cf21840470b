"""forge edits a YAML file only inside the value it means to change, or refuses.

A French string written as a folded block whose header line reads like the value
(`fr: >- # l'eau` then `  >- # l'eau`) made `forge parity --fix` "fix" the apostrophe of the
header's comment: it wrote outside the string, reported it fixed, and left the French as it was.
Now a typography fix is applied only inside the characters of one plain or quoted string (no alias
sharing it), and only when the file then reads back with that string, and nothing else, changed;
otherwise the file keeps every byte and the problem stays a finding. A translation imported into a
value an alias shares (`*name`) is refused with a finding, never written into the anchored value.
"""
from __future__ import annotations

import json
from pathlib import Path

import polib

from forge.carddb import yamlsrc
from tests.i18n.helpers import changed, export, forge, run_import, snapshot

FLAVOR = 'flavor: {en: "It already knows which of you will fall first.", fr: "Elle sait déjà lequel de vous tombera le premier."}'


def with_flavor(root: Path, replacement: str) -> Path:
    path = root / "cards" / "black.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(FLAVOR) == 1
    path.write_text(text.replace(FLAVOR, replacement), encoding="utf-8")
    return path


def typography(root: Path) -> list[dict]:
    result = forge("parity", "--root", str(root), "--format", "json")
    return [f for f in json.loads(result.stdout)["findings"]
            if f["rule"] == "typography" and f["file"] == "cards/black.yaml"]


def test_a_fix_never_lands_in_a_block_header_that_reads_like_the_value(shipped):
    path = with_flavor(shipped, "flavor:\n      en: \"It already knows which of you will fall first.\"\n"
                                "      fr: >- # l'eau\n        >- # l'eau\n")
    before = path.read_bytes()
    assert typography(shipped)
    result = forge("parity", "--root", str(shipped), "--fix", "--format", "json")
    assert result.exit_code == 1, result.output
    assert path.read_bytes() == before  # refused: not a byte written, the header comment included
    assert json.loads(result.stdout)["fixed"] == {}
    assert typography(shipped)  # the problem is still reported, for a person to fix


def test_a_fix_next_to_such_a_block_still_applies_to_a_plain_string(shipped):
    path = with_flavor(shipped, "flavor: {en: \"It already knows.\", fr: Elle sait l'heure}")
    result = forge("parity", "--root", str(shipped), "--fix", "--format", "json")
    assert json.loads(result.stdout)["fixed"] == {"cards/black.yaml": 1}, result.output
    data, _ = yamlsrc.load(path.read_text(encoding="utf-8"))
    assert data["cards"][0]["flavor"]["fr"] == "Elle sait l’heure"


def test_an_import_into_a_value_an_alias_shares_is_refused(shipped, tmp_path):
    path = shipped / "cards" / "black.yaml"
    text = path.read_text(encoding="utf-8")
    name = 'name: {en: "Carrion Crow", fr: "Corneille Charognarde"}'
    assert text.count(name) == 1
    path.write_text(text.replace(name, 'name: &crow {en: "Carrion Crow", fr: "Corneille Charognarde"}')
                    .replace('name: {en: "Vial of Venom", fr: "Fiole de Venin"}', "name: *crow"), encoding="utf-8")
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    po.find("cards/vial-of-venom/name", by="msgctxt").msgstr = "Fiole"
    po.save(str(tmp_path / "fr.po"))
    before = snapshot(shipped)
    code, report = run_import(shipped, tmp_path / "fr.po")
    assert code == 1 and report["changed"] == []
    assert changed(before, snapshot(shipped)) == []
    assert any(f["rule"] in ("import-edit", "import-verify") for f in report["findings"]), report["findings"]
