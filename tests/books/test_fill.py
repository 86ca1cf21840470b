"""No book pads its last sheet with blank or "Notes" pages: forge's extra pages, from the cards and the
engine, make up the booklet's count; the components figure is the card renderer's and counts the cards."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from forge.books import extras
from forge.books.anatomy import without_pictures
from forge.books.build import print_path
from forge.books.compose import Book
from forge.books.impose import booklet_sides
from forge.engine.state import PLAY_STEPS, TURN_PHASES

from .conftest import KINDS, LANGS, REPO, project_of
from .pages import page_texts

BOOKS = [(k, lang) for k in KINDS for lang in LANGS]


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]{3,}", text)


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_blank_or_notes_page_pads_a_book(rendered, kind, lang):
    notes = project_of(REPO).strings[lang]["notes"]
    texts = page_texts(rendered, kind, lang)
    assert len(texts) % 4 == 0  # the booklet needs no blank page (impose pads to 4)
    for side in booklet_sides(len(texts)):
        assert None not in side
    for number, text in enumerate(texts[1:], start=2):  # the cover is its title and a fan of cards
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert lines and lines[0] != notes, f"{kind}-{lang}: page {number} is a Notes page"
        assert len(_words(text)) > 30, f"{kind}-{lang}: page {number} is nearly blank: {lines}"
    # the print file holds the same pages (its booklets are imposed from the screen PDF)
    assert len(PdfReader(print_path(rendered[1], kind, lang, "press")).pages) == len(texts)


@pytest.mark.parametrize("lang", LANGS)
def test_the_extra_pages_come_from_the_engine_and_the_cards(lang):
    book = Book(project_of(REPO), "rulebook", lang)
    flow = extras.turn_flow(book)
    assert [str(p["title"]) for p in flow["phases"]] == [str(book.words(book.s["quick"]["phases"][p]["title"]))
                                                          for p in TURN_PHASES]
    assert [p["title"] for p in flow["steps"]] == [book.step(k) for k in PLAY_STEPS]
    glance = extras.factions_glance(book)
    db = book.project.db
    assert len(glance["factions"]) == len(db.factions)
    for faction, view in zip(db.factions, glance["factions"]):
        recruit = sum(c.copies for c in db.cards if c.faction == faction.id and c.set == "recruit" and c.cost is not None)
        assert sum(n for _, n in view["costs"]) == recruit
    pages = extras.extra_pages(book)
    assert len(pages) >= 3  # a booklet adds at most 3 pages to reach a multiple of 4


@pytest.mark.parametrize("lang", LANGS)
def test_components_counts_every_card_of_the_box(lang):
    book = Book(project_of(REPO), "rulebook", lang)
    with without_pictures():
        view = extras.components_view(book)
    db = book.project.db
    assert view["total"] == sum(db.box_count(c) for c in db.cards)
    assert len(view["cards"]) == len({c.type for c in db.cards}) and len(view["backs"]) == len(extras.BACKS)
    red = next(r for r in view["rows"] if r["faction"] == db.factions[0].id)
    assert red["total"] == sum(db.box_count(c) for c in db.cards if c.faction == db.factions[0].id)
    html = str(book.d_components())
    pictured = re.findall(r'class="component-(?:card|piece)"><img src="data:image/(?:jpeg|png);base64,[A-Za-z0-9+/=]{400,}"', html)
    assert len(pictured) == len(view["cards"]) + len(view["backs"]) + len(view["tokens"])
