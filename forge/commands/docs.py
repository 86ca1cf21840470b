"""``forge docs``: regenerate the tables of docs/design.md from the cards."""
from __future__ import annotations

from pathlib import Path

import typer

from .. import atomic
from ..design import fill
from ..findings import exit_status
from ..text import PhraseError, load_phrasebooks
from ..validate import validate
from .common import Format, FormatOption, RootOption, check_root, emit_json, render_findings

DESIGN_DOC = "docs/design.md"


def docs(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    check: bool = typer.Option(False, "--check", help="Only check that the generated tables are current."),
) -> None:
    """Fill the generated tables of docs/design.md (factions, curve, keywords, traps, Rites)."""
    check_root(root)
    report = validate(root, extra=False)
    status = exit_status(report.findings, report.io_error)
    path = root / DESIGN_DOC
    if status or not path.is_file():
        message = render_findings([f for f in report.findings if f.severity == "error"]) or f"{DESIGN_DOC}: missing"
        typer.echo(message, err=True)
        raise typer.Exit(status or 2)
    try:
        current = path.read_text(encoding="utf-8")
        updated = fill(current, report.load.db, load_phrasebooks(root))
    except (OSError, PhraseError) as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(2)
    stale = updated != current
    if stale and not check:
        atomic.write_text(path, updated)
    if format is Format.json:
        emit_json({"path": DESIGN_DOC, "stale": stale, "written": stale and not check})
    else:
        state = ("out of date; run `forge docs`" if check else "tables regenerated") if stale else "up to date"
        typer.echo(f"{DESIGN_DOC}: {state}")
    raise typer.Exit(1 if (check and stale) else 0)
