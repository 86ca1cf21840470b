"""``forge docs``: regenerate the tables of docs/design.md from the cards."""
from __future__ import annotations

from pathlib import Path

import typer

from ..core import safeio
from ..core.findings import EXIT_USAGE, exit_status
from .common import Format, FormatOption, RootOption, check_root, publish_generated, render_findings


def docs(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    check: bool = typer.Option(False, "--check", help="Only check that the generated tables are current."),
) -> None:
    """Fill the generated tables of docs/design.md (factions, curve, keywords, traps, Rites).

    Example: forge docs --check
    """
    check_root(root)
    from ..render.design import DESIGN_DOC, fill  # lazy: loads forge.carddb, forge.render ... only when needed
    from ..checks.validate import validate  # lazy: loads yaml, forge.carddb ... only when needed

    report = validate(root, extra=False)
    status = exit_status(report.findings, report.io_error)
    if status:
        typer.echo(render_findings([f for f in report.findings if f.severity == "error"]), err=True)
        raise typer.Exit(status)
    path = root / DESIGN_DOC
    try:
        current = safeio.read_text(path, root)
    except safeio.UnsafeInput as exc:  # missing, unreadable, not an ordinary file, a link leaving the project
        typer.echo(f"forge: error: {DESIGN_DOC}: {exc.message}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except UnicodeDecodeError:
        typer.echo(f"forge: error: {DESIGN_DOC}: the file is not UTF-8; save it as UTF-8", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    publish_generated(root, DESIGN_DOC, fill(current, report.load.db, report.books), check, format, "docs")
