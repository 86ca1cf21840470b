"""Issue 10 §2, layout without waste: the rendered books read back page by page (pypdf, pypdfium2).

No page of text is left mostly blank, no keyword or card name is hyphenated, no word is cut
across a page turn, and a heading never ends a page.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from forge.books.compose import load_project
from forge.carddb.database import load_database
from forge.text.cardtext import load_phrasebooks
from forge.render import pdftext

from .conftest import KINDS, LANGS, REPO
from .pages import blank_below, page_texts

BOOKS = [(k, lang) for k in KINDS for lang in LANGS]
#: A page of text may end this much blank (a section's end, a figure kept whole), not more; a book's
#: last page of text too (its notes pages and back cover follow).
MOST_BLANK = 0.40


def _furniture(lines: list[str]) -> list[str]:
    """A page's text without its folio and running head (pypdf reads them last)."""
    if lines and re.fullmatch(r"\d+", lines[-1].strip()):
        return lines[:-2]
    return lines


@lru_cache(maxsize=None)
def _notes_title(lang: str) -> str:
    return load_project(REPO, load_database(REPO).db, load_phrasebooks(REPO)).strings[lang]["notes"]


def _body_pages(rendered, kind, lang) -> list[tuple[int, list[str]]]:
    """(page number, lines) of the pages between the contents and the notes or back cover."""
    notes = _notes_title(lang)
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
    wasted = {n: blank[n - 1] for n, _ in pages if blank[n - 1] > MOST_BLANK}
    assert not wasted, f"{kind}-{lang}: pages mostly blank (share blank): {wasted}"


@lru_cache(maxsize=None)
def _names(lang: str) -> frozenset[str]:
    """Every word of a keyword or a card name in ``lang``, with its capital ("Sacrifice", "Trépas"):
    none may be cut by a hyphen (the common word, "allegiance", "défausse", may)."""
    book = load_phrasebooks(REPO)[lang]
    names = list(book.section("keywords").values()) + [c.name[lang] for c in load_database(REPO).db.cards]
    return frozenset(w for name in names for w in re.findall(r"[^\W\d_]{4,}", name.replace("\u2019", "'"))
                     if w[0].isupper())


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
def test_no_word_is_cut_across_a_page_turn(rendered, kind, lang):
    """A page never ends on a hyphen: neither one the layout inserted nor a compound's own ("crossed-")."""
    pages = _body_pages(rendered, kind, lang)
    cut = [(number, lines[-1]) for number, lines in pages if lines and re.search(r"[^\W\d_]-$", lines[-1].rstrip())]
    assert not cut, f"{kind}-{lang}: pages ending on a cut word: {cut}"


def _narrow_book(words: str) -> str:
    return ("<html lang=en><style>@page { size: 60mm 40mm; margin: 5mm; @bottom-center { content: counter(page) } }"
            " html { hyphenate-character: '-' } .nw { white-space: nowrap; }"
            " p { hyphens: auto; text-align: justify; }</style><p>" + " ".join([words] * 12) + "</p></html>")


def test_a_word_cut_at_a_page_turn_is_laid_out_again_whole():
    """forge.books.pageturn reads each page's last line from the layout: a paragraph going on over the page
    turn on a hyphen (a soft one, or a compound's) has that word kept whole, and the book is laid out again."""

    import weasyprint

    from forge.books.compose import url_policy
    from forge.books.pageturn import keep_whole, page_turn_words
    from forge.books.pdf import render_pdf

    from .conftest import project_of

    html = _narrow_book("extraordinarily incomprehensible crossed-swords responsibilities notwithstanding")
    first = page_turn_words(weasyprint.HTML(string=html).render().pages)  # the plain layout cuts words
    assert "crossed-swords" in first and any(w.isalpha() for w in first), first
    kept = keep_whole(html, ["crossed-swords"])
    assert kept.count('<span class="nw">crossed-swords</span>') == 12 and "<style>" in kept
    assert keep_whole("<style>p{}</style><p title='swords'>swords</p>", ["swords"]) == \
        "<style>p{}</style><p title='swords'><span class=\"nw\">swords</span></p>"
    data, _ = render_pdf(html, None, REPO.resolve().as_uri() + "/", url_policy(project_of(REPO)))
    texts = [text.splitlines() for text in pdftext.page_texts(data)]
    ends = [lines[-2] for lines in texts if len(lines) > 1]  # each page's last line of text, above its folio
    assert len(ends) > 5 and not [e for e in ends if re.search(r"[^\W\d_]-$", e.rstrip())], ends


