"""Nothing a contributor writes in the books becomes markup: prose, strings.yaml's `and` and `game_example.start`.

Before: a French paragraph with `<script>` (as `forge i18n import` writes it from a .po) ran in
the web edition, and strings.yaml's `and` and `game_example.start` were inserted as raw HTML.
Now the prose grammar has no HTML and every strings.yaml value is escaped text.

The prose attacks compose the rulebook cut to its first sections (``shorten``): the grammar is tested on a
paragraph, not on the whole book. The strings.yaml attacks keep the whole book, where those strings are used.
"""
from __future__ import annotations

import pytest

from ._prose import append, compose_book, game, shorten

SCRIPT = "<script>alert('prose')</script>"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_html_in_prose_is_text(tmp_path, lang):
    root = game(tmp_path / "game")
    shorten(root, "rulebook")
    # words after the attack: a paragraph's last two words are bound in a span (typography), not the attack's
    append(root, "rulebook", lang, f"Un paragraphe {SCRIPT} <img src=x onerror=alert(1)> et la suite du paragraphe.")
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


@pytest.mark.slow
def test_an_imported_french_script_paragraph_is_text_in_the_web_edition(tmp_path):
    from forge.books.web import build_web, web_path

    root = game(tmp_path / "game")
    shorten(root, "rulebook")
    append(root, "rulebook", "fr", f"Traduit {SCRIPT}")
    out = tmp_path / "out"
    [outcome] = build_web(root, ("rulebook",), ("fr",), out)
    assert outcome.written, [f.render() for f in outcome.findings]
    page = web_path(out, "rulebook", "fr").read_text(encoding="utf-8")
    assert "alert('prose')" not in page.replace("&lt;script&gt;alert(&#x27;prose&#x27;)", "").replace(
        "&lt;script&gt;alert('prose')", "")
    assert "&lt;script&gt;alert(" in page


def test_a_translator_s_po_cannot_put_markup_or_template_code_in_a_book(tmp_path, cli):
    """What `forge i18n import` writes into the French prose is read by the same grammar: text, or a finding."""
    import polib

    from forge.i18n import inventory

    root = game(tmp_path / "game")
    shorten(root, "rulebook", 2)  # the title's part and Goal, whose paragraph is translated
    assert cli(["i18n", "export", "--root", str(root), "--out", str(tmp_path / "fr.po")]).exit_code == 0
    po = polib.pofile(str(tmp_path / "fr.po"))
    inv = inventory.build(root)
    goal = next(p.id for p in inv.pairs if p.id.startswith("books/rulebook/") and p.en
                and "reduce your opponent's health" in p.en.text)
    entry = next(e for e in po if e.msgctxt == goal)
    entry.msgstr = f"Le but {SCRIPT} du jeu."
    po.save(str(tmp_path / "fr.po"))
    cli(["i18n", "import", str(tmp_path / "fr.po"), "--root", str(root)])
    assert SCRIPT in (root / "templates/books/rulebook.fr.md").read_text(encoding="utf-8")
    result = compose_book(root, "rulebook", "fr")
    assert "<script>alert" not in result.html and "&lt;script&gt;alert(" in result.html
    entry.msgstr = 'Le but {% include "../../.git/config" %}.'
    po.save(str(tmp_path / "fr.po"))
    cli(["i18n", "import", str(tmp_path / "fr.po"), "--root", str(root)])
    result = compose_book(root, "rulebook", "fr")
    assert not result.ok and any("template code" in f.message for f in result.findings)
