"""Rule printed-layout: a card whose printed lines a player would read as another ability than the one
the engine resolves is refused (rulebook, Reading the text box: after ⟳ every line is part of the
activation up to a Demise line)."""
from __future__ import annotations

import pytest

from forge.checks.validate import validate

from ..conftest import REPO
from .helpers import CREATURE as BASE_CREATURE, run
from .test_rules_of_form import SPELL

#: A creature with two ⟳ lines and a Demise, and a spell (the cards of the rules-of-form tests).
CREATURE = BASE_CREATURE + "      - draw: 1\n    demise:\n      - draw: 1\n"
RITE_TRIGGER = """\
    triggers:
      - event: cast
        by: you
        effects:
          - wound: 1
          - draw: 1
"""


def _override(text: str, line: str, en: str, fr: str | None = None) -> str:
    """``text`` with a `text:` override on the effect line ``line`` (its exact YAML, e.g. "      - draw: 1")."""
    fr = fr if fr is not None else en
    indent = " " * (len(line) - len(line.lstrip(" -")))
    assert line in text
    return text.replace(line, f"{line}\n{indent}text: {{en: \"{en}\", fr: \"{fr}\"}}", 1)


# (card file text, a phrase of the message, the text on the line the finding must point at)
CASES = {
    "a played effect worded with the ⟳ mark reads as an activation": (
        _override(SPELL, "      - wound: 2", "[[activate]] **Wound** 2", "[[activate]] **Blessures** 2"),
        "reads as the start of a ⟳ activation", "text: {en:"),
    "a Demise mark inside the activation ends it early": (
        _override(CREATURE, "      - draw: 1", "[[demise]] Draw 1 card.", "[[demise]] Piochez 1 carte."),
        "reads as a Demise line, but the engine resolves it as part of the ⟳ activation", "text: {en:"),
    "the word Demise opening a trigger's line": (
        _override(SPELL.replace("type: spell", "type: rite").replace("    cost: 2\n", "").replace(
            "    allegiance: {red: 1}\n", "").replace("    copies: 2\n", "    set: rite\n    copies: 1\n").replace(
            "    effects:\n      - wound: 2\n", RITE_TRIGGER),
            "          - draw: 1", "Demise: draw 1 card.", "Trépas : piochez 1 carte."),
        "reads as a Demise line", "text: {en:"),
    "an \"Each time\" opening inside the activation": (
        _override(CREATURE, "      - draw: 1", "Each time you cast a spell: draw 1 card.",
                  "Chaque fois que vous jouez une magie : piochez 1 carte."),
        "carries an \"each time\" opening in its effect", "text: {en:"),
    "an end-of-turn opening on a played effect": (
        _override(SPELL, "      - wound: 2", "End of your turn: **Wound** 2", "Fin de votre tour : **Blessures** 2"),
        "reads as the start of an end-of-turn ability", "text: {en:"),
    "an end-of-turn opening after a conditional prefix": (
        _override(SPELL.replace("      - wound: 2", "      - wound: 2\n      - if: {red: 3}\n        draw: 1"),
                  "        draw: 1", "3 [[red]]: End of your turn: draw 1 card.",
                  "3 [[red]] : Fin de votre tour : piochez 1 carte."),
        "reads as the start of an end-of-turn ability", "text: {en:"),
    "a trigger opening after the first sentence of a wording": (
        _override(CREATURE, "      - draw: 1", "Draw 1 card. Each time you cast a spell, draw again.",
                  "Piochez 1 carte. Chaque fois que vous jouez une magie, piochez encore."),
        "carries an \"each time\" opening in its effect", "text: {en:"),
    "an activation worded as Guard reads as the ⟳ Guard keyword": (
        _override(CREATURE, "      - wound: 2", "Guard the gate: **Wound** 2", "Garde la porte : **Blessures** 2"),
        "reads as the ⟳ Guard keyword, but the engine resolves it as the start of a ⟳ activation", "text: {en:"),
}


