"""Issue 24 §4: the setup diagram's card faces in the web edition, on a phone (390 px) and a desktop (1280 px).

Each face-up card is its name, cost and type, every word of it 10.5 px or more on a phone's screen
(12 on a desktop), its name inside its card: on a phone a word wider than the card is cut at a
syllable (soft hyphens), never left to run over the next card.
"""
from __future__ import annotations

import pytest

from forge.books import example, table
from forge.books.compose import Book

from ..browser import DESKTOP, PHONE, Visit, launch, shoot
from .conftest import LANGS, REPO, project_of

FACES = """() => {
  const top = document.querySelector('figure.setup-table .table-top');
  const zoom = parseFloat(getComputedStyle(top).zoom || '1');
  const shown = e => getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0;
  return [...top.querySelectorAll('.table-face')].map(f => {
    const card = f.getBoundingClientRect();
    const name = f.querySelector('.face-name');
    const range = document.createRange();
    range.selectNodeContents(name);
    const lines = [...range.getClientRects()].filter(r => r.width > 0);
    const foot = f.querySelector('.face-foot');
    return {name: name.textContent.replace(/\\u00ad/g, ''), card: [card.left, card.top, card.right, card.bottom],
            right: Math.max(...lines.map(r => r.right)), bottom: Math.max(...lines.map(r => r.bottom)),
            foot: shown(foot) ? foot.getBoundingClientRect().top : null,
            sizes: [...f.querySelectorAll('.face-name, .face-cost, .face-kind')].filter(shown)
                     .map(e => parseFloat(getComputedStyle(e).fontSize) * zoom)};
  });
}"""


@pytest.fixture(scope="module")
def browser():
    yield from launch()


def _names(lang: str) -> list[str]:
    book = Book(project_of(REPO), "rulebook", lang)
    game = example.read(book.project.db, table.record_path(book.project).read_text(encoding="utf-8"))
    return [book.L.name(book.cards[c]) for c in game.row + game.rites]


@pytest.mark.slow
@pytest.mark.parametrize("viewport, name, smallest", [(PHONE, "phone", 10.5), (DESKTOP, "desktop", 12)])
def test_each_card_of_the_setup_diagram_reads_on_a_phone_and_a_desktop(browser, web_edition, viewport, name, smallest):
    for lang in LANGS:
        visit = Visit(browser, web_edition[1], viewport)
        try:
            page = visit.open(f"rulebook-{lang}.html")
            page.evaluate("document.querySelector('figure.setup-table').scrollIntoView({block: 'center'})")
            faces = page.evaluate(FACES)
            shoot(page, f"setup-faces-{lang}-{name}")
            assert [f["name"] for f in faces] == _names(lang), (lang, name)
            for f in faces:
                left, top, right, bottom = f["card"]
                assert f["sizes"] and min(f["sizes"]) >= smallest, (lang, name, f)
                assert f["right"] <= right + 0.5, (lang, name, f)  # no word runs over the next card
                assert f["bottom"] <= (f["foot"] if f["foot"] is not None else bottom) + 0.5, (lang, name, f)
            assert visit.messages == []
        finally:
            visit.close()
