"""The schema editors read: the card files' shape (``forge.carddb.schema``) plus what ``validate`` knows.

``forge.carddb.schema.build_schema`` gives the shape the loader checks. Editors get more:
a description and examples on every field (shown on hover and offered as
completions), and the per-type rules of ``validate`` written as JSON Schema
conditions, so an editor refuses a spell with ``activate`` or an effect line with
two verbs as you type. The loader keeps the plain shape: those rules are
``validate``'s, with its own messages and hints; ``tests/validate/test_editor_schema.py``
makes each rule fail in both, so the two never drift.

Generated rather than written by hand: every description of a verb, keyword and
event comes from ``forge.carddb.vocabulary``, so a new verb documents itself.
"""
from __future__ import annotations

import copy

from .vocabulary import (
    CARD_SETS, CARD_TYPES, EVENTS, FACTIONS, KEYWORDS, LANGUAGES, SECTIONS, TIMINGS, TRAP_KINDS, VERBS,
)

LANGUAGE_NAMES = {"en": "English", "fr": "French"}

#: Field -> (description, examples). Texts say what the field is and how it prints.
CARD_FIELDS: dict[str, tuple[str, list]] = {
    "id": ("The card's identifier: lower-case words joined by dashes, unique across cards/. Never printed.",
           ["ember-drake"]),
    "type": ("What kind of card it is (rulebook, Card types): " + ", ".join(CARD_TYPES) + ".",
             ["creature"]),
    "set": ("Where the card lives: `starter` decks, the `recruit`ment deck (the default) or the `rite`s.",
            ["recruit"]),
    "factions": ("The faction(s) it belongs to; `[]` for the neutral starter Souls.", [["red"], ["white", "red"]]),
    "cost": ("Its soul cost: what it takes to buy it from the recruitment zone. Recruitment cards only.", [3]),
    "allegiance": ("The allegiance it requires to be played, per faction (1 to 6).", [{"red": 2}]),
    "copies": ("How many copies of this design are in the box.", [2]),
    "name": ("Its printed name, in every language.", [{"en": "Ember Drake", "fr": "Drake des Braises"}]),
    "flavor": ("Its flavour text, in italics under the rules, in every language.",
               [{"en": "It remembers every fire.", "fr": "Il se souvient de chaque incendie."}]),
    "art": ("Its illustration: an image in the project, or an icon composition (see docs/card-format.md).",
            ["art/ember-drake.png"]),
    "keywords": ("Creature keywords: " + "; ".join(KEYWORDS.values()), [["rush"], [{"aegis": 2}]]),
    "effects": ("The lines a Soul, spell or trap resolves when played, top to bottom.", [[{"wound": 2}]]),
    "activate": ("The creature's ⟳ ability: every line is part of the one activation.",
                 [[{"wound": 1}, {"if": {"red": 3}, "wound": 1}]]),
    "demise": ("What happens when the creature is destroyed (its Demise line, printed last).", [[{"poison": 1}]]),
    "end_of_turn": ("What happens at the end of its owner's turn (creatures and Rites).", [[{"essence": 1}]]),
    "triggers": ("\"Each time …\" abilities of creatures and Rites: an event, whose, and the lines it resolves.",
                 [[{"event": "summon", "by": "you", "effects": [{"draw": 1}]}]]),
    "trap": ("A trap's kind (none, each time, when) and the event it reacts to.",
             [{"kind": "when", "event": "summon"}, {"kind": "none"}]),
}
FACTION_FIELDS: dict[str, tuple[str, list]] = {
    "id": ("The faction's identifier.", ["red"]),
    "name": ("Its printed name, in every language.", [{"en": "The Ember Host", "fr": "L'Ost des Braises"}]),
    "color": ("Its frame colour, as #rrggbb.", ["#b3261e"]),
    "icon": ("Its icon: a game-icons.net name vendored in forge/assets/icons/.", ["flame"]),
    "identity": ("One line on how it plays, in every language.",
                 [{"en": "Wound, Rush, burn.", "fr": "Blessures, Ruée, brûlure."}]),
}
LINE_MODIFIERS: dict[str, tuple[str, list]] = {
    "if": ("Threshold: the line applies only with at least this much allegiance in one faction.", [{"red": 3}]),
    "may": ("Optional: printed \"you may …\"; the player chooses.", [True]),
    "timing": ("When a line resolves: " + ", ".join(TIMINGS) + ".", ["immediately"]),
    "text": ("A hand-written wording of this line, per language; checked against what the line does.",
             [{"en": "Wound 2.", "fr": "Blessures 2."}]),
}
TRIGGER_FIELDS: dict[str, tuple[str, list]] = {
    "event": ("The event: " + "; ".join(f"{k}: {v}" for k, v in EVENTS.items()) + ".", ["summon"]),
    "by": ("Whose event it is: `you` or the `opponent`.", ["you"]),
    "effects": ("The lines resolved each time.", [[{"draw": 1}]]),
}
TRAP_FIELDS: dict[str, tuple[str, list]] = {
    "kind": ("The trap's kind: " + ", ".join(TRAP_KINDS) + " (rulebook, Traps).", ["each_time"]),
    "event": ("The event a `each_time` or `when` trap reacts to.", ["destroy"]),
}


