"""forge check reads card files, locales, the card template and the generated files through safeio.

A FIFO in place of schema/cards.schema.json used to hang the CI gate, and a link to
a copy outside the project passed as "up to date"; each is now a finding with
safeio's rule (issue 7, section 2).

Each kind of file is tried on the check that reads it, called as the gate calls it
(tests/check/test_check.py's ``gate``: the check's own function, reported by the command's ``to_text``);
a few cases go through the whole gate on the command line, boxes and exit status included.
"""
from __future__ import annotations

import pytest

from ..validate.special_files import KINDS, fifo
from .test_check import gate, run

FRESHNESS = ["fifo", "dev-zero", "dev-urandom", "folder", "huge", "link-out"]
GENERATED = [("schema/cards.schema.json", "schema"), ("docs/design.md", "docs")]


@pytest.mark.parametrize("kind", FRESHNESS)
@pytest.mark.parametrize("rel, check", GENERATED)
def test_a_generated_file_that_is_not_an_ordinary_file_fails_its_check(gated, no_hang, kind, rel, check):
    make, rule, words = KINDS[kind]
    make(gated / rel)
    code, out = gate(gated, check)
    assert f"{rel}: [{rule}] " in out and words in out
    assert f"✗ {check}: out of date" in out
    assert code == 1


@pytest.mark.parametrize("kind, rel, check", [("fifo", "schema/cards.schema.json", "schema"),
                                              ("link-out", "docs/design.md", "docs")])
def test_the_gate_reports_a_generated_file_that_is_not_an_ordinary_file(gated, no_hang, kind, rel, check):
    """The whole gate on the command line: the FIFO that hung it, the link out that passed as up to date."""
    make, rule, words = KINDS[kind]
    make(gated / rel)
    code, out = run(gated)
    assert f"{rel}: [{rule}] " in out and words in out
    assert f"✗ {check}: out of date" in out
    assert out.splitlines()[-1] == f"✗ check failed: {check}"
    assert code == 1


@pytest.mark.parametrize("rel", ["cards/red.yaml", "locales/fr.yaml", "templates/cards/card.yaml"])
def test_a_fifo_among_the_inputs_is_a_finding_not_a_hang(gated, no_hang, rel):
    fifo(gated / rel)
    code, out = gate(gated, "validate")
    assert f"{rel}: [special-file] is a named pipe (FIFO), not an ordinary file" in out
    assert "✗ validate:" in out and code == 1


def test_the_gate_reports_a_fifo_among_the_cards(gated, no_hang):
    rel = "cards/red.yaml"
    fifo(gated / rel)
    code, out = run(gated)
    assert f"{rel}: [special-file] is a named pipe (FIFO), not an ordinary file" in out
    assert "✗ validate:" in out and code == 1


def test_a_link_to_dev_zero_among_the_cards_is_a_finding(gated, no_hang):
    make, rule, _ = KINDS["dev-zero"]
    make(gated / "cards" / "red.yaml")
    code, out = gate(gated, "validate")
    assert f"cards/red.yaml: [{rule}] the path leads outside the project (to /dev/zero)" in out
    assert code == 1


def test_a_fifo_for_a_book_is_a_finding_of_the_books_check(gated, no_hang):
    rel = "templates/books/rulebook.en.md"
    fifo(gated / rel)
    code, out = run(gated)
    assert f"{rel}: [special-file] is a named pipe (FIFO), not an ordinary file" in out
    assert "✗ books:" in out and code == 1
