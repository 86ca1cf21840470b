"""The prose grammar (forge/prose): what it accepts, what it refuses and where, and the HTML it makes."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.i18n.prose import units
from forge.prose import grammar
from forge.prose.grammar import Container, Directive
from forge.prose.render import render

REPO = Path(__file__).resolve().parents[2]


class Echo:
    """A resolver that shows what it was asked."""

    def directive(self, d: Directive) -> str:
        return f"[{d.name}:{'|'.join(d.args)}@{d.line}:{d.col}]"

    def icon(self, name: str, line: int, col: int) -> str:
        return f"<i>{name}</i>"

    def container(self, c: Container, inner: str) -> str:
        return f'<div class="{c.name}" data-args="{c.args}">{inner}</div>'

    def slug(self, heading_html: str) -> str:
        return "h"


def html(text: str) -> str:
    parsed = grammar.parse(text)
    assert not parsed.problems, parsed.problems
    return render(parsed, Echo())


def test_directives_keep_their_line_and_column():
    assert html("# T\n\nSee {card:divine-shield} and {kw:wound}, {kw:wound}.\n") == \
        '<h1 id="h">T</h1>\n<p>See [card:divine-shield@3:5] and [kw:wound@3:30], [kw:wound@3:42].</p>'


def test_a_block_directive_alone_is_not_wrapped_in_a_paragraph():
    assert html("{block:factions}\n") == "[block:factions@1:1]"


def test_raw_html_and_entities_are_text():
    assert html("<script>alert(1)</script> &lt;b&gt; [[red]]\n") == \
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt; <i>red</i></p>"


def test_containers_nest_and_lists_are_tight():
    out = html("::: entry wound title=\"A b\"\n::: reminder\nR.\n:::\n- a\n  b\n- c\n:::\n")
    assert out == ('<div class="entry" data-args="wound title=&quot;A b&quot;"><div class="reminder" data-args="">'
                   '<p>R.</p></div>\n<ul><li>a b</li><li>c</li></ul></div>').replace("&quot;", '"')


@pytest.mark.parametrize("text,line,col,words", [
    ("Hi {{ x }}\n", 1, 4, "template code"),
    ("\n\n  {% include 'a' %}\n", 3, 3, "template code"),
    ("a {card:a b}\n", 1, 3, "takes 1 argument"),
    ("a {nope:x}\n", 1, 3, "is not a directive"),
    ("a {n:>9}\n", 1, 3, "is not an id or a key"),
    ("a {spell:factions big}\n", 1, 3, "is not one of capital"),
    ("x {block:traps} y\n", 1, 3, "stands alone"),
    ("::: tip\nx\n", 1, 1, "never closed"),
    ("x\n\n:::\n", 3, 1, "never opened"),
])
def test_what_the_grammar_refuses_is_a_problem_at_its_place(text, line, col, words):
    problems = grammar.parse(text).problems
    assert problems and (problems[0].line, problems[0].col) == (line, col), problems
    assert words in problems[0].message and problems[0].hint


def test_the_budget_is_checked_before_parsing():
    with pytest.raises(grammar.BudgetExceeded):
        grammar.parse("a\n\n" * (grammar.MAX_PROSE_LINES // 2 + 1))
    with pytest.raises(grammar.BudgetExceeded):
        grammar.parse("{" * (grammar.MAX_DIRECTIVES + 1))


def test_i18n_cuts_its_units_from_the_same_parse():
    text = "---\ntitle: T\n# a note\n---\n# Head\n\nPara {kw:wound}\nnext line.\n\n1. one\n   more\n2. two\n\n::: tip\nIn.\n:::\n"
    got = [(u.kind, u.line, u.text, u.key, u.marker) for u in units(text)]
    assert got == [("meta", 2, "T", "title", ""), ("heading", 5, "Head", "#", ""),
                   ("paragraph", 7, "Para {kw:wound}\nnext line.", "", ""), ("item", 10, "one\n   more", "", "1."),
                   ("item", 12, "two", "", "2."), ("open", 14, "::: tip", "tip", ""), ("paragraph", 15, "In.", "", ""),
                   ("close", 16, ":::", "", "")]
    assert all(text[u.offset:].startswith(u.text.split("\n")[0]) for u in units(text))


def test_the_shipped_prose_parses_cleanly():
    for name in ("rulebook.en.md", "rulebook.fr.md", "reference.en.md", "reference.fr.md"):
        _, body, _ = grammar.split_front_matter((REPO / "templates/books" / name).read_text(encoding="utf-8"))
        assert grammar.parse(body).problems == [], name
