"""Issue 24 §4: on a phone (390 px) the rulebook's count of the cards in the box keeps its column heads whole.

The table fits the width with each head cut anywhere: "Creature" read Cre/atur/e, "Spell" Spel/l. The
heads are now set smaller, and a head breaks only between two words ("En tout"), the table still as wide
as the text.
"""
from __future__ import annotations

import pytest

from ..browser import PHONE, Visit, launch
from .conftest import LANGS

HEADS = """() => {
  const table = document.querySelector('table.components-counts');
  const heads = [...table.querySelectorAll('thead th')].map(th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return [th.textContent.trim(), tops.size];
  });
  return {heads, wide: table.scrollWidth - table.parentElement.clientWidth};
}"""


@pytest.fixture(scope="module")
def browser():
    yield from launch()


@pytest.mark.slow
def test_the_box_counts_column_heads_are_whole_words_on_a_phone(browser, web_edition):
    for lang in LANGS:
        visit = Visit(browser, web_edition[1], PHONE)
        try:
            seen = visit.open(f"rulebook-{lang}.html").evaluate(HEADS)
            assert seen["heads"] and seen["wide"] <= 1, (lang, seen)
            for head, lines in seen["heads"]:
                assert lines <= len(head.split()), (lang, head, lines)  # never a line inside a word
        finally:
            visit.close()
