"""The JSON Schema (Draft 2020-12) of card files, generated from the vocabulary.

The schema is derived from ``forge.carddb.vocabulary`` so that adding a verb updates the
editor schema too. ``forge schema`` writes it to ``schema/cards.schema.json``
(a test checks that the committed file is current). The schema checks shape;
``forge.checks.validate`` checks meaning (counts, references, which sections a card type
may have) with messages that say how to fix them.
"""
from __future__ import annotations

import json
from functools import lru_cache

from .model import ART_FITS, ART_LAYOUTS
from .vocabulary import (
    CARD_SETS, CARD_TYPES, EVENT_ACTORS, EVENTS, FACTIONS, KEYWORDS, LANGUAGES,
    MAX_ALLEGIANCE, SECTIONS, TIMINGS, TRAP_KINDS, VERBS, Param, Verb,
)
from .editor_schema import for_editors

SCHEMA_ID = "https://riftcommanders.example/forge/cards.schema.json"
#: Where the schema is written in a project, for editors (`# yaml-language-server: $schema=…`).
SCHEMA_PATH = "schema/cards.schema.json"
ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


def _param_schema(p: Param) -> dict:
    if p.kind == "int":
        return {"type": "integer", "minimum": p.minimum, "maximum": p.maximum}
    if p.kind == "bool":
        return {"type": "boolean"}
    return {"enum": list(p.choices)}


def _verb_schema(v: Verb) -> dict:
    params = {p.name: _param_schema(p) for p in v.params}
    obj = {"type": "object", "properties": params, "additionalProperties": False}
    if not v.params:
        return {"description": v.summary, "anyOf": [{"const": True}, {"type": "null"}, obj]}
    scalar = params[v.main]
    return {"description": v.summary, "anyOf": [scalar, obj]}


def _text(min_length: int = 1) -> dict:
    return {
        "type": "object",
        "properties": {lang: {"type": "string", "minLength": min_length} for lang in LANGUAGES},
        "required": list(LANGUAGES),
        "additionalProperties": False,
    }


def _art_schema() -> dict:
    """A card's art: a picture's path, an icon composition or a picture with its crop rules."""
    icon_name = {"type": "string", "pattern": ID_PATTERN, "description": "A game-icons.net icon name."}
    unit = {"type": "number", "minimum": 0, "maximum": 1}
    return {"anyOf": [
        {"type": "string", "minLength": 1, "description": "A picture in the project: art/my-card.png."},
        {"type": "object", "description": "Icons from game-icons.net over the faction's procedural background.",
         "properties": {
             "icon": icon_name,
             "accents": {"type": "array", "items": icon_name, "maxItems": 2, "uniqueItems": True},
             "layout": {"enum": list(ART_LAYOUTS)},
             "flip": {"type": "boolean"},
         },
         "required": ["icon"], "additionalProperties": False},
        {"type": "object", "description": "A picture (PNG, JPEG, WebP or SVG) and how it is cropped.",
         "properties": {
             "image": {"type": "string", "minLength": 1},
             "focus": {"type": "array", "items": unit, "minItems": 2, "maxItems": 2},
             "fit": {"enum": list(ART_FITS)},
             "credit": {"type": "string", "minLength": 1},
         },
         "required": ["image"], "additionalProperties": False},
    ]}


def build_schema() -> dict:
    """The complete schema, as a dict ready for ``json.dumps``."""
    allegiance_map = {
        "type": "object",
        "properties": {f: {"type": "integer", "minimum": 1, "maximum": MAX_ALLEGIANCE} for f in FACTIONS},
        "additionalProperties": False,
    }
    effect_line = {
        "type": "object",
        "description": "One printed line: exactly one verb, plus optional modifiers.",
        "properties": {
            **{name: _verb_schema(v) for name, v in VERBS.items()},
            "if": {**allegiance_map, "minProperties": 1, "maxProperties": 1,
                   "description": "Threshold: the line applies only with at least this allegiance."},
            "may": {"type": "boolean", "description": "Optional effect (\"you may\")."},
            "timing": {"enum": list(TIMINGS)},
            "text": {**_text(), "description": "Hand-written wording of this line; checked against its effect."},
        },
        "additionalProperties": False,
        "minProperties": 1,
    }
    lines = {"type": "array", "items": {"$ref": "#/$defs/effectLine"}, "minItems": 1}
    card = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "type": {"enum": list(CARD_TYPES)},
            "set": {"enum": list(CARD_SETS)},
            "factions": {"type": "array", "items": {"enum": list(FACTIONS)}, "uniqueItems": True, "maxItems": 4},
            "cost": {"type": "integer", "minimum": 0, "maximum": 20},
            "allegiance": allegiance_map,
            "copies": {"type": "integer", "minimum": 1, "maximum": 20},
            "name": _text(),
            "flavor": _text(),
            "art": _art_schema(),
            "keywords": {
                "type": "array",
                "items": {"anyOf": [
                    {"enum": [k for k in KEYWORDS if k != "aegis"]},
                    {"type": "object", "properties": {"aegis": {"type": "integer", "minimum": 1,
                                                                "maximum": MAX_ALLEGIANCE}},
                     "required": ["aegis"], "additionalProperties": False},
                ]},
            },
            **{section: lines for section in SECTIONS},
            "triggers": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "properties": {"event": {"enum": list(EVENTS)}, "by": {"enum": list(EVENT_ACTORS)},
                               "effects": lines},
                "required": ["event", "by", "effects"],
                "additionalProperties": False,
            }},
            "trap": {
                "type": "object",
                "properties": {"kind": {"enum": list(TRAP_KINDS)}, "event": {"enum": list(EVENTS)}},
                "required": ["kind"],
                "additionalProperties": False,
            },
        },
        "required": ["id", "type", "factions", "name", "copies"],
        "additionalProperties": False,
    }
    faction = {
        "type": "object",
        "properties": {
            "id": {"enum": list(FACTIONS)},
            "name": _text(),
            "color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
            "icon": {"type": "string", "pattern": ID_PATTERN},
            "identity": _text(),
        },
        "required": ["id", "name", "color", "icon", "identity"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Rift Commanders card file",
        "description": "A file of cards/ for forge: factions and/or cards.",
        "type": "object",
        "properties": {
            "factions": {"type": "array", "items": {"$ref": "#/$defs/faction"}},
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        },
        "additionalProperties": False,
        "minProperties": 1,
        "$defs": {"card": card, "faction": faction, "effectLine": effect_line},
    }


@lru_cache(maxsize=1)
def schema_text() -> str:
    """The editors' schema (``forge.carddb.editor_schema``: this shape, documented, with validate's per-type
    rules) as the exact text written to disk (stable key order, final newline)."""
    return json.dumps(for_editors(build_schema()), indent=2, ensure_ascii=False) + "\n"
