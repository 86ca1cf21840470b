"""The card gallery in a real browser (headless Chromium): search by typing, filters by choosing, the
language switch, a phone and a desktop; no console message, nothing fetched."""
from __future__ import annotations

import unicodedata

import pytest

from forge.books.content import KEYWORD_KEYS, card_constructs

from ..browser import DESKTOP, PHONE, shoot, until

VISIBLE = "() => [...document.querySelectorAll('.card')].filter(c => !c.hidden).map(c => c.id.slice(5))"


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _open(visit, gallery, viewport=DESKTOP, touch=False):
    v = visit(gallery[0], viewport, touch)
    return v, v.open("gallery.html")


def _quiet(v, gallery) -> None:
    assert v.messages == []
    fetched = [u for u in v.requests if not u.startswith("data:")]
    assert fetched == [(gallery[0] / "gallery.html").as_uri()]


def test_typing_a_search_shows_the_cards_that_say_it(visit, gallery, shipped_db):
    db, books = shipped_db
    v, page = _open(visit, gallery)
    assert len(page.evaluate(VISIBLE)) == len(db.cards)
    target = next(c for c in db.cards if c.type == "creature" and c.flavor.get("en"))
    word = max(target.name["en"].split(), key=len)
    page.click("#q")
    page.keyboard.type(word.lower())
    shown = page.evaluate(VISIBLE)
    expected = [c.id for c in db.cards
                if _fold(word) in _fold(" ".join([c.name["en"], books["en"].type_line(c), c.flavor.get("en", ""), c.id]
                                                 + [books["en"].plain(ln) for ln in books["en"].card_text(c)]))]
    assert target.id in shown and shown == expected
    assert page.text_content("#count") == f"{len(expected)} of {len(db.cards)} cards"
    page.fill("#q", "zzqx nothing")
    assert page.evaluate(VISIBLE) == [] and page.is_visible("#none")
    _quiet(v, gallery)


def test_the_filters_narrow_by_faction_type_cost_and_keyword(visit, gallery, shipped_db):
    db, _ = shipped_db
    v, page = _open(visit, gallery)
    faction = db.factions[0].id
    page.select_option("#f-faction", faction)
    page.select_option("#f-type", "creature")
    assert page.evaluate(VISIBLE) == [c.id for c in db.cards if faction in c.factions and c.type == "creature"]
    page.select_option("#f-cost", "3")
    assert page.evaluate(VISIBLE) == [c.id for c in db.cards if faction in c.factions and c.type == "creature"
                                      and c.cost == 3]
    page.click("#reset")
    until(page, "document.querySelectorAll('.card[hidden]').length === 0")
    # the keyword menu by keyboard alone: focus it, arrow down to its first keyword
    page.focus("#f-keyword")
    page.keyboard.press("ArrowDown")
    key = page.eval_on_selector("#f-keyword", "s => s.value")
    assert key in KEYWORD_KEYS
    assert page.evaluate(VISIBLE) == [c.id for c in db.cards if key in card_constructs(c)]
    _quiet(v, gallery)


def test_the_language_switch_shows_the_french_cards_and_words(visit, gallery, shipped_db):
    db, books = shipped_db
    v, page = _open(visit, gallery)
    page.click('button[data-set-lang="fr"]')
    assert page.evaluate("document.documentElement.lang") == "fr"
    first = page.locator(".card").first
    assert first.locator("h2").filter(visible=True).text_content() == db.cards[0].name["fr"]
    assert page.text_content("#count") == f"{len(db.cards)} cartes sur {len(db.cards)}"
    labels = page.eval_on_selector_all("#f-type option", "os => os.map(o => o.textContent)")
    assert set(labels[1:]) == {books["fr"].label("types", c.type) for c in db.cards}
    page.click("#q")
    page.keyboard.type(db.cards[0].name["fr"])  # searched in the language shown
    assert db.cards[0].id in page.evaluate(VISIBLE)
    _quiet(v, gallery)


@pytest.mark.parametrize("viewport, name", [(PHONE, "phone"), (DESKTOP, "desktop")])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_gallery_fits_a_phone_and_a_desktop(visit, gallery, viewport, name, lang):
    v = visit(gallery[0], viewport, touch=viewport is PHONE)
    page = v.open("gallery.html", lang)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    box = page.locator(".card").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    shoot(page, f"gallery-{lang}-{name}")
    page.select_option("#f-faction", "blue")
    page.locator(".card:not([hidden])").first.scroll_into_view_if_needed()
    shoot(page, f"gallery-{lang}-{name}-blue")
    assert v.messages == []
