"""Stale French (issue 11 §3): when the English changes, the French to review is listed everywhere."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polib
import pytest
from lxml import etree

from forge.core.findings import WARNING
from forge.i18n import fingerprints, inventory

from .helpers import changed, edit, forge, line_of, parity, prose_id, snapshot

NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
STALE = "stale-translation"


def tracked(root: Path) -> list:
    """What parity reports of the stale tracking (``fingerprints.findings``), on the inventory alone."""
    inv = inventory.build(root)
    return fingerprints.findings(inv, fingerprints.load(inv.sources))


def stale_at(root: Path) -> set[tuple[str, int]]:
    findings = tracked(root)
    assert all(f.severity == WARNING for f in findings), findings  # a warning: the French may still be right
    return {(f.position.file, f.position.line) for f in findings if f.rule == STALE}


def english_edits(root: Path) -> None:
    """The English of one card name and one paragraph of the rulebook change."""
    edit(root, "cards/red.yaml", 'name: {en: "Kindle"', 'name: {en: "Kindling"')
    edit(root, "templates/books/rulebook.en.md", "is a deckbuilding game for 2 players",
         "is a deckbuilding duel for 2 players")


def test_the_shipped_game_has_every_french_fingerprinted_and_none_stale(shipped):
    inv = inventory.build(shipped)
    record = fingerprints.load(inv.sources)
    assert record.tracked and not record.findings
    assert fingerprints.untracked(inv, record) == []
    assert fingerprints.stale(inv, record) == []
    assert stale_at(shipped) == set()


def test_an_english_edit_makes_its_french_stale_at_the_french_line(shipped):
    english_edits(shipped)
    expected = {
        ("cards/red.yaml", line_of(shipped, "cards/red.yaml", 'fr: "Étincelle"')),
        ("templates/books/rulebook.fr.md",
         line_of(shipped, "templates/books/rulebook.fr.md", "{game} est un jeu de deckbuilding")),
    }
    assert stale_at(shipped) == expected
    code, findings = parity(shipped)  # end to end: a warning, parity still passes
    assert code == 0 and {(f["file"], f["line"]) for f in findings if f["rule"] == STALE} == expected, findings


def test_rewrapping_the_english_is_not_a_change(shipped):
    edit(shipped, "templates/books/rulebook.en.md", "is a deckbuilding game for 2 players",
         "is a deckbuilding game\nfor 2 players")
    assert stale_at(shipped) == set()


def test_stale_french_is_fuzzy_in_the_po_and_needs_review_in_xliff(shipped, tmp_path):
    english_edits(shipped)
    assert forge("i18n", "export", "--root", str(shipped), "-o", str(tmp_path / "fr.po")).exit_code == 0
    po = polib.pofile(str(tmp_path / "fr.po"))
    intro = prose_id(shipped, "rulebook", "is a deckbuilding duel for 2 players")
    assert sorted(e.msgctxt for e in po if "fuzzy" in e.flags) == [intro, "cards/kindle/name"]
    assert po.find("Kindling", msgctxt="cards/kindle/name").msgstr == "Étincelle"
    assert forge("i18n", "export", "--root", str(shipped), "--format", "xliff",
                 "-o", str(tmp_path / "fr.xlf")).exit_code == 0
    doc = etree.parse(str(tmp_path / "fr.xlf"))
    review = [u.get("name") for u in doc.iterfind(".//x:unit", NS)
              if u.find("x:segment", NS).get("subState") == "forge:needs-review"]
    assert sorted(review) == [intro, "cards/kindle/name"]


def test_reviewed_marks_named_strings_then_all(shipped):
    english_edits(shipped)
    result = forge("i18n", "reviewed", "cards/kindle/name", "--root", str(shipped))
    assert result.exit_code == 0, result.output
    assert {f for f, _ in stale_at(shipped)} == {"templates/books/rulebook.fr.md"}
    assert forge("i18n", "reviewed", "--all", "--root", str(shipped)).exit_code == 0
    assert stale_at(shipped) == set()


def test_reviewed_refuses_an_unknown_id_and_writes_nothing(shipped):
    english_edits(shipped)
    before = snapshot(shipped)
    result = forge("i18n", "reviewed", "cards/kindle/name", "cards/nope/name", "--root", str(shipped))
    assert result.exit_code == 1 and "cards/nope/name" in result.output
    assert changed(before, snapshot(shipped)) == []
    assert forge("i18n", "reviewed", "--root", str(shipped)).exit_code == 2  # neither ids nor --all


def test_importing_the_unfuzzied_translation_marks_it_reviewed(shipped, tmp_path):
    english_edits(shipped)
    forge("i18n", "export", "--root", str(shipped), "-o", str(tmp_path / "fr.po"))
    po = polib.pofile(str(tmp_path / "fr.po"))
    name = po.find("Kindling", msgctxt="cards/kindle/name")
    name.msgstr, name.flags = "Embrasement", []  # translated anew and no longer fuzzy, as Poedit saves it
    po.save(str(tmp_path / "fr.po"))
    result = forge("i18n", "import", str(tmp_path / "fr.po"), "--root", str(shipped), "--format", "json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["reviewed"] == ["cards/kindle/name"]
    assert {f for f, _ in stale_at(shipped)} == {"templates/books/rulebook.fr.md"}  # still fuzzy: still stale


def test_an_unchanged_import_of_a_stale_export_keeps_it_stale(shipped, tmp_path):
    english_edits(shipped)
    forge("i18n", "export", "--root", str(shipped), "-o", str(tmp_path / "fr.po"))
    before = snapshot(shipped)
    assert forge("i18n", "import", str(tmp_path / "fr.po"), "--root", str(shipped)).exit_code == 0
    assert changed(before, snapshot(shipped)) == []
    assert len(stale_at(shipped)) == 2


def test_an_import_against_older_english_writes_but_stays_stale(shipped, tmp_path, exports):
    exports.to("po", tmp_path / "fr.po")
    edit(shipped, "cards/red.yaml", 'name: {en: "Kindle"', 'name: {en: "Kindling"')
    po = polib.pofile(str(tmp_path / "fr.po"))
    po.find("Kindle", msgctxt="cards/kindle/name").msgstr = "Braise"
    po.save(str(tmp_path / "fr.po"))
    result = forge("i18n", "import", str(tmp_path / "fr.po"), "--root", str(shipped), "--format", "json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["changed"] == ["cards/kindle/name"]
    assert "import-source-changed" in {f["rule"] for f in report["findings"]}
    assert len(stale_at(shipped)) == 1


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                   capture_output=True)


def test_forge_diff_lists_the_french_to_review(shipped):
    git(shipped, "init", "-q")
    git(shipped, "add", "-A")
    git(shipped, "commit", "-qm", "base")
    english_edits(shipped)
    result = forge("diff", "HEAD", "--root", str(shipped))
    assert result.exit_code == 0, result.output
    assert "French to review (the English changed since it was translated): 2" in result.output
    line = line_of(shipped, "cards/red.yaml", 'fr: "Étincelle"')
    assert f"! cards/red.yaml:{line}:" in result.output and "“Kindle”" in result.output \
        and "“Kindling”" in result.output
    data = json.loads(forge("diff", "HEAD", "--root", str(shipped), "--format", "json").stdout)
    review = {s["id"]: s for s in data["french_to_review"]}
    assert review["cards/kindle/name"]["english_before"] == "Kindle"
    assert review["cards/kindle/name"]["english_now"] == "Kindling"
    intro = review[prose_id(shipped, "rulebook", "is a deckbuilding duel for 2 players")]
    assert intro["where"].startswith("templates/books/rulebook.fr.md:")
    assert "deckbuilding game for 2" in intro["english_before"] and "deckbuilding duel for 2" in intro["english_now"]


# -- ids made from the English, and strings no record knows (issue 11 §3) ----------------------------
TRACKING = {STALE, "untracked-translation"}


def tracking_findings(root: Path) -> list[tuple[str, str, int]]:
    return sorted((f.rule, f.position.file, f.position.line) for f in tracked(root) if f.rule in TRACKING)


GOAL_EN = "To win, reduce your opponent's health to 0."
GOAL_FR = "Pour gagner, réduisez"


@pytest.mark.slow
def test_inserting_a_paragraph_marks_only_it(shipped):
    before = {p.id for p in inventory.build(shipped).pairs}
    edit(shipped, "templates/books/rulebook.en.md", GOAL_EN, "A new first paragraph.\n\n" + GOAL_EN)
    assert tracking_findings(shipped) == []  # the French lacks it: a structure error, and nothing stale
    edit(shipped, "templates/books/rulebook.fr.md", GOAL_FR, "Un nouveau premier paragraphe.\n\n" + GOAL_FR)
    new = {p.id for p in inventory.build(shipped).pairs}
    assert before < new and len(new - before) == 1  # every other paragraph keeps its id
    line = line_of(shipped, "templates/books/rulebook.fr.md", "Un nouveau premier paragraphe.")
    assert tracking_findings(shipped) == [("untracked-translation", "templates/books/rulebook.fr.md", line)]
    result = forge("parity", "--root", str(shipped))
    assert f"forge i18n reviewed {(new - before).pop()}" in result.output
    assert forge("i18n", "reviewed", (new - before).pop(), "--root", str(shipped)).exit_code == 0
    assert tracking_findings(shipped) == []


def test_a_french_string_with_no_fingerprint_is_reported_until_reviewed(shipped):
    sidecar = shipped / fingerprints.SIDECAR
    text = sidecar.read_text(encoding="utf-8")
    sidecar.write_text("".join(line for line in text.splitlines(True) if not line.startswith('"cards/kindle/name"')),
                       encoding="utf-8")
    line = line_of(shipped, "cards/red.yaml", 'fr: "Étincelle"')
    assert tracking_findings(shipped) == [("untracked-translation", "cards/red.yaml", line)]
    assert forge("i18n", "reviewed", "cards/kindle/name", "--root", str(shipped)).exit_code == 0
    assert sidecar.read_text(encoding="utf-8") == text and tracking_findings(shipped) == []


def test_an_edited_paragraph_is_found_again_by_its_french_and_reviewing_drops_its_old_id(shipped):
    old = prose_id(shipped, "rulebook", "reduce your opponent's health")
    edit(shipped, "templates/books/rulebook.en.md", "reduce your opponent's health to 0",
         "bring your opponent's health down to 0")
    new = prose_id(shipped, "rulebook", "bring your opponent's health down")
    assert new != old and new.rsplit("/", 1)[0] == old.rsplit("/", 1)[0]
    line = line_of(shipped, "templates/books/rulebook.fr.md", GOAL_FR)
    assert tracking_findings(shipped) == [(STALE, "templates/books/rulebook.fr.md", line)]
    assert forge("i18n", "reviewed", new, "--root", str(shipped)).exit_code == 0
    text = (shipped / fingerprints.SIDECAR).read_text(encoding="utf-8")
    assert f'"{new}"' in text and f'"{old}"' not in text
    assert tracking_findings(shipped) == []


def test_a_renamed_section_keeps_its_records(shipped):
    old = prose_id(shipped, "rulebook", "reduce your opponent's health")
    edit(shipped, "templates/books/rulebook.en.md", "## Goal\n", "## The goal\n")
    assert prose_id(shipped, "rulebook", "reduce your opponent's health") != old  # the section is in the id
    # the heading's English changed (stale); its paragraphs moved to new ids and are found by their French
    heading = line_of(shipped, "templates/books/rulebook.fr.md", "## But du jeu")
    assert tracking_findings(shipped) == [(STALE, "templates/books/rulebook.fr.md", heading)]
    edit(shipped, "templates/books/rulebook.fr.md", "## But du jeu\n", "## Le but du jeu\n")
    # French and English both changed: nothing says which English the French was written for
    assert tracking_findings(shipped) == [("untracked-translation", "templates/books/rulebook.fr.md", heading)]


def test_a_sidecar_with_the_numbered_ids_of_before_still_reads_and_is_rewritten(shipped):
    inv = inventory.build(shipped)
    sidecar = shipped / fingerprints.SIDECAR
    legacy = {p.meta.get("legacy", p.id): fingerprints.fingerprint(p.en.text)
              for p in inv.pairs if fingerprints.translated(p)}
    assert any(k.endswith("/goal/2") for k in legacy)
    sidecar.write_text(fingerprints.render(fingerprints.Record(legacy)), encoding="utf-8")
    assert tracking_findings(shipped) == []
    english_edits(shipped)
    assert {rule for rule, _, _ in tracking_findings(shipped)} == {STALE}
    assert forge("i18n", "reviewed", "cards/kindle/name", "--root", str(shipped)).exit_code == 0
    text = sidecar.read_text(encoding="utf-8")
    assert "/goal/2\"" not in text and f'"{prose_id(shipped, "rulebook", "reduce your opponent")}"' in text
    assert [rule for rule, _, _ in tracking_findings(shipped)] == [STALE]  # the rulebook's edit: still to review


def test_the_same_english_twice_gets_a_numbered_id(tmp_path):
    from forge.i18n.inventory import prose_id as make

    taken: set[str] = set()
    first = make("rulebook", "goal", "Same words.", taken)
    taken.add(first)
    second = make("rulebook", "goal", "Same\nwords.", taken)
    assert second == first + "-2" and make("rulebook", "goal", "Other words.", taken) != first