def _describe(properties: dict, table: dict[str, tuple[str, list]]) -> None:
    for name, (description, examples) in table.items():
        if name in properties and isinstance(properties[name], dict):
            properties[name]["description"] = description
            properties[name]["examples"] = examples


def _describe_verbs(line: dict) -> None:
    for name, verb in VERBS.items():
        entry = line["properties"].get(name)
        if not isinstance(entry, dict):
            continue
        entry["description"] = verb.summary
        if verb.params:
            main = next(p for p in verb.params if p.name == verb.main)
            value = main.minimum if main.kind == "int" else (main.choices[0] if main.choices else True)
            entry["examples"] = [value]
            for branch in entry.get("anyOf", []):
                for pname, pschema in branch.get("properties", {}).items():
                    pschema.setdefault("description", f"`{pname}` of {name}")
        else:
            entry["examples"] = [True]


def _describe_maps(node) -> None:
    """The entries of per-faction maps (allegiance, thresholds) and per-language texts, wherever they are."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                if not isinstance(sub, dict) or "description" in sub:
                    continue
                if key in FACTIONS and set(props) <= set(FACTIONS):
                    sub["description"] = f"In {key}: 1 to 6."
                elif key in LANGUAGES and set(props) <= set(LANGUAGES):
                    sub["description"] = f"In {LANGUAGE_NAMES.get(key, key)}."
        for value in node.values():
            _describe_maps(value)
    elif isinstance(node, list):
        for value in node:
            _describe_maps(value)


def _not(*fields: str) -> dict:
    return {"properties": {f: False for f in fields}}


def _when(condition: dict, then: dict) -> dict:
    return {"if": condition, "then": then}


def _type_is(*types: str) -> dict:
    return {"properties": {"type": {"enum": list(types)}}, "required": ["type"]}


def card_rules() -> list[dict]:
    """validate's per-type rules (``_card_form``, ``_set_form``) as JSON Schema conditions."""
    rules = []
    for card_type in CARD_TYPES:
        banned = [s for s, types in SECTIONS.items() if card_type not in types]
        if card_type not in ("creature", "rite"):
            banned.append("triggers")
        if card_type != "creature":
            banned.append("keywords")
        if card_type != "trap":
            banned.append("trap")
        rules.append(_when(_type_is(card_type), _not(*banned)))
    rules.append(_when(_type_is("trap"), {"required": ["trap", "effects"]}))
    rules.append(_when(_type_is("soul", "spell"), {"required": ["effects"]}))
    rules.append(_when(_type_is("soul"), {"properties": {"effects": {"contains": {"required": ["essence"]}}}}))
    rules.append(_when(_type_is("rite"), {"required": ["set"], "properties": {
        "set": {"const": "rite"}, "factions": {"minItems": 1, "maxItems": 1}, "allegiance": False}}))
    rules.append(_when({"properties": {"set": {"const": "rite"}}, "required": ["set"]}, _type_is("rite")))
    recruit = {"anyOf": [{"not": {"required": ["set"]}}, {"properties": {"set": {"const": "recruit"}}}]}
    rules.append(_when(recruit, {"required": ["cost"]}))
    rules.append(_when({"not": recruit}, _not("cost")))
    return rules


def trap_rules() -> list[dict]:
    none = {"properties": {"kind": {"const": "none"}}, "required": ["kind"]}
    return [_when(none, _not("event")), _when({"not": none}, {"required": ["event"]})]


def for_editors(schema: dict) -> dict:
    """``schema`` (the loader's) with descriptions, examples and validate's rules added."""
    out = copy.deepcopy(schema)
    defs = out["$defs"]
    card, faction, line = defs["card"], defs["faction"], defs["effectLine"]
    _describe(card["properties"], CARD_FIELDS)
    _describe(faction["properties"], FACTION_FIELDS)
    _describe(line["properties"], LINE_MODIFIERS)
    _describe_verbs(line)
    trigger = card["properties"]["triggers"]["items"]
    _describe(trigger["properties"], TRIGGER_FIELDS)
    trap = card["properties"]["trap"]
    _describe(trap["properties"], TRAP_FIELDS)
    trap["allOf"] = trap_rules()
    card["allOf"] = card_rules()
    # exactly one verb on a line: each verb's `required` matches when present; oneOf wants exactly one
    line["oneOf"] = [{"required": [name]} for name in VERBS]
    line["description"] = "One printed line: exactly one verb (its value: how much), plus optional modifiers."
    _describe_maps(out)
    out["properties"]["factions"]["description"] = "The factions this file defines (usually cards/factions.yaml)."
    out["properties"]["cards"]["description"] = "The cards this file holds, one list item per card design."
    out["description"] = ("A card file of cards/ for forge: factions and/or cards. Hover a field for what it "
                          "means; the editor refuses what `forge validate` refuses about a card's form.")
    return out


__all__ = ["for_editors", "card_rules", "CARD_SETS"]
