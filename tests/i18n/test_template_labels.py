"""The card template's labels in the translators' files: exported, imported in place, tracked when stale."""
from __future__ import annotations

import polib
from lxml import etree

from forge.i18n import inventory

from .helpers import changed, edit, export, forge, line_of, parity, run_import, snapshot

CARD = "templates/cards/card.yaml"
NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
SLR = "urn:oasis:names:tc:xliff:sizerestriction:2.0"


def test_the_po_holds_every_template_label_with_its_place_and_room(shipped, tmp_path, exports):
    po = polib.pofile(str(exports.to("po", tmp_path / "fr.po")))
    ours = {e.msgctxt: e for e in po if e.msgctxt.startswith("template/")}
    assert len(ours) == 76  # 79 labels, 3 of them empty lines of the TTS README
    turn = ours["template/aids.turn"]
    assert (turn.msgid, turn.msgstr) == ("Turn summary", "Résumé du tour") and not turn.fuzzy
    assert turn.occurrences == [(CARD, str(line_of(shipped, CARD, "turn: Turn summary"))),
                                (CARD, str(line_of(shipped, CARD, "turn: Résumé du tour")))]
    assert any(f.startswith("max-length:") for f in turn.flags) and "player aids" in turn.comment
    assert any(f.startswith("max-length:") for f in ours["template/calibration_help.2"].flags)
    assert not any(f.startswith("max-length:") for f in ours["template/tts_help.6"].flags)  # a plain-text file
    # a code span goes out as it is, backticks included: the translator sees what to copy
    assert "`~/Library/Tabletop Simulator/`" in ours["template/tts_help.7"].msgid


def test_a_template_label_imported_from_xliff_changes_its_line_only(shipped, tmp_path, exports):
    file = exports.to("xliff", tmp_path / "fr.xlf")
    doc = etree.parse(str(file))
    unit = next(u for u in doc.iterfind(".//x:unit", NS) if u.get("name") == "template/aids.deck")
    assert int(unit.get(f"{{{SLR}}}sizeRestriction", "0")) == 0  # the mat: a whole page, no limit
    unit.find("x:segment/x:target", NS).text = "Pioche de cartes"
    doc.write(str(file), xml_declaration=True, encoding="UTF-8")
    before = snapshot(shipped)
    code, report = run_import(shipped, file)
    assert code == 0, report
    assert report["changed"] == ["template/aids.deck"]
    assert changed(before, snapshot(shipped)) == [CARD]  # its English did not change: same fingerprint
    old, new = before[CARD].decode().split("\n"), (shipped / CARD).read_text(encoding="utf-8").split("\n")
    assert [(a, b) for a, b in zip(old, new) if a != b] == [("      deck: Pioche", "      deck: Pioche de cartes")]
    assert parity(shipped) == (0, [])


def test_an_unchanged_po_import_leaves_the_template_byte_for_byte(shipped, tmp_path, exports):
    file = exports.to("po", tmp_path / "fr.po")
    before = snapshot(shipped)
    assert run_import(shipped, file)[0] == 0
    assert changed(before, snapshot(shipped)) == []


def test_an_english_aid_edited_makes_its_french_stale_until_reviewed(shipped, tmp_path):
    edit(shipped, CARD, "tokens_note: \"Print at 100 % and cut along the grey lines.\"",
         "tokens_note: \"Print at 100 % and cut along the dotted lines.\"")
    code, findings = parity(shipped)
    assert code == 0  # a warning: the French may still be right
    assert {(f["file"], f["line"], f["rule"]) for f in findings} == {
        (CARD, line_of(shipped, CARD, "tokens_note: \"Imprimez"), "stale-translation")}
    po = polib.pofile(str(export(shipped, "po", tmp_path / "fr.po")))
    assert po.find("template/aids.tokens_note", by="msgctxt").fuzzy
    result = forge("i18n", "reviewed", "template/aids.tokens_note", "--root", str(shipped))
    assert result.exit_code == 0, result.output
    assert parity(shipped) == (0, [])


def test_every_template_label_is_fingerprinted_in_the_shipped_game(shipped):
    from forge.i18n import fingerprints

    inv = inventory.build(shipped)
    record = fingerprints.load(inv.sources)
    ours = [p for p in fingerprints.untracked(inv, record) + fingerprints.stale(inv, record)
            if p.kind == "template-label"]
    assert ours == [] and sum(p.kind == "template-label" for p in inv.pairs) == 79


def test_forge_diff_lists_a_stale_template_label(shipped):
    import json
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=shipped, check=True,
                       capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "base")
    edit(shipped, CARD, "mat: Player mat", "mat: Player board")
    data = json.loads(forge("diff", "HEAD", "--root", str(shipped), "--format", "json").stdout)
    review = {s["id"]: s for s in data["french_to_review"]}
    assert list(review) == ["template/aids.mat"]
    assert review["template/aids.mat"]["where"] == f"{CARD}:{line_of(shipped, CARD, 'mat: Plateau du joueur')}:12"
    assert (review["template/aids.mat"]["english_before"], review["template/aids.mat"]["english_now"]) == \
        ("Player mat", "Player board")
