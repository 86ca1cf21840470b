"""The locale tables a program prints from (locales/<lang>.yaml ``log:``, the game log; ``web:``, the gallery and
the replay viewer) under parity, in the translators' files and stale tracking.

Both tables are checked the same way, so each test runs on both: it makes one mistake in a phrase of
the shipped game, the way a translator (or a developer) might, and asserts the finding's file, line and
rule: in memory, by the family that owns the rule (tests/parity/memory.py); the translators' files run
the commands, and one stale edit runs ``forge parity`` end to end.
"""
from __future__ import annotations

import polib
import pytest

from forge.text import narrate
from forge.text.cardtext import load_phrasebooks
from forge.web.strings import KEYS, words

from .memory import Game

FR, EN = "locales/fr.yaml", "locales/en.yaml"


def _printed_win(root) -> str:
    """How the replay's log, in French, prints the second player's win."""
    from forge.engine.sample import sample_database

    return narrate.LogPrinter(sample_database(), load_phrasebooks(root), "fr")({"t": "event", "e": "win", "player": 1})


def _gallery_title(root) -> str:
    """The gallery's title in French."""
    return words(load_phrasebooks(root), "fr")["gallery_title"]


#: What differs between the tables: the rule of their own check, a typo'd placeholder in both languages,
#: an English phrase to drop or edit (and its French), an exported entry, the keys, a phrase imported and
#: how the program prints it.
TABLES = {
    "log": {
        "rule": "log-phrase",
        "typo": (('win: "{player} wins."', 'win: "{plyer} wins."'), ('win: "{player} gagne."', 'win: "{plyer} gagne."')),
        "english": '  win: "{player} wins."\n', "edited": '  win: "{player} wins the game."\n',
        "french": '  win: "{player} gagne."',
        "entry": ("draw", "{player} draws {n} {n|card|cards}.", "{player} pioche {n} {n|carte|cartes}.", "game log"),
        "keys": narrate.KINDS, "count": 36,
        "imported": ("win", "{player} remporte la partie.", _printed_win, "Joueur 2 remporte la partie."),
    },
    "web": {
        "rule": "web-words",
        "typo": (('shown: "{n} of {total} cards"', 'shown: "{count} of {total} cards"'),
                 ('shown: "{n} cartes sur {total}"', 'shown: "{count} cartes sur {total}"')),
        "english": '  reset: "Clear"\n', "edited": '  reset: "Clear the filters"\n',
        "french": '  reset: "Effacer"',
        "entry": ("shown", "{n} of {total} cards", "{n} cartes sur {total}", "gallery"),
        "keys": tuple(KEYS), "count": 55,
        "imported": ("gallery_title", "Toutes les cartes", _gallery_title, "Toutes les cartes"),
    },
}

#: One French mistake per row: (table, old, new, the rule that finds it).
MISTAKES = [
    # a placeholder dropped, and a plural slot the English has dropped (« 1 cartes »)
    ("log", 'draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche des cartes."', "parity-placeholder"),
    ("log", 'draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche {n} cartes."', "parity-placeholder"),
    # a placeholder dropped: the gallery's count would read « cartes sur 64 »
    ("web", 'shown: "{n} cartes sur {total}"', 'shown: "cartes sur {total}"', "parity-placeholder"),
    # the plural forms in each other's slot
    ("log", 'draw: "{player} pioche {n} {n|carte|cartes}."', 'draw: "{player} pioche {n} {n|cartes|carte}."', "plural"),
    # a number changed, a number the English does not have
    ("log", 'sont réduites à 0."', 'sont réduites à 1."', "parity-number"),
    ("web", 'Planche d’épreuve, page {page}"', 'Planche d’épreuve, page 1"', "parity-number"),
    # English left in the French
    ("log", 'play: "{player} joue {card}."', 'play: "{player} plays {card}."', "untranslated"),
    ("web", 'replay_title: "Relecture"', 'replay_title: "Replay"', "untranslated"),
    # typography: a straight apostrophe, a plain space before a colon
    ("log", 'allegiance: "L’allégeance {faction}', 'allegiance: "L\'allégeance {faction}', "typography"),
    ("log", 'garde avec {card}\u00a0: les Blessures', 'garde avec {card} : les Blessures', "typography"),
    ("web", 'essence: "Essence d’âme"', 'essence: "Essence d\'âme"', "typography"),
    ("web", 'La partie a échoué\u202f: {error}', 'La partie a échoué : {error}', "typography"),
    # terminology: a variant the termbase forbids (the discard pile is never a « cimetière »)
    ("log", 'rift: "{player} reprend {card} dans la pile d’exil."', 'rift: "{player} reprend {card} dans le cimetière."',
     "terminology"),
    # a sentence end lost
    ("log", 'win: "{player} gagne."', 'win: "{player} gagne"', "punctuation"),
    ("web", 'none: "Aucune carte ne correspond."', 'none: "Aucune carte ne correspond"', "punctuation"),
]


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


