"""The game log's phrases (locales/<lang>.yaml ``log:``) under parity, in the translators' files and stale tracking.

Each test makes one mistake in a log phrase of the shipped game, the way a translator (or a developer)
might, and asserts the finding's file, line and rule: in memory, by the family that owns the rule
(tests/parity/memory.py); the translators' files run the commands.
"""
from __future__ import annotations

import polib
import pytest

from .memory import Game

FR, EN = "locales/fr.yaml", "locales/en.yaml"


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


@pytest.mark.parametrize(("old", "new", "rule"), [
    # a placeholder dropped, and a plural slot the English has dropped (« 1 cartes »)
    ('draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche des cartes."', "parity-placeholder"),
    ('draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche {n} cartes."', "parity-placeholder"),
    # the plural forms in each other's slot
    ('draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche {n} {n|cartes|carte}."', "plural"),
    # a number changed
    ('sont réduites à 0."', 'sont réduites à 1."', "parity-number"),
    # English left in the French
    ('play: "{player} joue {card}."', 'play: "{player} plays {card}."', "untranslated"),
    # typography: a straight apostrophe, a plain space before a colon
    ('allegiance: "L’allégeance {faction}', 'allegiance: "L\'allégeance {faction}', "typography"),
    ('garde avec {card}\u00a0: les Blessures', 'garde avec {card} : les Blessures', "typography"),
    # terminology: a variant the termbase forbids (the discard pile is never a « cimetière »)
    ('rift: "{player} reprend {card} dans la pile d’exil."', 'rift: "{player} reprend {card} dans le cimetière."',
     "terminology"),
    # a sentence end lost
    ('win: "{player} gagne."', 'win: "{player} gagne"', "punctuation"),
])
def test_a_french_log_phrase_mistake_is_found_at_its_line(game, old, new, rule):
    assert game.text(FR).count(old) == 1, old
    line = game.edit(FR, old, new)
    assert (FR, line) in game.found(rule)


def test_a_placeholder_the_event_does_not_have_is_found_in_both_languages(game):
    """{plyer} is the same typo in both files: parity's comparison cannot see it, the log's own check does."""
    en = game.edit(EN, 'win: "{player} wins."', 'win: "{plyer} wins."')
    fr = game.edit(FR, 'win: "{player} gagne."', 'win: "{plyer} gagne."')
    assert {(EN, en), (FR, fr)} <= game.found("log-phrase")


def test_a_phrase_the_log_needs_missing_in_english_is_found(game):
    game.edit(EN, '  win: "{player} wins."\n', "")
    assert any(f == EN for f, _ in game.found("log-phrase"))
    assert any(f == FR for f, _ in game.found("parity-key"))  # the French has it, the English not


def test_a_french_plural_slot_on_a_count_english_does_not_inflect_is_grammar_not_a_mistake(game):
    """« {n} {n|dégât|dégâts} de poison » for "{n} poison damage": the shipped phrases pass; a slot on a count
    the English does not print stays an error."""
    assert game.rows("parity-placeholder") == set()
    line = game.edit(FR, "subit {n} {n|dégât|dégâts} de poison", "subit {m|dégât|dégâts} de poison")
    assert (FR, line) in game.found("parity-placeholder")


def test_an_english_log_edit_makes_its_french_stale(game):
    game.edit(EN, 'win: "{player} wins."', 'win: "{player} wins the game."')
    line = next(i for i, text in enumerate(game.text(FR).splitlines(), 1) if text.startswith('  win: "{player} gagne."'))
    assert (FR, line) in game.found("stale-translation")


def test_the_po_export_carries_the_log_with_its_context(tmp_path, exports):
    po = {e.msgctxt: e for e in polib.pofile(str(exports.to("po", tmp_path / "fr.po")))}
    draw = po["locales/log.draw"]
    assert (draw.msgid, draw.msgstr) == ("{player} draws {n} {n|card|cards}.", "{player} pioche {n} {n|carte|cartes}.")
    assert "game log" in draw.comment and not draw.fuzzy
    assert len([k for k in po if k.startswith("locales/log.")]) == 36


def test_a_log_phrase_imported_from_the_po_reaches_the_replay(shipped, tmp_path, cli, exports):
    out = exports.to("po", tmp_path / "fr.po")
    po = polib.pofile(str(out))
    next(e for e in po if e.msgctxt == "locales/log.win").msgstr = "{player} remporte la partie."
    po.save(str(out))
    result = cli(["i18n", "import", str(out), "--root", str(shipped)])
    assert result.exit_code == 0, result.output
    assert 'win: "{player} remporte la partie."' in (shipped / FR).read_text(encoding="utf-8")
    from forge.text.narrate import LogPrinter
    from forge.engine.sample import sample_database
    from forge.text.cardtext import load_phrasebooks

    printer = LogPrinter(sample_database(), load_phrasebooks(shipped), "fr")
    assert printer({"t": "event", "e": "win", "player": 1}) == "Joueur 2 remporte la partie."
