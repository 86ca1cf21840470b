"""The books' layouts are forge's: a project's `templates/books/book.html.j2` or `macros.html.j2` is never run.

Before: a pull request could replace the layout (Jinja, with the books' helpers) with its own
template. Now forge reads its layouts from its package; a project's copy is ignored, with a warning.
"""
from __future__ import annotations

import pytest

from ._prose import compose_book, game


@pytest.mark.parametrize("name", ["book.html.j2", "macros.html.j2"])
def test_a_project_s_layout_is_not_executed(tmp_path, name):
    root = game(tmp_path / "game")
    marker = "PWNED-BY-LAYOUT-" + name
    body = f"{marker} {{{{ 7 * 191 }}}}" if name == "book.html.j2" else \
        "{% macro factions_table(rows) %}" + marker + "{{ 7 * 191 }}{% endmacro %}"
    (root / "templates/books" / name).write_text(body + "\n", encoding="utf-8")
    result = compose_book(root, "rulebook", "en")
    assert marker not in result.html and "1337" not in result.html
    assert result.ok and "<main>" in result.html
    assert any(f.position.file == f"templates/books/{name}" and f.severity == "warning" for f in result.findings)
