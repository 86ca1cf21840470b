"""Issue 24 §4: no short table is split over a page turn (the traps: 1 row then 7, or 4 | 4), nor the
card anatomy's key, nor the glossary (read down its columns: a page turn breaks the alphabet).

Each table of ``WHOLE_MOST`` rows or fewer of the composed books, the glossary and the anatomy's key
are found in the rendered PDF: some one page holds every row of it."""
from __future__ import annotations

import re

import pytest

from forge.books.whole import WHOLE_MOST, body_rows, mark_whole

from .conftest import KINDS, LANGS
from .pages import page_texts

BOOKS = [(k, lang) for k in KINDS for lang in LANGS]


def test_a_short_table_is_marked_whole_and_a_long_one_is_not():
    row = "<tr><td>x</td></tr>"
    short = f'<table class="cards traps"><thead><tr><th>h</th></tr></thead><tbody>{row * WHOLE_MOST}</tbody></table>'
    long = f"<table><tbody>{row * (WHOLE_MOST + 1)}</tbody></table>"
    assert mark_whole(short).startswith('<table class="cards traps whole">')
    assert mark_whole(long) == long
    assert mark_whole(f"<table><tbody>{row}</tbody></table>").startswith('<table class="whole">')
    assert mark_whole(mark_whole(short)) == mark_whole(short)
    assert body_rows(short) == WHOLE_MOST


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)).replace("\u00a0", " ").strip()


def _row_keys(html: str) -> list[tuple[str, list[str]]]:
    """(what, the keys of its rows) for each short table, the glossary and the anatomy's key of a book:
    a row's key is its first cell's leading text (a name, a term), when it has words enough to be found."""
    html = re.sub(r"<(style|script|svg)\b.*?</\1>", "", html, flags=re.DOTALL)
    groups = []
    for m in re.finditer(r"<table\b([^>]*)>(.*?)</table>", html, re.DOTALL):
        attrs, inner = m.group(1), re.sub(r"<thead\b.*?</thead>|<tfoot\b.*?</tfoot>", "", m.group(2), flags=re.DOTALL)
        if body_rows(inner) > WHOLE_MOST and "glossary" not in attrs:
            continue
        keys = []
        for row in re.findall(r"<tr\b.*?</tr>", inner, re.DOTALL):
            cell = re.search(r"<td\b[^>]*>(.*?)(?:<span class=\"sub\"|</td>)", row, re.DOTALL)
            key = _text(cell.group(1)) if cell else ""
            if len(re.findall(r"[^\W\d_]", key)) >= 4:
                keys.append(key)
        groups.append((attrs.strip(), keys))
    for legend in re.findall(r'<ol class="legend">(.*?)</ol>', html, re.DOTALL):
        groups.append(("anatomy key", [_text(s) for s in re.findall(r"<strong>(.*?)</strong>", legend, re.DOTALL)]))
    return [(what, keys) for what, keys in groups if len(keys) >= 2]


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_short_table_nor_the_glossary_is_split_over_a_page_turn(rendered, composed, kind, lang):
    pages = [re.sub(r"-\s*\n\s*", "", t) for t in page_texts(rendered, kind, lang)]
    pages = [re.sub(r"\s+", " ", t).replace("\u00a0", " ") for t in pages]
    split = []
    groups = _row_keys(composed[(kind, lang)].html)
    assert groups, f"{kind}-{lang}: no table found"
    for what, keys in groups:
        if not any(all(k in page for k in keys) for page in pages):
            where = {k: [n for n, page in enumerate(pages, start=1) if k in page] for k in keys}
            split.append((what, where))
    assert not split, f"{kind}-{lang}: split over pages: {split}"
