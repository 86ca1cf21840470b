"""The card template's labels (player aids, calibration help, Tabletop Simulator help) under parity.

Issue 11: ``templates/cards/card.yaml`` holds 73 translated strings that were outside the
translators' workflow. Each test makes one mistake in the shipped game and asserts the finding's
file, line and rule: in memory, by the family that owns the rule (tests/parity/memory.py; the template's
boxes are read from the given card.yaml too), end to end where the test is of the whole report. Code spans (`` `…` ``, ``forge.text.verbatim``) are
the rule for technical text: copied as they are, never read as language.
"""
from __future__ import annotations

import json

import pytest

from forge.text import verbatim
from forge.i18n import inventory, limits
from forge.render.template import parse_template
from ..conftest import REPO
from .memory import Game

CARD = "templates/cards/card.yaml"


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


def mistake(game: Game, old: str, new: str, nth: int = 1) -> int:
    """Replace the ``nth`` ``old`` of card.yaml by ``new``; the line it is on."""
    text = game.text(CARD)
    at = -1
    for _ in range(nth):
        at = text.index(old, at + 1)
    game.replace(CARD, text[:at] + new + text[at + len(old):])
    return text.count("\n", 0, at) + 1


# -- the inventory ---------------------------------------------------------------------------------
def test_every_template_label_is_a_pair_at_its_line_and_column():
    pairs = inventory.build(REPO).by_kind("template-label")
    assert len(pairs) == 79 and len({p.id for p in pairs}) == 79  # 6 for the print shops' aids (issue 8 §5)
    ids = {p.id: p for p in pairs}
    assert {"template/aids.turn", "template/aids.wound_steps.2", "template/calibration_help.8",
            "template/tts_help.13", "template/backs.recruit", "template/sides.1"} <= set(ids)
    turn = ids["template/aids.turn"]
    lines = (REPO / CARD).read_text(encoding="utf-8").split("\n")
    for entry, text in ((turn.en, "Turn summary"), (turn.fr, "Résumé du tour")):
        assert entry.file == CARD and entry.text == text
        assert lines[entry.line - 1][entry.col - 1:].startswith(text)
    assert turn.fr.line > turn.en.line and "player aids" in turn.context


def test_the_shipped_template_is_clean_and_tracked(game):
    """End to end: the whole report of the shipped game is empty."""
    assert game.report() == (0, [])


# -- mistakes in the aids ----------------------------------------------------------------------------
def test_a_straight_apostrophe_and_a_plain_space_are_found_and_fixed_in_place(game):
    before = game.text(CARD)
    a = mistake(game, "L’essence non dépensée", "L'essence non dépensée")
    b = mistake(game, "Départ\u00a0: {start_allegiance}", "Départ : {start_allegiance}")
    assert game.found("typography") == {(CARD, a), (CARD, b)}
    assert game.fix() == {CARD: 2}  # as ``forge parity --fix`` applies them
    assert (game.written() / CARD).read_text(encoding="utf-8") == before  # only those two characters changed back


def test_a_number_changed_in_the_calibration_help(game):
    line = mistake(game, "150\u00a0mm en largeur", "160\u00a0mm en largeur")
    assert game.found("parity-number") == {(CARD, line)}


def test_english_left_in_an_aid_title(game):
    line = mistake(game, "turn: Résumé du tour", "turn: Turn summary")
    assert (CARD, line) in game.found("untranslated")


def test_a_label_missing_in_french_is_reported_at_the_english(game):
    mistake(game, "      essence_note: \"Perdue à la fin de votre tour.\"\n", "")
    en = game.text(CARD).split("\n").index('      essence_note: "Lost at the end of your turn."') + 1
    code, findings = game.report()
    assert code == 1
    key = [f for f in findings if f["rule"] == "parity-key"]  # the renderer's template check reports it too
    assert [(f["file"], f["line"]) for f in key] == [(CARD, en)]
    assert "card.yaml" in key[0]["message"] and "labels.fr" in key[0]["hint"]


def test_a_placeholder_dropped_from_an_aid(game):
    line = mistake(game, "Piochez jusqu’à {hand} cartes.", "Piochez jusqu’à 5 cartes.")
    assert (CARD, line) in game.found("parity-placeholder")


