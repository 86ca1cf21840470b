"""``forge schema``: write the card-file JSON Schema where editors find it."""
from __future__ import annotations

from pathlib import Path

import typer

from .common import Format, FormatOption, RootOption, check_root, publish_generated


def schema(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    check: bool = typer.Option(False, "--check", help="Only check that the written schema is current."),
) -> None:
    """Write schema/cards.schema.json (the schema every card file names on its first line).

    Example: forge schema --check
    """
    check_root(root)
    from ..carddb.schema import SCHEMA_PATH, schema_text  # lazy: loads forge.carddb only when needed

    publish_generated(root, SCHEMA_PATH, schema_text(), check, format, "schema")
