"""Book prose cannot read a file: `{% include %}`, `{% import %}` and `{% extends %}` are findings, never run.

Before: `{% include "../../.git/config" %}` appended to the rulebook printed the checkout's
`.git/config` (on CI, its token) in the PDF and the web edition, and `forge check` passed.
Now prose is Markdown with a closed set of directives: the line is a `[book]` finding at its
line and column, and the file is never opened.
"""
from __future__ import annotations

import pytest

from ._prose import append, compose_book, game

TOKEN = "ghp_PROSEINCLUDETOKEN0123456789"
ATTACKS = ['{% include "../../.git/config" %}', '{% import "../../.git/config" as c %}',
           '{% extends "../../.git/config" %}', '{{ include("../../.git/config") }}']


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("attack", ATTACKS, ids=["include", "import", "extends", "call"])
def test_a_file_named_in_prose_is_never_read(tmp_path, lang, attack):
    root = game(tmp_path / "game")
    (root / ".git").mkdir()
    (root / ".git/config").write_text(f'[http]\n\textraheader = AUTHORIZATION: basic {TOKEN}\n', encoding="utf-8")
    line = append(root, "rulebook", lang, attack)
    result = compose_book(root, "rulebook", lang)
    assert TOKEN not in result.html and all(TOKEN not in f.render() for f in result.findings)
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and (errors[0].position.file, errors[0].position.line, errors[0].position.col, errors[0].rule) == \
        (f"templates/books/rulebook.{lang}.md", line, 1, "book"), [f.render() for f in errors]
    assert "template code" in errors[0].message
