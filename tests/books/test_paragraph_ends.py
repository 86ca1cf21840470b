"""Issue 24 §4: no paragraph ends on the fragment of a hyphenated word ("sum-/mon.", "Li-/cense.")
nor on a line of one word, in either book, in either language (forge.books.typography binds the
last two words of each paragraph, list item, table cell and card line)."""
from __future__ import annotations

import re

import pytest

from .conftest import KINDS, LANGS
from .pages import page_texts

#: A line of one word that ends a sentence: a paragraph's last line holding one word (or a word's end).
_LONE = re.compile(r"\S*[^\W\d_]{2,}\S*[.!?»”)]")


def lone_last_lines(texts: list[str]) -> list[tuple[int, str, str]]:
    """(page, the end of the line before, the lone line) of each paragraph ending on one word."""
    out = []
    for number, text in enumerate(texts, start=1):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        for before, line in zip(lines, lines[1:]):
            if _LONE.fullmatch(line) and len(before) > 40:
                out.append((number, before[-20:], line))
    return out


def test_the_check_finds_a_lone_word_and_a_hyphenated_end():
    page = "a line of text long enough to be a full line of the sum-\nmon.\nanother line of text long enough to be full of\nwords.\nshort\nend."
    assert lone_last_lines([page]) == [(1, "ull line of the sum-", "mon."), (1, "enough to be full of", "words.")]


@pytest.mark.parametrize("kind, lang", [(k, lang) for k in KINDS for lang in LANGS])
def test_no_paragraph_ends_on_one_word_or_a_word_s_fragment(rendered, kind, lang):
    lone = lone_last_lines(page_texts(rendered, kind, lang))
    assert not lone, f"{kind}-{lang}: paragraphs ending on one word: {lone}"
