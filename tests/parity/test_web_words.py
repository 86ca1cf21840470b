"""The web pages' words (locales/<lang>.yaml ``web:``: the gallery and the replay viewer) under parity, in the
translators' files and stale tracking.

Each test makes one mistake in a web word of the shipped game, the way a translator (or a developer)
might, and asserts the finding's file, line and rule: in memory, by the family that owns the rule
(tests/parity/memory.py); the translators' files run the commands.
"""
from __future__ import annotations

import polib
import pytest

from forge.text.cardtext import load_phrasebooks
from forge.web.strings import KEYS, words

from .memory import Game

FR, EN = "locales/fr.yaml", "locales/en.yaml"


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


@pytest.mark.parametrize(("old", "new", "rule"), [
    # a placeholder dropped: the gallery's count would read « cartes sur 64 »
    ('shown: "{n} cartes sur {total}"', 'shown: "cartes sur {total}"', "parity-placeholder"),
    # a number the English does not have
    ('Planche d’épreuve, page {page}"', 'Planche d’épreuve, page 1"', "parity-number"),
    # English left in the French
    ('replay_title: "Relecture"', 'replay_title: "Replay"', "untranslated"),
    # typography: a straight apostrophe, a plain space before a colon
    ('essence: "Essence d’âme"', 'essence: "Essence d\'âme"', "typography"),
    ('La partie a échoué\u202f: {error}', 'La partie a échoué : {error}', "typography"),
    # a sentence end lost
    ('none: "Aucune carte ne correspond."', 'none: "Aucune carte ne correspond"', "punctuation"),
])
def test_a_french_web_word_mistake_is_found_at_its_line(game, old, new, rule):
    assert game.text(FR).count(old) == 1, old
    line = game.edit(FR, old, new)
    assert (FR, line) in game.found(rule)


def test_a_placeholder_the_page_does_not_fill_is_found_in_both_languages(game):
    """{count} is the same typo in both files: parity's comparison cannot see it, the pages' own check does."""
    en = game.edit(EN, 'shown: "{n} of {total} cards"', 'shown: "{count} of {total} cards"')
    fr = game.edit(FR, 'shown: "{n} cartes sur {total}"', 'shown: "{count} cartes sur {total}"')
    assert {(EN, en), (FR, fr)} <= game.found("web-words")


def test_a_word_the_pages_need_missing_in_english_is_found(game):
    game.edit(EN, '  reset: "Clear"\n', "")
    assert any(f == EN for f, _ in game.found("web-words"))
    assert any(f == FR for f, _ in game.found("parity-key"))  # the French has it, the English not


def test_an_english_web_edit_makes_its_french_stale(game):
    """Stale is a warning: parity still passes (end to end), and names the French line to review."""
    game.edit(EN, 'reset: "Clear"', 'reset: "Clear the filters"')
    code, rows = game.report()
    assert code == 0
    line = next(i for i, text in enumerate(game.text(FR).splitlines(), 1) if text.startswith('  reset: "Effacer"'))
    assert (FR, line, "stale-translation") in {(f["file"], f["line"], f["rule"]) for f in rows}


def test_the_po_export_carries_the_web_words_with_their_context(tmp_path, exports):
    po = {e.msgctxt: e for e in polib.pofile(str(exports.to("po", tmp_path / "fr.po")))}
    shown = po["locales/web.shown"]
    assert (shown.msgid, shown.msgstr) == ("{n} of {total} cards", "{n} cartes sur {total}")
    assert "gallery" in shown.comment and not shown.fuzzy
    assert {k for k in po if k.startswith("locales/web.")} == {f"locales/web.{k}" for k in KEYS}


def test_a_web_word_imported_from_the_po_reaches_the_page(shipped, tmp_path, cli, exports):
    out = exports.to("po", tmp_path / "fr.po")
    po = polib.pofile(str(out))
    next(e for e in po if e.msgctxt == "locales/web.gallery_title").msgstr = "Toutes les cartes"
    po.save(str(out))
    result = cli(["i18n", "import", str(out), "--root", str(shipped)])
    assert result.exit_code == 0, result.output
    assert 'gallery_title: "Toutes les cartes"' in (shipped / FR).read_text(encoding="utf-8")
    assert words(load_phrasebooks(shipped), "fr")["gallery_title"] == "Toutes les cartes"
