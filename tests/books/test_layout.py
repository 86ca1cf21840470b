"""Issue 10 §2, layout without waste: the rendered books read back page by page (pypdf, pypdfium2).

No page of text is left mostly blank, no keyword or card name is hyphenated, no word is cut
across a page turn, and a heading never ends a page.
"""
from __future__ import annotations

import re

import pytest

from forge.books.compose import load_project
from forge.database import load_database
from forge.text import load_phrasebooks

from .conftest import KINDS, LANGS, REPO
from .pages import blank_below, last_line_sizes, page_texts

BOOKS = [(k, lang) for k in KINDS for lang in LANGS]
#: A page of text may end this much blank (a section's end, a figure kept whole), not more.
MOST_BLANK = 0.45


def _furniture(lines: list[str]) -> list[str]:
    """A page's text without its folio and running head (pypdf reads them last)."""
    if lines and re.fullmatch(r"\d+", lines[-1].strip()):
        return lines[:-2]
    return lines


def _body_pages(rendered, kind, lang) -> list[tuple[int, list[str]]]:
    """(page number, lines) of the pages between the contents and the notes or back cover."""
    notes = load_project(REPO, load_database(REPO).db, load_phrasebooks(REPO)).strings[lang]["notes"]
    out = []
    for number, text in enumerate(page_texts(rendered, kind, lang), start=1):
        lines = [line for line in text.splitlines() if line.strip()]
        if number <= 2 or (lines and lines[0].strip() == notes):
            continue
        out.append((number, _furniture(lines)))
    return out[:-1]  # the back cover


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_page_of_text_is_left_mostly_blank(rendered, kind, lang):
    pages = _body_pages(rendered, kind, lang)
    blank = blank_below(rendered, kind, lang)
    last_text = pages[-1][0]
    wasted = {n: blank[n - 1] for n, _ in pages if n != last_text and blank[n - 1] > MOST_BLANK}
    assert not wasted, f"{kind}-{lang}: pages mostly blank (share blank): {wasted}"


def _names(lang: str) -> set[str]:
    """Every word of a keyword or a card name in ``lang``, with its capital ("Sacrifice", "Trépas"):
    none may be cut by a hyphen (the common word, "allegiance", "défausse", may)."""
    book = load_phrasebooks(REPO)[lang]
    names = list(book.section("keywords").values()) + [c.name[lang] for c in load_database(REPO).db.cards]
    return {w for name in names for w in re.findall(r"[^\W\d_]{4,}", name.replace("\u2019", "'")) if w[0].isupper()}


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_keyword_or_card_name_is_hyphenated(rendered, kind, lang):
    names = _names(lang)
    cut = []
    for number, lines in _body_pages(rendered, kind, lang):
        for line, after in zip(lines, lines[1:]):
            m = re.search(r"([^\W\d_]+)-$", line.rstrip())
            n = re.match(r"\s*([^\W\d_]+)", after)
            if m and n and (m.group(1) + n.group(1)) in names:
                cut.append((number, m.group(1) + "-" + n.group(1)))
    assert not cut, cut


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_word_is_cut_across_a_page_turn(rendered, composed, kind, lang):
    """A page never ends on a hyphenated word (a compound's own hyphen, "crossed-swords", may end it)."""
    source = re.sub(r"<[^>]+>", " ", composed[(kind, lang)].html)
    pages = _body_pages(rendered, kind, lang)
    for (number, lines), (_, following) in zip(pages, pages[1:] + [(0, [""])]):
        m = re.search(r"([^\W\d_]+)-$", lines[-1].rstrip()) if lines else None
        if m is None:
            continue
        n = re.match(r"\s*([^\W\d_]+)", following[0] if following else "")
        assert n and f"{m.group(1)}-{n.group(1)}" in source, (number, lines[-1])


@pytest.mark.parametrize("kind, lang", BOOKS)
def test_no_heading_ends_a_page(rendered, kind, lang):
    """A heading is kept with what follows: the lowest line of a page is never set larger than its text."""
    sizes = last_line_sizes(rendered, kind, lang)
    ending = [n for n, _ in _body_pages(rendered, kind, lang) if sizes[n - 1][0] >= 1.25 * sizes[n - 1][1]]
    assert not ending, f"{kind}-{lang}: a heading ends page(s) {ending}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_turns_a_page_only_between_blocks_of_five_rows(composed, lang):
    """Two pairs a row (half the height), and its first and last five rows kept together: a page turn
    inside the glossary never leaves a row or two alone."""
    html = composed[("reference", lang)].html
    table = html[html.index('<table class="glossary">'):]
    table = table[:table.index("</table>")]
    bodies = re.findall(r'<tbody class="(\w+)">(.*?)</tbody>', table, re.S)
    assert [kind for kind, _ in bodies] == ["kept", "body", "kept"]
    assert all(len(re.findall(r"<tr>", rows)) == 5 for kind, rows in bodies if kind == "kept")
    assert all(len(re.findall(r"<td", row)) == 4 for row in re.findall(r"<tr>(.*?)</tr>", bodies[0][1]))
    css = (REPO / "templates/books/book.css").read_text(encoding="utf-8")
    assert "table.glossary tbody.kept { break-inside: avoid; }" in css
