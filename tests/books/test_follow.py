"""One source of truth: change a card in a copy of the project, and the books follow."""
from __future__ import annotations

import re

import pytest

from forge.books.build import build_books, output_path
from forge.books.compose import compose
from forge.books.pdf import check_pdf

from .conftest import copy_project, project_of
from .miniproject import mini_project
from .test_books import plain


def edit_card(root, card_id: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` once, inside the block of card ``card_id``."""
    for path in (root / "cards").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        start = text.find(f"- id: {card_id}\n")
        if start == -1:
            continue
        end = text.find("\n  - id:", start + 1)
        end = len(text) if end == -1 else end
        block = text[start:end]
        assert old in block, (card_id, old)
        path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")
        return
    raise AssertionError(f"no card {card_id}")


def text_of(html: str) -> str:
    text = re.sub(r"<style>.*?</style>|<[^>]+>", "", html, flags=re.S)
    return " ".join(text.replace("\u00a0", " ").replace("\u2019", "'").split())


def only_in_identities(name: str, text: str, project, lang: str) -> bool:
    """A name is gone from a book, except where a faction's identity (hand-written in factions.yaml) quotes it."""
    quoted = sum(f.identity[lang].count(name) for f in project.db.factions)
    return text.count(name) <= quoted


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path)


@pytest.mark.slow
def test_a_renamed_trap_is_renamed_everywhere_in_both_books(project):
    edit_card(project, "burning-hand", '{en: "Burning Hand", fr: "Main Brûlante"}',
              '{en: "Searing Grasp", fr: "Poigne Ardente"}')
    p = project_of(project)
    for kind in ("rulebook", "reference"):
        en, fr = text_of(compose(p, kind, "en").html), text_of(compose(p, kind, "fr").html)
        assert "Searing Grasp" in en and only_in_identities("Burning Hand", en, p, "en")
        assert "Poigne Ardente" in fr and only_in_identities("Main Brûlante", fr, p, "fr")
    # the rulebook's six steps name the "when" traps that answer a summon: the new name is there
    assert "window for Searing Grasp and Call from the Grave" in text_of(compose(p, "rulebook", "en").html)


def test_counts_follow_the_copies(project):
    edit_card(project, "kindle", "copies: 3", "copies: 4")
    edit_card(project, "lost-soul", "copies: 5", "copies: 4")
    p = project_of(project)
    en = text_of(compose(p, "rulebook", "en").html)
    recruit = sum(c.copies for c in p.db.of_set("recruit"))
    assert f"shuffle the {recruit} recruitment cards" in en
    assert "Build your starter deck (9 cards): 4 × Lost Soul" in en
    fr = text_of(compose(p, "rulebook", "fr").html)
    assert f"mélangez les {recruit} cartes de recrutement" in fr and "(9 cartes) : 4 × Âme Perdue" in fr


def test_a_new_trap_joins_the_list_of_traps(project):
    edit_card(project, "kindle", "type: spell", "type: trap\n    trap: {kind: none}")
    p = project_of(project)
    en = text_of(compose(p, "rulebook", "en").html)
    traps = sum(c.copies for c in p.db.cards if c.type == "trap")
    assert f"The {traps} traps of the game" in en
    assert "No trigger (Kindle, Divine Shield and Anointing of Souls)" in en
    reference = compose(p, "reference", "en")
    assert any(f.rule == "book" and "kindle" in f.message for f in reference.findings)  # no clarification yet


def test_a_changed_trap_makes_its_clarification_stale(project):
    edit_card(project, "backdraft", "wound: 2", "wound: 3")
    findings = compose(project_of(project), "reference", "fr").findings
    assert [f.rule for f in findings if "backdraft" in f.message] == ["stale"]
    assert all(f.severity == "warning" for f in findings)


@pytest.mark.slow
def test_the_pdf_follows_too(tmp_path):
    """On the small books project (tests/books/miniproject.py), whose rulebook names the trap: the composed
    books follow (above), and the PDF laid out from them does too."""
    project = mini_project(tmp_path / "game")
    edit_card(project, "burning-hand", '{en: "Burning Hand", fr: "Main Brûlante"}',
              '{en: "Searing Grasp", fr: "Poigne Ardente"}')
    outcome = build_books(project, ("rulebook",), ("fr",), tmp_path / "out", workers=1)[0]
    text = plain(check_pdf(output_path(tmp_path / "out", "rulebook", "fr").read_bytes()).text)
    assert outcome.written and "Poigne Ardente" in text
    assert only_in_identities("Main Brûlante", text, project_of(project), "fr")


def test_a_card_the_prose_names_must_exist(project):
    edit_card(project, "rite-of-the-blaze", "- id: rite-of-the-blaze", "- id: rite-of-fire")
    result = compose(project_of(project), "rulebook", "en")
    errors = [f for f in result.findings if f.severity == "error"]
    # the prose's reference, at its line; the worked example's record, which names the old id, no longer
    # replays either (an error of its own, at the record)
    prose = [f for f in errors if f.position.file == "templates/books/rulebook.en.md"]
    assert len(prose) == 1 and "rite-of-the-blaze" in prose[0].message and prose[0].position.line > 0
    assert {f.position.file for f in errors} - {"templates/books/rulebook.en.md"} <= {"templates/books/example.jsonl"}
    assert not result.ok
