"""Semantic checks: well-formed cards that break the rulebook's rules of form or counts."""
from __future__ import annotations

import pytest
import yaml

from forge.render.design import construct_counts
from forge.checks.validate import validate

from ..conftest import REPO
from .helpers import CREATURE, run

SPELL = """\
cards:
  - id: flame-lash
    type: spell
    factions: [red]
    cost: 2
    allegiance: {red: 1}
    copies: 2
    name: {en: Flame Lash, fr: Fouet de Flammes}
    effects:
      - wound: 2
"""

# (card file text, rule expected, a phrase of the message)
NEGATIVE = {
    "keyword on a spell": (SPELL.replace("    effects:", "    keywords: [rush]\n    effects:"), "keyword",
                           "keywords only go on creatures"),
    "activate on a spell": (SPELL.replace("    effects:", "    activate:\n      - draw: 1\n    effects:"), "section",
                            "a spell cannot have `activate` lines"),
    "demise on a spell": (SPELL + "    demise:\n      - draw: 1\n", "section", "cannot have `demise`"),
    "sacrifice in a demise": (CREATURE + "    demise:\n      - sacrifice: 1\n", "cost", "is a cost"),
    "conditional sacrifice": (SPELL.replace("      - wound: 2", "      - if: {red: 2}\n        sacrifice: 1"), "cost",
                              "cannot be conditional"),
    "trap without kind": (SPELL.replace("type: spell", "type: trap"), "trap", "must declare its kind"),
    "when trap without event": (SPELL.replace("type: spell", "type: trap").replace(
        "    effects:", "    trap: {kind: when}\n    effects:"), "trap", "needs the event"),
    "trap kind none with event": (SPELL.replace("type: spell", "type: trap").replace(
        "    effects:", "    trap: {kind: none, event: summon}\n    effects:"), "trap", "reacts to no event"),
    "trap spec on a spell": (SPELL.replace("    effects:", "    trap: {kind: none}\n    effects:"), "trap",
                             "only traps have"),
    "recruit card without cost": (SPELL.replace("    cost: 2\n", ""), "cost", "needs a soul cost"),
    "starter card with cost": (SPELL.replace("    cost: 2\n", "    set: starter\n    cost: 2\n"), "cost", "never bought"),
    "two verbs on one line": (SPELL.replace("      - wound: 2", "      - wound: 2\n        draw: 1"), "verb",
                              "several verbs"),
    "line without verb": (SPELL.replace("      - wound: 2", "      - may: true"), "verb", "has no verb"),
    "allegiance outside the card's factions": (SPELL.replace("allegiance: {red: 1}", "allegiance: {red: 1, blue: 2}"),
                                               "allegiance", "blue is not among the card's factions"),
    "immediately on a spell line": (SPELL.replace("      - wound: 2", "      - timing: immediately\n        wound: 2"),
                                    "timing", "only changes a triggered line"),
    "after_effects on a demise": (CREATURE + "    demise:\n      - timing: after_effects\n        draw: 1\n", "timing",
                                  "applies to a line of a played card"),
    "that-target without event": (SPELL.replace("      - wound: 2", "      - destroy: {target: that}"), "target",
                                  "needs an event about a creature"),
    "soul without essence": (SPELL.replace("type: spell", "type: soul"), "soul", "must give essence"),
    "duplicate id": (SPELL + SPELL.replace("cards:\n", ""), "duplicate-id", "is already used"),
    "rite with a cost": (SPELL.replace("type: spell", "type: rite").replace("    copies: 2", "    set: rite\n    copies: 1"),
                         "cost", "never bought"),
    "blank French name": (SPELL.replace("fr: Fouet de Flammes", "fr: ' '"), "language", "blank in `fr`"),
    "wording that changes a number": (SPELL.replace("      - wound: 2", "      - wound: 2\n        text: {en: '**Wound** 3', fr: '**Blessures** 2'}"),
                                      "wording", "the `en` wording drops the number 2, adds the number 3"),
}


@pytest.mark.parametrize("case", sorted(NEGATIVE))
def test_rule_of_form_is_reported(project, case):
    text, rule, phrase = NEGATIVE[case]
    project("red.yaml", text)
    code, report = run(project.root)
    hits = [f for f in report["findings"] if f["rule"] == rule and phrase in f["message"]]
    assert hits, report["findings"]
    assert hits[0]["file"] == "cards/red.yaml" and hits[0]["line"] > 0
    assert hits[0]["hint"]
    assert code == 1


def test_the_shipped_game_is_valid():
    report = validate(REPO, extra=False)
    errors = [f.render() for f in report.findings if f.severity == "error"]
    assert errors == []


def test_json_summary_counts_the_shipped_game():
    code, report = run(REPO)
    s = report["summary"]
    assert code == 0 and report["ok"] is True
    assert s["recruitment_cards"] == 80
    assert s["recruitment_by_type"]["trap"] == 8
    assert s["by_type"]["rite"] == 4
    assert sum(s["by_faction"].values()) == s["physical_cards"]
    # 4 starter decks of 10 cards, 80 recruitment cards, 4 Rites
    assert s["physical_cards"] == 4 * 10 + 80 + 4


def _untrap(card: dict) -> None:
    card["type"] = "spell"
    del card["trap"]


@pytest.mark.parametrize("mutation, phrase", [
    (lambda cards: cards[0].update(copies=cards[0]["copies"] + 1), "81 recruitment cards"),
    (lambda cards: _untrap(next(c for c in cards if c["type"] == "trap")), "7 traps among the recruitment cards"),
])
def test_rulebook_counts_are_checked(shipped, mutation, phrase):
    path = shipped / "cards" / "red.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    recruit = [c for c in data["cards"] if c.get("set", "recruit") == "recruit"]
    mutation(recruit)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, report = run(shipped)
    assert any(phrase in f["message"] for f in report["findings"] if f["rule"] == "count"), report["findings"]
    assert code == 1


def test_missing_starter_card_and_rite_are_reported(shipped):
    for name, key in (("starter.yaml", "volatile-essence"), ("rites.yaml", "rite-of-the-blaze")):
        path = shipped / "cards" / name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["cards"] = [c for c in data["cards"] if c["id"] != key]
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _, report = run(shipped)
    messages = [f["message"] for f in report["findings"]]
    assert "the starter card `volatile-essence` is missing" in messages
    assert "3 Rites; the rulebook has 4, one per faction" in messages
    assert "no Rite for red" in messages
    assert "the red starter deck has 8 cards; it must have 10" in messages


REQUIRED_CONSTRUCTS = ["`wound`", "`unblockable_wound`", "`poison`", "`destroy`", "`sacrifice`", "`discard`",
                       "`exile`", "`rift`", "`allegiance`", "Guard", "Aegis", "Rush", "Demise",
                       "conditional line (threshold)", "you may", "up to X", "Soul icons on a faction card",
                       "end of your turn", "immediately", "after its effects", "two or more allegiances"]


def test_every_rules_construct_is_used_by_a_shipped_card():
    counts = construct_counts(validate(REPO, extra=False).load.db)
    unused = [name for name in REQUIRED_CONSTRUCTS if counts[name][0] == 0]
    assert unused == []