def test_a_mostly_blank_last_page_is_filled_by_the_closing_blocks_leading():
    """forge.books.balance: a book ending with a few lines on its last page has its closing block (the credits)
    set with a looser leading, measured to fill that page; a book that ends full is laid out once, as it is."""
    import weasyprint

    from forge.books import balance

    def book(lines: int) -> str:
        body = "".join(f"<p>Paragraph {i} of the rules, long enough to fill a line or so.</p>" for i in range(lines))
        return ("<html lang=en><head><style>@page { size: 60mm 60mm; margin: 5mm } p { margin: 0; font-size: 8pt; "
                "line-height: 1.2 } .credits p { font-size: 6pt }</style></head><body>" + body +
                '<div class="credits">' + "<p>Credits: a name, another name and a licence.</p>" * 12 + "</div></body></html>")

    for lines in range(10, 30):  # find a length whose last page is mostly blank, within the leading's reach
        first = balance.shape(weasyprint.HTML(string=book(lines)).render().pages)  # (LOOSEST: 15 % at most)
        if 0.45 < first.blank < 0.55:
            break
    css = balance.leading_css(first)
    assert css and ".credits, .credits * { line-height:" in css
    from forge.books.pdf import _with_style

    again = balance.shape(weasyprint.HTML(string=_with_style(book(lines), css)).render().pages)
    assert balance.better(first, again) and (again.pages < first.pages or again.blank <= balance.MOST_BLANK), (first, again)
    assert balance.leading_css(balance.Shape(4, 0.2, 189.0, {"credits": (263.0, 9.6)})) is None  # full enough
    assert balance.leading_css(balance.Shape(4, 0.9, 189.0, {})) is None  # no closing block to loosen


def test_the_worked_example_s_spacing_takes_the_slack_the_credits_cannot():
    """forge.books.balance: when the closing block is too short to fill a mostly blank last page, the
    space after the worked example's paragraphs (``play-step``) grows to push text onto it; when a few
    lines spill over, it closes up to take them back. Without the elastic paragraphs nothing could help."""
    import weasyprint

    from forge.books import balance
    from forge.books.pdf import _with_style

    def book(steps: int) -> str:
        body = "".join(f'<p class="play-step">Event {i}: a player plays a card.</p>' for i in range(steps))
        return ("<html lang=en><head><style>@page { size: 60mm 60mm; margin: 5mm } p { margin: 0 0 0.5mm; "
                "font-size: 8pt; line-height: 1.2 } .credits p { font-size: 6pt }</style></head><body>" + body +
                '<div class="credits"><p>Credits: a name.</p></div></body></html>')

    shapes = {}
    for steps in range(10, 40):
        first = balance.shape(weasyprint.HTML(string=book(steps)).render().pages)
        kind = "fill" if first.blank > 0.6 else "back" if first.blank > 0.45 and first.pages > 1 else None
        if kind and kind not in shapes:
            shapes[kind] = (steps, first)
    assert set(shapes) == {"fill", "back"}, shapes
    for kind, (steps, first) in shapes.items():
        assert first.gaps["play-step"][0] >= steps and first.blocks["credits"][1] > 0
        alone = balance.leading_css(balance.Shape(first.pages, first.blank, first.height, first.blocks))
        css = balance.leading_css(first)
        assert css and ".play-step { margin-bottom:" in css, css
        again = balance.shape(weasyprint.HTML(string=_with_style(book(steps), css)).render().pages)
        assert balance.better(first, again) and (again.pages < first.pages or again.blank <= balance.MOST_BLANK), \
            (kind, first, again)
        if alone:  # the credits' leading alone does not do it
            lone = balance.shape(weasyprint.HTML(string=_with_style(book(steps), alone)).render().pages)
            assert not (lone.pages < first.pages or lone.blank <= balance.MOST_BLANK), (kind, lone)
    assert balance.leading_css(balance.Shape(4, 0.9, 189.0, {}, {"play-step": (40, 1.9)})) is not None
