"""parity's check families, one entry point: a family run alone finds what the full run finds of its rules,
on the files given in memory, and an unknown family is refused."""
from __future__ import annotations

import pytest

from forge.carddb.database import load_database
from forge.i18n.parity import FAMILIES, families_of, parity
from forge.text.sources import Sources

from ..conftest import REPO
from .memory import Game

FR, RED = "locales/fr.yaml", "cards/red.yaml"
NAME = 'fr: "Coureur des Cendres"'
LONG_NAME = 'fr: "Coureur Infatigable des Cendres Rougeoyantes du Grand Brasier Éternel"'
SCHEMA_BREAK = ("    cost: 2\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"",
                "    cost: two\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"")
#: One mistake for most families: (file, old, new).
MISTAKES = [
    (RED, NAME, LONG_NAME),  # length
    (RED, 'fr: "Déjà loin. Déjà en flammes."', 'fr: "Déjà loin. Already burning !"'),  # untranslated, punctuation
    (RED, *SCHEMA_BREAK),  # schema: the card file's own error, no family's rule
    (FR, 'do: "Piochez {n} {n|carte|cartes}."', 'do: "Piochez {n} {n|cartes|carte} ."'),  # plural, typography
    (FR, 'poison: "**Poison** {n}"', 'poison: "Poison {n}"'),  # parity-markup
    (FR, "creature: Créature,", "creature: Créature Invocable des Profondeurs Abyssales du Néant,"),  # length
    ("templates/books/rulebook.fr.md", "Chaque tour comporte trois phases", "Chaque tour  comporte quatre phases"),
    ("templates/books/rulebook.en.md", "Each turn has three phases", "Each turn has three (3) phases"),  # untracked
    ("locales/termbase.yaml", "en: Rush, fr: Ruée,", "en: Rush, fr: Garde,"),  # terminology
]


@pytest.fixture(scope="module")
def mistaken(tmp_path_factory) -> Game:
    game = Game(tmp_path_factory.mktemp("families"))
    for rel, old, new in MISTAKES:
        game.edit(rel, old, new)
    return game


@pytest.fixture(scope="module")
def full(mistaken) -> list:
    return mistaken.findings()


def rows(findings, rule: str) -> list:
    return [f for f in findings if f.rule == rule]


def test_the_mistakes_reach_many_families_and_a_file_error(full):
    """What the next test compares is not empty: the game's mistakes are found by most families."""
    reported = {family for f in full for family in families_of(f.rule)}
    assert {"tokens", "numbers", "untranslated", "terms", "plurals", "typography", "fingerprints",
            "length"} <= reported
    assert {f.rule for f in full if not families_of(f.rule)} == {"schema"}  # the card file's own error


#: The rules of every family, grouped by the families that report them (``length``: three of them).
GROUPS = {}
for _rule in sorted({rule for family in FAMILIES.values() for rule in family.rules}):
    GROUPS.setdefault(tuple(families_of(_rule)), []).append(_rule)


@pytest.mark.parametrize("families", GROUPS, ids="+".join)
def test_a_family_run_alone_finds_what_the_full_run_finds_of_its_rules(mistaken, full, families):
    alone = mistaken.family(*families)
    for rule in GROUPS[families]:
        assert rows(alone, rule) == rows(full, rule), rule


def test_a_family_of_the_cards_brings_their_files_errors(mistaken, full):
    """The schema error is no family's rule, but it comes with every family that compiles the cards."""
    schema = rows(full, "schema")
    assert schema and rows(mistaken.family("log"), "schema") == schema
    assert rows(mistaken.family("presence"), "schema") == []  # the inventory alone compiles no card


def test_the_given_texts_are_read_not_the_disk(tmp_path):
    """The mistakes written on disk, the shipped texts given: parity (the compiled cards too) finds nothing."""
    game = Game(tmp_path)
    for rel, old, new in MISTAKES:
        game.edit(rel, old, new)
    root, families = game.written(), ("untranslated", "cards", "limits")  # the inventory, the cards, their fit
    assert {"schema", "length", "untranslated"} <= {f.rule for f in parity(root, families=families).findings}
    shipped = {rel: (REPO / rel).read_text(encoding="utf-8") for rel, _old, _new in MISTAKES}
    assert parity(root, sources=Sources(root, given=shipped), families=families).findings == []


def test_a_given_text_that_does_not_parse_stays_what_is_read():
    """Sources drops a file that does not parse; its given text is what the card loader reads then too."""
    sources = Sources(REPO, given={RED: "cards: [unclosed\n"})
    assert sources.yaml(RED) is None and RED in sources.failed
    load = load_database(REPO, sources.texts())
    assert [(p.file, p.line) for p in load.unloaded] == [(RED, 2)]


def test_layout_false_leaves_the_text_fit_out_even_when_named(tmp_path):
    game = Game(tmp_path)
    line = game.edit(RED, NAME, LONG_NAME)
    assert (RED, line) in {(f.position.file, f.position.line) for f in rows(game.family("length"), "length")}
    assert parity(REPO, layout=False, sources=game.sources(), families=["length"]).findings == []


def test_an_unknown_family_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown parity family typo;.*presence, tokens, .*typography") as caught:
        parity(REPO, families=["typography", "typo"])
    assert all(name in str(caught.value) for name in FAMILIES)
