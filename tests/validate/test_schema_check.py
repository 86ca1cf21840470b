"""The compiled schema check (forge/carddb/schemacheck.py) says "valid" exactly when jsonschema finds no error.

``database.check_schema`` trusts it for valid files and asks jsonschema only for the others, so one
"valid" that jsonschema would refuse would lose findings: the verdicts are compared on the shipped
files and on thousands of mutated cards (issue 9, Fast to start).
"""
from __future__ import annotations

import copy
import datetime
import os
import subprocess
import sys

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from forge.carddb import database, schemacheck
from forge.carddb.schema import build_schema
from forge.carddb.yamlsrc import load as load_yaml

from ..conftest import REPO
from .test_fuzz import places

CHECK = schemacheck.compile_schema(build_schema())
FILES = sorted((REPO / "cards").glob("*.yaml"))
DOCS = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in FILES]


def jsonschema_says(data) -> bool:
    return not any(database._validator().iter_errors(data))


def agrees(data) -> None:
    verdict = schemacheck.is_valid(CHECK, data)
    if verdict is not None:  # None: the check leaves this value to jsonschema
        assert verdict == jsonschema_says(data), data


def test_the_shipped_files_are_valid_for_both():
    for data in DOCS:
        assert schemacheck.is_valid(CHECK, data) is True and jsonschema_says(data)


@pytest.mark.parametrize("value", [True, 2.0, -1, 21, "3", None, [3], float("nan"), 10**40, datetime.date(2024, 1, 1)])
def test_the_values_json_schema_and_python_see_differently(value):
    """A bool is no integer, 2.0 is no integer for forge, NaN passes minimum and maximum as in jsonschema."""
    card = copy.deepcopy(DOCS[FILES.index(REPO / "cards" / "red.yaml")]["cards"][0])
    for field in ("copies", "cost", "id", "type", "flavor", "name"):
        mutated = dict(card, **{field: value})
        agrees({"cards": [mutated]})
    agrees({"cards": [dict(card, activate=[{"draw": value}])]})  # anyOf of `true`, null and a mapping
    agrees({"cards": [dict(card, factions=["red", value])]})


def test_a_list_it_cannot_judge_exactly_is_left_to_jsonschema():
    """jsonschema tells 1 from True in uniqueItems: lists of non-texts (none in forge's schema) are its to judge."""
    unique = schemacheck.compile_schema({"type": "array", "uniqueItems": True})
    assert schemacheck.is_valid(unique, [1, True]) is None
    assert schemacheck.is_valid(unique, ["a", "b"]) is True and schemacheck.is_valid(unique, ["a", "a"]) is False


def test_a_schema_with_a_keyword_it_does_not_know_is_not_compiled():
    for schema in ({"type": "object", "patternProperties": {"^a": {}}}, {"format": "date"},
                   {"enum": [1, True]}, {"$ref": "https://example.com/other.json"}):
        with pytest.raises(schemacheck.Unsupported):
            schemacheck.compile_schema(schema)


def test_a_file_that_fails_gets_jsonschemas_findings(monkeypatch):
    """With and without the compiled check, the same findings; jsonschema is asked only when a file fails."""
    text = (REPO / "cards" / "red.yaml").read_text(encoding="utf-8")
    broken = text.replace("type: creature", "type: creatur", 1).replace("cost: 4", "cost: 4.0", 1)
    data, source = load_yaml(broken)
    found = database.check_schema("cards/red.yaml", data, source)
    assert found[0] and found[1]
    monkeypatch.setattr(database, "_compiled", lambda: None)
    assert database.check_schema("cards/red.yaml", data, source) == found


def test_a_valid_project_is_validated_without_importing_jsonschema():
    code = ("import sys; from forge.checks.validate import validate; r = validate(sys.argv[1], extra=False); "
            "print(len(r.findings), 'jsonschema' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code, str(REPO)], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "False"]


# -- thousands of mutated cards ---------------------------------------------------------------------
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 25), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
    st.sampled_from(["", "red", "blue", "creature", "spell", "recruit", "each_time", "summon", "immediately",
                     "cover", "a-b", "A B", "x" * 200, "wound", "2"]),
    st.dates(), st.lists(st.sampled_from(["red", "black", "red", 1]), max_size=3),
    st.dictionaries(st.sampled_from(["en", "fr", "de", "red", "kind", "event", "icon", "image", 1]),
                    st.one_of(st.text(max_size=3), st.integers(0, 3), st.none()), max_size=3),
)


@st.composite
def mutated_documents(draw):
    doc = copy.deepcopy(draw(st.sampled_from(DOCS)))
    for parent, key in places(draw, doc, draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["replace", "replace", "delete", "rename", "add"]))
        if action == "delete":
            del parent[key]
        elif action == "add" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif action == "add":
            parent[draw(st.sampled_from(["if", "may", "timing", "text", "copies", "flavor", "accents"]))] = draw(VALUES)
        elif action == "rename" and isinstance(parent, dict):
            name = draw(st.sampled_from(["effects", "activate", "triggers", "keywords", "trap", "art", "x", 1]))
            parent[name] = parent.pop(key)
        else:
            parent[key] = draw(VALUES)
    return doc


@given(mutated_documents())
def test_the_check_and_jsonschema_agree_on_mutated_cards(doc):
    agrees(doc)
