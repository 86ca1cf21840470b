"""Card text prints in the rulebook's reading order (Reading the text box): after ⟳ "every following
line, conditional lines included, is part of the same activation, up to a Demise line"."""
from __future__ import annotations

import pytest

from forge.carddb.database import load_database
from forge.carddb.vocabulary import LANGUAGES

from ..conftest import REPO
from .test_phrases import BOOKS

DB = load_database(REPO).db
CARDS = {c.id: c for c in DB.cards}
#: How a triggered ability that is not the activation starts, in each language's printed text.
TRIGGER_HEADS = {"en": ("Each time", "End of your turn"), "fr": ("Chaque fois que", "Fin de votre tour")}
GUARD = {"en": "[[activate]] **Guard**", "fr": "[[activate]] **Garde**"}


def printed(card_id: str, lang: str) -> list[str]:
    book = BOOKS[lang]
    return [book.plain(x) for x in book.card_text(CARDS[card_id])]


@pytest.mark.parametrize("card_id, lang, expected", [
    ("archon-of-dawn", "en", ["Aegis 1", "Each time you summon a creature: Draw 1 card.",
                              "⟳ Unblockable Wound 2"]),
    ("archon-of-dawn", "fr", ["Égide 1", "Chaque fois que vous invoquez une créature\u00a0: piochez 1 carte.",
                              "⟳ Blessures Imparables 2"]),
    ("warlord-of-cinders", "en", ["Each time you cast a spell: Wound 1", "⟳ Wound 4", "Poison 1"]),
    ("warlord-of-cinders", "fr", ["Chaque fois que vous jouez une magie\u00a0: Blessures 1", "⟳ Blessures 4",
                                  "Poison 1"]),
    ("void-archivist", "en", ["End of your turn: Exile up to 1 card from your opponent's discard pile.",
                              "⟳ Draw 1 card.", "Wound 2"]),
    ("void-archivist", "fr", ["Fin de votre tour\u00a0: exilez jusqu’à 1 carte de la défausse adverse.",
                              "⟳ Piochez 1 carte.", "Blessures 2"]),
])
def test_the_three_cards_print_their_trigger_before_the_activation(card_id, lang, expected):
    assert printed(card_id, lang) == expected


def _activation_start(lines: list[str], lang: str) -> int | None:
    for i, line in enumerate(lines):
        if line.startswith("[[activate]]") and not line.startswith(GUARD[lang]):
            return i
    return None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_trigger_after_the_activation_and_demise_last_on_every_card(lang):
    book = BOOKS[lang]
    checked = 0
    for card in DB.cards:
        lines = book.card_text(card)
        start = _activation_start(lines, lang)
        demise = [i for i, line in enumerate(lines) if line.startswith("[[demise]]")]
        if demise:  # the Demise block closes the card: its head line and its own lines after it
            assert demise == [demise[0]] and len(lines) - demise[0] == len(card.demise), (card.id, lines)
        end = demise[0] if demise else len(lines)
        if start is None:
            assert not card.activate, (card.id, lines)
            continue
        checked += 1
        assert end - start == len(card.activate), (card.id, lines)  # the ⟳ block holds exactly its lines
        for line in lines[start:]:
            plain = book.plain(line)
            assert not plain.startswith(TRIGGER_HEADS[lang]), (card.id, lines)
        for line in lines[:start]:
            assert not line.startswith("[[demise]]"), (card.id, lines)
    assert checked >= 30  # every creature with a ⟳ ability was looked at


@pytest.mark.parametrize("lang", LANGUAGES)
def test_books_tags_follow_the_printed_order(lang):
    """The books highlight lines by their construct: their tags must sit on the same printed lines."""
    from forge.books.content import printed_tags

    for card in DB.cards:
        tags = printed_tags(card)
        lines = BOOKS[lang].card_text(card)
        assert len(tags) == len(lines), card.id
        start = _activation_start(lines, lang)
        for i, (tag, line) in enumerate(zip(tags, lines)):
            in_activation = start is not None and start <= i < start + len(card.activate)
            assert ("activate" in tag and "guard" not in tag) == in_activation, (card.id, i, tags, lines)
            assert ("demise" in tag) == (i >= len(lines) - len(card.demise)), (card.id, i, tags, lines)
            heads = TRIGGER_HEADS[lang]
            if BOOKS[lang].plain(line).startswith(heads[0]):
                assert "each_time" in tag, (card.id, i)
            if BOOKS[lang].plain(line).startswith(heads[1]):
                assert "end_of_turn" in tag, (card.id, i)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_old_order_is_read_as_the_rulebook_says(lang):
    """The reader behind rule printed-layout: a trigger printed after ⟳ belongs to the activation."""
    from forge.text.cardtext import LineReader, Reading

    book = BOOKS[lang]
    card = CARDS["warlord-of-cinders"]
    new = book.card_text(card)
    old = [new[1], new[2], new[0]]  # ⟳ Wound 4 / Poison 1 / Each time you cast a spell: Wound 1
    reader = LineReader(book)
    assert reader.read(new) == [Reading("trigger", True), Reading("activate", True), Reading("activate", False)]
    assert reader.read(old) == [Reading("activate", True), Reading("activate", False), Reading("activate", False)]
    demise = book.frame("demise", effect="x")
    assert reader.read(old + [demise, new[0]])[-2:] == [Reading("demise", True), Reading("demise", False)]
    assert reader.read([book.frame("guard"), new[0]]) == [Reading("guard", True), Reading("trigger", True)]
