"""The setup diagram: every slot the rules name, cards big enough to read in print, no callout on a label."""
from __future__ import annotations

import pytest

from forge.books import table
from forge.books.anatomy import without_pictures
from forge.books.compose import Book
from forge.engine.state import MAX_CREATURES, PLAYERS, RITE_SLOTS

from .conftest import LANGS, REPO, project_of

#: A card in the diagram is at least this wide in print (mm): its name and cost read at arm's length.
MIN_CARD_MM = 17.0


def _view(lang: str) -> dict:
    book = Book(project_of(REPO), "rulebook", lang)
    with without_pictures():
        return table.setup_view(book, book.example_game())


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", LANGS)
def test_callouts_cover_no_label(lang):
    view = _view(lang)
    texts = [(p.x, p.y, p.x + p.w, p.y + p.h) for p in view["placed"] if p.kind in ("label", "counters")
             or (p.kind == "slot" and p.text)]
    badges = [(c["x"], c["y"], c["x"] + table.CALLOUT, c["y"] + table.CALLOUT) for c in view["callouts"]]
    covered = [(b, t) for b in badges for t in texts if _overlap(b, t)]
    assert not covered, covered
    assert {c["n"] for c in view["callouts"]} == set(range(1, 8))  # every setup step


@pytest.mark.parametrize("lang", LANGS)
def test_battlefield_and_rite_slots_are_drawn(lang):
    view = _view(lang)
    book = Book(project_of(REPO), "rulebook", lang)
    battlefield = str(book.words(book.s["setup"]["battlefield"]))
    slots = [p for p in view["placed"] if p.kind == "slot"]
    rite = [p for p in slots if p.text == book.s["setup"]["rite_slot"]]
    assert len(rite) == PLAYERS * RITE_SLOTS
    # each player's row of battlefield slots: the slots at the Rite slot's height, less the Rite slots
    rows = {round(r.y, 1) for r in rite}
    field = [p for p in slots if round(p.y, 1) in rows and p not in rite]
    assert len(field) == PLAYERS * MAX_CREATURES
    assert sum(str(p.text) == battlefield for p in field) == PLAYERS
    shown = [p for p in view["placed"] if p.kind in ("card", "slot")]
    assert all(a is b or not _overlap((a.x, a.y, a.x + a.w, a.y + a.h), (b.x, b.y, b.x + b.w, b.y + b.h))
               for a in field + rite for b in shown)


@pytest.mark.parametrize("lang", LANGS)
def test_cards_are_big_enough_to_read_in_print(lang):
    view = _view(lang)
    cards = [p for p in view["placed"] if p.kind == "card"]
    assert cards and min(p.w for p in cards) >= MIN_CARD_MM
    assert all(p.x >= 0 and p.x + p.w <= view["width"] + 0.01 for p in view["placed"])
    assert view["height"] <= 177 - 15  # an A5 page's text area, its caption below