# -- code spans: technical text ----------------------------------------------------------------------
def test_a_path_translated_inside_its_code_span(game):
    line = mistake(game, "`~/Library/Tabletop Simulator/`⍽;".replace("⍽", "\u00a0"),
                   "`~/Bibliothèque/Tabletop Simulator/`\u00a0;")
    assert game.found("parity-verbatim") == {(CARD, line)}
    assert game.rows("untranslated") == game.rows("whitespace") == set()


def test_a_path_whose_code_span_was_dropped(game):
    # the path is now read as French: its English words and its missing span are both reported
    line = mistake(game, "`Documents/My Games/Tabletop Simulator/`", "Documents/My Games/Tabletop Simulator/", 2)
    assert (CARD, line) in game.found("parity-verbatim")


def test_indentation_is_verbatim_only_inside_a_code_span(game):
    line = mistake(game, "\"`    `Avec forge", "\"    Avec forge")
    assert game.found("parity-verbatim") == game.found("whitespace") == {(CARD, line)}


def test_a_double_space_outside_a_code_span_is_still_found(game):
    line = mistake(game, "`  Saves/Saved Objects/       `{save}\u00a0: les decks",
                   "`  Saves/Saved Objects/       `{save}\u00a0: les  decks")
    assert game.found("whitespace") == {(CARD, line)}
    assert game.rows("parity-verbatim") == set()  # the spaces inside the span are copied, never read


def test_the_renderer_prints_code_spans_without_their_backticks():
    tpl = parse_template((REPO / CARD).read_text(encoding="utf-8"))
    for lang in ("en", "fr"):
        printed = json.dumps(tpl.labels(lang), ensure_ascii=False)
        assert "`" not in printed
    assert tpl.labels("fr")["calibration_help"][4].startswith("    Avec forge")
    assert tpl.labels("en")["tts_help"][7] == \
        "   on Windows: Documents/My Games/Tabletop Simulator/; on macOS: ~/Library/Tabletop Simulator/;"
    assert "`" in tpl.data["labels"]["fr"]["tts_help"][7]  # the data itself is untouched
    assert verbatim.plain({"a": ["`x` y", 3]}) == {"a": ["x y", 3]}
    assert verbatim.spans("a `b c` d `e`") == ["`b c`", "`e`"]


# -- length ----------------------------------------------------------------------------------------
def test_a_bounded_aid_label_too_long_for_its_box(game):
    title = mistake(game, "turn: Résumé du tour", "turn: Résumé complet et détaillé de chaque tour de jeu")
    help_line = mistake(game, "3. Regardez la feuille par transparence",
                        "3. Regardez la feuille par transparence, tenue bien droite devant une fenêtre, une lampe "
                        "ou un écran très lumineux, sans la plier ni la froisser")
    assert {(CARD, title), (CARD, help_line)} <= game.found("length")


def test_limits_come_from_the_layout_and_the_plain_text_readme_has_none(game):
    room = limits.compute(REPO, inventory.build(REPO, game.sources()))
    assert room["template/aids.turn"].one_line and room["template/calibration_help.0"].one_line
    assert not room["template/aids.wound_steps.0"].one_line  # a side shared by its steps: an estimate
    assert room["template/aids.player_aid"].upper
    assert not any(k.startswith("template/tts_help") for k in room)
    narrow = room["template/aids.turn"].chars
    # 5.5 mm narrower (every box still on the card): the title's room shrinks with the card's
    game.edit(CARD, "  width: 63.5\n", "  width: 58.0\n")
    assert limits.compute(REPO, inventory.build(REPO, game.sources()))["template/aids.turn"].chars < 0.93 * narrow


def test_a_file_named_after_its_language_differs_by_its_language_code_only(game):
    assert "`Objects > Saved Objects > rift-commanders-fr`" in game.text(CARD)
    line = mistake(game, "`Objects > Saved Objects > rift-commanders-fr`",
                   "`Objets > Objets sauvegardés > rift-commanders-fr`")
    assert game.found("parity-verbatim") == {(CARD, line)}
