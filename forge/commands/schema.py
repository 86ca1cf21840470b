"""``forge schema``: write the card-file JSON Schema where editors find it."""
from __future__ import annotations

from pathlib import Path

import typer

from .. import atomic
from ..schema import SCHEMA_PATH, schema_text
from .common import Format, FormatOption, RootOption, check_root, emit_json


def schema(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    check: bool = typer.Option(False, "--check", help="Only check that the written schema is current."),
) -> None:
    """Write schema/cards.schema.json (the schema every card file names on its first line)."""
    check_root(root)
    path = root / SCHEMA_PATH
    current = path.read_text(encoding="utf-8") if path.is_file() else None
    stale = current != schema_text()
    if not check and stale:
        atomic.write_text(path, schema_text())
    if format is Format.json:
        emit_json({"path": SCHEMA_PATH, "stale": stale, "written": stale and not check})
    elif check:
        typer.echo(f"{SCHEMA_PATH}: {'out of date; run `forge schema`' if stale else 'up to date'}")
    else:
        typer.echo(f"{SCHEMA_PATH}: {'written' if stale else 'already up to date'}")
    raise typer.Exit(1 if (check and stale) else 0)
