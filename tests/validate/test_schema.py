"""The JSON Schema: current on disk, and accepted by a standard validator on the shipped cards."""
from __future__ import annotations

import json

import yaml
from jsonschema import Draft202012Validator

from forge.carddb.schema import SCHEMA_PATH, schema_text

from ..conftest import REPO, SCHEMA_LINE


def test_written_schema_is_current():
    assert (REPO / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text(), "run `forge schema`"


def test_schema_is_valid_draft_2020_12():
    schema = json.loads(schema_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_standard_validator_accepts_every_shipped_card_file():
    validator = Draft202012Validator(json.loads((REPO / SCHEMA_PATH).read_text(encoding="utf-8")))
    files = sorted((REPO / "cards").glob("*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.startswith(SCHEMA_LINE), path
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(text))]
        assert errors == [], (path.name, errors[:3])


def test_design_document_tables_are_current():
    from forge.render.design import fill
    from forge.text.cardtext import load_phrasebooks
    from forge.checks.validate import validate

    text = (REPO / "docs" / "design.md").read_text(encoding="utf-8")
    assert fill(text, validate(REPO, extra=False).load.db, load_phrasebooks(REPO)) == text, "run `forge docs`"
