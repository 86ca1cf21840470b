"""The prose converter: blocks, lists, headings, ::: blocks, raw HTML and inline marks."""
from __future__ import annotations

from forge.books.markup import Converter, slugify


def convert(text: str, **handlers) -> tuple[str, Converter]:
    c = Converter(icon=lambda name: f"<img:{name}>", handlers=handlers, slug=slugify)
    return c.convert(text), c


def test_paragraphs_join_lines_and_split_on_blank_lines():
    html, _ = convert("one\ntwo\n\nthree")
    assert html == "<p>one two</p>\n<p>three</p>"


def test_headings_get_an_anchor_from_their_text_or_an_explicit_one():
    html, _ = convert("## Protection against Wound\n\n### Sub {#custom}")
    assert '<h2 id="protection-against-wound">Protection against Wound</h2>' in html
    assert '<h3 id="custom">Sub</h3>' in html


def test_numbered_lists_keep_their_start_and_continuation_lines():
    html, _ = convert("4. four\n   still four\n5. five")
    assert html == '<ol start="4"><li>four still four</li><li>five</li></ol>'


def test_bullets_with_dash_or_bullet_sign():
    html, _ = convert("- a\n• b")
    assert html == "<ul><li>a</li><li>b</li></ul>"


def test_inline_strong_emphasis_icons_and_bare_ampersand():
    html, _ = convert("**Goal:** *now* [[red]] & more &amp; kept")
    assert html == "<p><strong>Goal:</strong> <em>now</em> <img:red> &amp; more &amp; kept</p>"


def test_raw_html_blocks_are_copied_as_they_are():
    html, _ = convert('<table class="x"><tr><td>**not bold**</td></tr></table>')
    assert html == '<table class="x"><tr><td>**not bold**</td></tr></table>'


def test_a_paragraph_starting_with_an_inline_tag_is_still_prose():
    html, _ = convert('<span class="card">Kindle</span> deals **Wound** 1')
    assert html == '<p><span class="card">Kindle</span> deals <strong>Wound</strong> 1</p>'


def test_blocks_nest_and_go_to_their_handlers():
    seen = []

    def entry(block, inner):
        seen.append((block.name, block.args, inner))
        return f"<section>{inner}</section>"

    html, c = convert("::: entry wound x=1\n::: reminder\nDeal X.\n:::\nRules.\n:::", entry=entry)
    assert not c.problems
    assert seen == [("entry", ["wound", "x=1"], '<div class="reminder"><p>Deal X.</p></div>\n<p>Rules.</p>')]
    assert html.startswith("<section>")


def test_unclosed_and_stray_fences_are_problems_not_crashes():
    _, c = convert("::: tip\ntext")
    assert [p.message for p in c.problems] == ["the block `::: tip` is never closed"]
    _, c = convert("text\n:::")
    assert c.problems[0].line == 2
