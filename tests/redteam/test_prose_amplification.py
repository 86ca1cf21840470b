"""Book prose cannot amplify: no loops, no expressions, and the file's size is capped before parsing.

Before: nested loops, `~` doubling through `namespace`, `replace` amplification and 200,000
generated paragraphs ran in Jinja's sandbox and made `forge build` hang or eat memory. Now each
is a finding at its line (template code is not prose), and a prose file of 200,000 written
paragraphs is refused by the budget before markdown-it sees it; all in a few seconds.
"""
from __future__ import annotations

import time

import pytest

from ._prose import append, compose_book, game

ATTACKS = {
    "nested-loops": "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
    "namespace-doubling": "{% set ns = namespace(s='xxxx') %}{% for i in range(20) %}{% set ns.s = ns.s ~ ns.s %}"
                          "{% endfor %}{{ ns.s }}",
    "replace": "{{ ('x' * 1000)|replace('x', 'xxxxxxxxxx')|replace('x', 'xxxxxxxxxx')|replace('x', 'xxxxxxxxxx') }}",
    "generated-paragraphs": "{% for i in range(200000) %}\n\nParagraph {{ i }}.\n{% endfor %}",
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_template_code_in_prose_is_a_finding_at_once(tmp_path, name, no_hang):
    root = game(tmp_path / "game")
    line = append(root, "rulebook", "en", ATTACKS[name])
    start = time.monotonic()
    result = compose_book(root, "rulebook", "en")
    assert time.monotonic() - start < 30
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and (errors[0].position.line, errors[0].rule) == (line, "book"), [f.render() for f in errors]
    assert "template code" in errors[0].message and result.html == ""


def test_200000_written_paragraphs_are_refused_by_the_budget(tmp_path, no_hang):
    root = game(tmp_path / "game")
    append(root, "reference", "fr", "\n\n".join(f"Paragraphe {i}." for i in range(200_000)))
    start = time.monotonic()
    result = compose_book(root, "reference", "fr")
    assert time.monotonic() - start < 30
    [finding] = [f for f in result.findings if f.severity == "error"]
    assert (finding.position.file, finding.rule) == ("templates/books/reference.fr.md", "budget")
    assert "may hold" in finding.message and result.html == ""


def test_a_generated_block_repeated_a_thousand_times_is_a_finding(tmp_path, no_hang):
    """`{block:anatomy}` draws cards: a book may print each generated block twice at most."""
    root = game(tmp_path / "game")
    line = append(root, "rulebook", "en", "\n\n".join(["{block:anatomy}"] * 1000))
    start = time.monotonic()
    result = compose_book(root, "rulebook", "en")
    assert time.monotonic() - start < 60
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and errors[0].position.line == line + 2 and "more than 2 times" in errors[0].message
