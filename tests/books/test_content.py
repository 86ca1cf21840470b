"""What the books take from the cards: counts, constructs, examples, titles from the locales."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.books import content
from forge.carddb.database import load_database
from forge.text.cardtext import load_phrasebooks

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def db():
    return load_database(REPO).db


@pytest.fixture(scope="module")
def books():
    return load_phrasebooks(REPO)


def test_counts_come_from_the_database(db):
    n = content.counts(db)
    assert n.recruit == sum(c.copies for c in db.of_set("recruit"))
    assert n.traps == sum(c.copies for c in db.cards if c.type == "trap")
    assert n.rites == len(db.rites()) and n.factions == len(db.factions)
    assert n.starter_deck == len(db.starter_deck(db.factions[0].id))
    assert n.box == sum(db.box_count(c) for c in db.cards)


def test_printed_tags_follow_the_printed_lines_of_every_card(db, books):
    for card in db.cards:
        assert len(content.printed_tags(card)) == len(books["en"].card_text(card)), card.id


def test_every_construct_but_rare_ones_has_an_example_that_shows_it(db):
    for key in content.ALL_KEYS:
        card = content.example_card(db, key)
        if card is not None:
            assert key in content.card_constructs(card)
    assert content.example_card(db, "wound") is not None


def test_a_designer_example_is_kept_only_when_it_shows_the_construct(db):
    wound = next(c for c in db.cards if "wound" in content.card_constructs(c))
    assert content.example_card(db, "wound", preferred=wound.id).id == wound.id
    no_poison = next(c for c in db.cards if "poison" not in content.card_constructs(c))
    assert content.example_card(db, "poison", preferred=no_poison.id).id != no_poison.id


@pytest.mark.parametrize("lang, key, title", [
    ("en", "allegiance", "Allegiance X"), ("fr", "aegis", "Égide X"), ("en", "rush", "Rush"),
    ("en", "immediately", "Immediately"), ("fr", "immediately", "Immédiatement"),
    ("en", "trap_when", "Opponent's turn: when…"), ("fr", "each_time", "Chaque fois que…"),
    ("en", "conditional", None),
])
def test_titles_come_from_the_locales(db, books, lang, key, title):
    other = books["fr" if lang == "en" else "en"]
    assert content.Language(lang, db, books[lang], other).title(key) == title


def test_card_digest_changes_with_the_effects_not_the_name(db):
    from dataclasses import replace

    card = next(c for c in db.cards if c.type == "trap")
    assert content.card_digest(replace(card, name={"en": "Other", "fr": "Autre"})) == content.card_digest(card)
    assert content.card_digest(replace(card, effects=card.effects[:-1])) != content.card_digest(card)


def test_sort_key_ignores_accents():
    assert sorted(["Exil", "Égide", "Faille"], key=content.sort_key) == ["Égide", "Exil", "Faille"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_soul_essence_sources_name_every_card_that_gives_essence(lang, tmp_path):
    """Issue 24 §1: the rulebook's list of soul-essence sources is every card with an `essence` line in any
    of its sections (played, activated, triggered, Demise), read from the cards; a card given one joins it."""
    import re as _re

    from forge.books.compose import Book
    from tests.books.conftest import REPO, copy_project, project_of

    def sources(root):
        project = project_of(root)
        book = Book(project, "rulebook", lang)
        said = _re.sub(r"<[^>]+>", "", str(book.d_souls()))
        gives = [c for c in project.db.cards
                 if any(ln.verb == "essence" for ln in (*c.effects, *c.activate, *c.demise, *c.end_of_turn,
                                                        *(x for t in c.triggers for x in t.lines)))]
        return said, [book.L.name(c) for c in gives]

    said, names = sources(REPO)
    assert len(names) >= 11 and all(n in said for n in names), (said, names)
    root = copy_project(tmp_path / "game")
    path = root / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("      - wound: 3\n", "      - wound: 3\n      - essence: 1\n", 1), encoding="utf-8")
    said, names = sources(root)
    assert all(n in said for n in names), (said, names)