def line_of(game: Game, rel: str, start: str) -> int:
    return next(i for i, text in enumerate(game.text(rel).splitlines(), 1) if text.startswith(start))


@pytest.mark.parametrize(("table", "old", "new", "rule"), MISTAKES)
def test_a_french_mistake_is_found_at_its_line(game, table, old, new, rule):
    assert game.text(FR).count(old) == 1, old
    line = game.edit(FR, old, new)
    assert (FR, line) in game.found(rule)


@pytest.mark.parametrize("table", TABLES)
def test_a_placeholder_the_program_does_not_fill_is_found_in_both_languages(game, table):
    """The same typo in both files: parity's comparison cannot see it, the table's own check does."""
    (en_old, en_new), (fr_old, fr_new) = TABLES[table]["typo"]
    en, fr = game.edit(EN, en_old, en_new), game.edit(FR, fr_old, fr_new)
    assert {(EN, en), (FR, fr)} <= game.found(TABLES[table]["rule"])


@pytest.mark.parametrize("table", TABLES)
def test_a_phrase_the_program_needs_missing_in_english_is_found(game, table):
    game.edit(EN, TABLES[table]["english"], "")
    assert any(f == EN for f, _ in game.found(TABLES[table]["rule"]))
    assert any(f == FR for f, _ in game.found("parity-key"))  # the French has it, the English not


def test_a_french_plural_slot_on_a_count_english_does_not_inflect_is_grammar_not_a_mistake(game):
    """« {n} {n|dégât|dégâts} de poison » for "{n} poison damage": the shipped phrases pass; a slot on a count
    the English does not print stays an error."""
    assert game.rows("parity-placeholder") == set()
    line = game.edit(FR, "subit {n} {n|dégât|dégâts} de poison", "subit {m|dégât|dégâts} de poison")
    assert (FR, line) in game.found("parity-placeholder")


@pytest.mark.parametrize("table", TABLES)
def test_an_english_edit_makes_its_french_stale(game, table):
    game.edit(EN, TABLES[table]["english"], TABLES[table]["edited"])
    assert (FR, line_of(game, FR, TABLES[table]["french"])) in game.found("stale-translation")


def test_stale_is_a_warning_parity_passes_and_names_the_french_line(game):
    """End to end: the command exits 0 and its report names the French line to review."""
    game.edit(EN, TABLES["web"]["english"], TABLES["web"]["edited"])
    code, rows = game.report()
    assert code == 0
    line = line_of(game, FR, TABLES["web"]["french"])
    assert (FR, line, "stale-translation") in {(f["file"], f["line"], f["rule"]) for f in rows}


@pytest.mark.parametrize("table", TABLES)
def test_the_po_export_carries_the_table_with_its_context(tmp_path, exports, table):
    key, english, french, comment = TABLES[table]["entry"]
    po = {e.msgctxt: e for e in polib.pofile(str(exports.to("po", tmp_path / "fr.po")))}
    entry = po[f"locales/{table}.{key}"]
    assert (entry.msgid, entry.msgstr) == (english, french)
    assert comment in entry.comment and not entry.fuzzy
    ours = {k for k in po if k.startswith(f"locales/{table}.")}
    assert ours == {f"locales/{table}.{k}" for k in TABLES[table]["keys"]} and len(ours) == TABLES[table]["count"]


@pytest.mark.parametrize("table", TABLES)
def test_a_phrase_imported_from_the_po_reaches_the_program(shipped, tmp_path, cli, exports, table):
    key, phrase, printed, expected = TABLES[table]["imported"]
    out = exports.to("po", tmp_path / "fr.po")
    po = polib.pofile(str(out))
    next(e for e in po if e.msgctxt == f"locales/{table}.{key}").msgstr = phrase
    po.save(str(out))
    result = cli(["i18n", "import", str(out), "--root", str(shipped)])
    assert result.exit_code == 0, result.output
    assert f'{key}: "{phrase}"' in (shipped / FR).read_text(encoding="utf-8")
    assert printed(shipped) == expected