def _line_of(project, text: str, needle: str, after: str = "") -> int:
    lines = (project.root / "cards" / "red.yaml").read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if needle in line)


@pytest.mark.parametrize("case", sorted(CASES))
def test_printed_layout_is_refused(project, case):
    text, phrase, needle = CASES[case]
    project("red.yaml", text)
    code, report = run(project.root)
    hits = [f for f in report["findings"] if f["rule"] == "printed-layout"]
    assert hits, report["findings"]
    assert any(phrase in f["message"] for f in hits), hits
    hit = hits[0]
    assert hit["file"] == "cards/red.yaml" and hit["line"] == _line_of(project, text, needle) and hit["column"] > 0
    assert hit["hint"] and "`text:` override" in hit["hint"]
    assert {f["message"][4:6] for f in hits} == {"en", "fr"}  # both languages are read
    assert code == 1


def test_the_same_lines_without_the_marks_are_accepted(project):
    """The control: the same cards with plain wordings pass, so each case above is the marks' doing."""
    text = _override(CREATURE, "      - draw: 1", "Then draw 1 card.", "Puis piochez 1 carte.")
    text = _override(text, "      - wound: 2", "Strike: **Wound** 2", "Frappe : **Blessures** 2")
    project("red.yaml", text)
    _, report = run(project.root)
    assert not [f for f in report["findings"] if f["rule"] == "printed-layout"], report["findings"]


def _locale_case(project, frame: str, replacement: str, table: str = "frames"):
    """Replace one phrase of locales/fr.yaml (in ``table``), then validate the creature."""
    path = project.root / "locales" / "fr.yaml"
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    start = lines.index(f"{table}:")
    line = next(ln for ln in lines[start:] if ln.startswith(f"  {frame}: "))
    path.write_text(source.replace(line, f"  {frame}: \"{replacement}\""), encoding="utf-8")
    project("red.yaml", CREATURE)
    code, report = run(project.root)
    return code, [f for f in report["findings"] if f["rule"] == "printed-layout"]


def test_a_demise_frame_without_its_mark_reads_as_part_of_the_activation(project):
    code, hits = _locale_case(project, "demise", "**Trépas** : {effect}")
    assert code == 1 and len(hits) == 1, hits
    assert hits[0]["message"].startswith("in `fr`")
    assert "reads as part of the ⟳ activation above it, but the engine resolves it as a Demise line" in hits[0]["message"]
    assert hits[0]["line"] == _line_of(project, CREATURE, "demise:") + 1  # the Demise section's first line
    assert "locales/fr.yaml" in hits[0]["hint"] and "frames.demise" in hits[0]["hint"]


def test_an_activate_frame_without_its_mark_reads_as_a_played_effect(project):
    code, hits = _locale_case(project, "activate", "{effect}")
    assert code == 1 and hits, hits
    assert "reads as an effect of the card as it is played, but the engine resolves it as the start of a ⟳ " \
           "activation" in hits[0]["message"]
    assert hits[0]["line"] == _line_of(project, CREATURE, "- wound: 2")


def test_a_phrase_that_carries_the_activation_mark(project):
    code, hits = _locale_case(project, "poison", "[[activate]] **Poison** {n}", "phrases")
    assert not hits  # no card here poisons: the phrase is never printed
    project("red.yaml", CREATURE.replace("    demise:\n      - draw: 1\n", "    demise:\n      - poison: 1\n"))
    code, report = run(project.root)
    hits = [f for f in report["findings"] if f["rule"] == "printed-layout"]
    assert code == 1 and len(hits) == 1 and "carries the ⟳ mark" in hits[0]["message"], hits


def test_the_shipped_game_reads_as_it_plays():
    report = validate(REPO, extra=False)
    assert not [f.render() for f in report.findings if f.rule == "printed-layout"]
