"""Editors know what validate knows (issue 9 §4): the written schema documents every field and refuses,
as you type, each card form `forge validate` refuses; on the shipped game it refuses nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from forge.carddb import yamlsrc
from forge.carddb.schema import SCHEMA_PATH, build_schema, schema_text
from forge.checks.validate import validate

REPO = Path(__file__).resolve().parents[2]
EDITOR = json.loads(schema_text())
CHECK = Draft202012Validator(EDITOR)


def test_the_written_schema_is_the_editor_schema_and_a_valid_json_schema():
    assert (REPO / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text()
    Draft202012Validator.check_schema(EDITOR)


def _properties(node, path=()):
    """Every named property of the schema, with its path."""
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict):
                yield path + (name,), sub
        for key, sub in node.items():
            if key != "properties":
                yield from _properties(sub, path + (key,))
            else:
                for name, inner in sub.items():
                    yield from _properties(inner, path + (name,))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, path + (i,))


def test_every_field_has_a_description():
    missing = [path for path, sub in _properties(EDITOR) if "description" not in sub and "allOf" not in path
               and "$ref" not in sub and not any(isinstance(p, int) for p in path[-2:])]
    assert missing == []


def test_every_example_is_valid_for_its_own_field():
    checked = 0
    for path, sub in _properties(EDITOR):
        for example in sub.get("examples", []):
            schema = {**sub, "$defs": EDITOR["$defs"]}
            assert Draft202012Validator(schema).is_valid(example), (path, example)
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("path", sorted((REPO / "cards").glob("*.yaml")), ids=lambda p: p.name)
def test_the_shipped_card_files_are_valid_for_editors(path):
    data, _ = yamlsrc.load(path.read_text(encoding="utf-8"))
    assert [e.message for e in CHECK.iter_errors(data)] == []


CREATURE = {"id": "probe", "type": "creature", "factions": ["red"], "cost": 2, "allegiance": {"red": 1},
            "copies": 1, "name": {"en": "Probe", "fr": "Sonde"}, "activate": [{"wound": 1}]}
SPELL = {"id": "probe", "type": "spell", "factions": ["red"], "cost": 2, "copies": 1,
         "name": {"en": "Probe", "fr": "Sonde"}, "effects": [{"wound": 1}]}
RITE = {"id": "probe", "type": "rite", "set": "rite", "factions": ["red"], "copies": 1,
        "name": {"en": "Probe", "fr": "Sonde"}, "end_of_turn": [{"essence": 1}]}

#: A card validate refuses for its form, and the rule it reports: one per rule the schema encodes.
REFUSED = {
    "a spell with an activation": ({**SPELL, "activate": [{"wound": 1}]}, "section"),
    "a spell with keywords": ({**SPELL, "keywords": ["rush"]}, "keyword"),
    "a spell with triggers": ({**SPELL, "triggers": [{"event": "summon", "by": "you", "effects": [{"draw": 1}]}]},
                              "section"),
    "a creature with effects": ({**CREATURE, "effects": [{"wound": 1}]}, "section"),
    "a creature with a trap": ({**CREATURE, "trap": {"kind": "none"}}, "trap"),
    "a trap without its kind": ({**SPELL, "type": "trap"}, "trap"),
    "a `when` trap without its event": ({**SPELL, "type": "trap", "trap": {"kind": "when"}}, "trap"),
    "a trap without trigger that names an event": (
        {**SPELL, "type": "trap", "trap": {"kind": "none", "event": "summon"}}, "trap"),
    "a spell without effects": ({k: v for k, v in SPELL.items() if k != "effects"}, "section"),
    "a Soul that gives no essence": ({**SPELL, "type": "soul", "set": "starter", "factions": [],
                                      "effects": [{"draw": 1}]} | {"cost": None}, "soul"),
    "a recruitment card without cost": ({k: v for k, v in SPELL.items() if k != "cost"}, "cost"),
    "a starter card with a cost": ({**CREATURE, "set": "starter"}, "cost"),
    "a Rite outside the rite set": ({**RITE, "set": "recruit", "cost": 1}, "set"),
    "a rite-set card that is not a Rite": ({**SPELL, "set": "rite", "cost": None}, "set"),
    "a Rite of two factions": ({**RITE, "factions": ["red", "white"]}, "rite"),
    "a Rite with an allegiance requirement": ({**RITE, "allegiance": {"red": 1}}, "rite"),
    "an effect line with two verbs": ({**SPELL, "effects": [{"wound": 1, "draw": 1}]}, "verb"),
}


def _clean(card: dict) -> dict:
    return {k: v for k, v in card.items() if v is not None}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_editor_refuses_what_validate_refuses(case, project):
    card, rule = REFUSED[case]
    card = _clean(card)
    assert not CHECK.is_valid({"cards": [card]}), f"the editor schema accepts {case}"
    project("red.yaml", "cards:\n" + "\n".join("  " + line for line in
                                              ("- " + json.dumps(card, ensure_ascii=False)).splitlines()) + "\n")
    report = validate(project.root, extra=False)
    rules = {f.rule for f in report.findings if f.severity == "error" and f.position.file == "cards/red.yaml"}
    assert rule in rules, (case, rules)


@pytest.mark.parametrize("card", [CREATURE, SPELL, RITE], ids=["creature", "spell", "rite"])
def test_the_probes_themselves_pass_both(card, project):
    """Not vacuous: the cards the cases above break are valid for the editor and for validate."""
    assert CHECK.is_valid({"cards": [card]})
    project("red.yaml", "cards:\n  - " + json.dumps(card, ensure_ascii=False) + "\n")
    report = validate(project.root, extra=False)
    assert not [f for f in report.findings if f.severity == "error" and f.position.file == "cards/red.yaml"
                and f.rule not in ("count", "starter", "faction")]


def test_the_loader_keeps_the_plain_shape():
    """The rules are validate's, with its messages: the loader's schema has none of them."""
    shape = build_schema()
    assert "allOf" not in shape["$defs"]["card"] and "oneOf" not in shape["$defs"]["effectLine"]
