"""Nothing a contributor writes in the books becomes markup: prose, strings.yaml's `and` and `game_example.start`.

Before: a French paragraph with `<script>` (as `forge i18n import` writes it from a .po) ran in
the web edition, and strings.yaml's `and` and `game_example.start` were inserted as raw HTML.
Now the prose grammar has no HTML and every strings.yaml value is escaped text.
"""
from __future__ import annotations

import pytest

from ._prose import append, compose_book, game

SCRIPT = "<script>alert('prose')</script>"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_html_in_prose_is_text(tmp_path, lang):
    root = game(tmp_path / "game")
    append(root, "rulebook", lang, f"Un paragraphe {SCRIPT} <img src=x onerror=alert(1)>")
    result = compose_book(root, "rulebook", lang)
    assert result.ok, [f.render() for f in result.findings]
    assert "<script>alert" not in result.html and "<img src=x" not in result.html
    assert "&lt;script&gt;alert" in result.html and "&lt;img src=x" in result.html


@pytest.mark.parametrize("key,old", [("and", "  and: and\n"),
                                     ("game_example.start", '    start: "{player} ({faction}) has')])
def test_html_in_strings_yaml_is_text(tmp_path, key, old):
    root = game(tmp_path / "game")
    path = root / "templates/books/strings.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    new = '  and: "<script>alert(1)</script>"\n' if key == "and" else old.replace('"{player}', '"<script>alert(1)</script>{player}')
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = compose_book(root, "rulebook", "en")
    assert result.ok, [f.render() for f in result.findings]
    assert "<script>alert(1)" not in result.html and "&lt;script&gt;alert(1)" in result.html


def test_an_imported_french_script_paragraph_is_text_in_the_web_edition(tmp_path):
    from forge.books.web import build_web, web_path

    root = game(tmp_path / "game")
    append(root, "rulebook", "fr", f"Traduit {SCRIPT}")
    out = tmp_path / "out"
    [outcome] = build_web(root, ("rulebook",), ("fr",), out)
    assert outcome.written, [f.render() for f in outcome.findings]
    page = web_path(out, "rulebook", "fr").read_text(encoding="utf-8")
    assert "alert('prose')" not in page.replace("&lt;script&gt;alert(&#x27;prose&#x27;)", "").replace(
        "&lt;script&gt;alert('prose')", "")
    assert "&lt;script&gt;alert(" in page
