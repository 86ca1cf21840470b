"""``forge cards export`` and ``forge cards import``: the card database in and out of spreadsheets."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..core.findings import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from .common import (Format, FormatOption, RootOption, check_root, echo_report, emit_json, fail, inside_project,
                     plural, render_findings)
from ..core import atomic

app = typer.Typer(name="cards", help="The card database in and out of spreadsheets (CSV, XLSX).",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@app.callback()
def cards() -> None:
    """The card database in and out of spreadsheets (CSV, XLSX)."""


class SheetFormat(str, Enum):
    csv = "csv"
    xlsx = "xlsx"


@app.command("export")
def export(
    root: RootOption = Path("."),
    format: SheetFormat = typer.Option(SheetFormat.csv, "--format", help="csv or xlsx."),
    out: Optional[Path] = typer.Option(None, "--out", help="The sheet to write (default: ROOT/output/cards.csv or "
                                                             ".xlsx); `-` writes CSV to standard output."),
) -> None:
    """Write every card as one row of a sheet, effects one line per effect line.

    Example: forge cards export --format xlsx --out cards.xlsx
    """
    check_root(root)
    from ..spreadsheet.exchange import export_cards  # lazy: loads yaml, forge.carddb ... only when needed

    exported = export_cards(root, format.value)
    if exported.findings:
        typer.echo(render_findings(exported.findings), err=True)
        typer.echo("forge: error: the card files do not load; fix them (forge validate) before exporting", err=True)
        raise typer.Exit(EXIT_FINDINGS)
    if out is not None and str(out) == "-":
        if format is not SheetFormat.csv:
            fail("an XLSX workbook is not written to standard output; name a file with --out")
        typer.echo(exported.data.decode("utf-8-sig"), nl=False)
        raise typer.Exit(EXIT_CLEAN)
    target = out if out is not None else inside_project(root / "output", root) / f"cards.{format.value}"
    try:
        atomic.write_bytes(target, exported.data)
    except OSError as exc:
        fail(atomic.describe(exc))
    typer.echo(f"{target}: {plural(exported.cards, 'card')} exported", err=True)


@app.command("import")
def import_(
    sheet: Path = typer.Argument(..., help="The CSV or XLSX sheet to read."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would change; write nothing."),
) -> None:
    """Write the sheet's new and changed cards into their card files, comments and order kept.

    Every problem is reported at the sheet's row and column, and then nothing is written.
    Example: forge cards import cards.xlsx --dry-run
    """
    check_root(root)
    from ..spreadsheet.exchange import import_cards  # lazy: loads yaml, forge.carddb ... only when needed

    result = import_cards(root, sheet, dry_run=dry_run)
    status = EXIT_USAGE if result.io_error else EXIT_CLEAN if result.ok else EXIT_FINDINGS
    if format is Format.json:
        emit_json({"ok": result.ok, "dry_run": dry_run, "changed": result.changed, "added": result.added,
                   "unchanged": result.unchanged, "not_in_sheet": result.not_in_sheet, "files": result.files,
                   "findings": [f.to_json() for f in result.findings]})
        raise typer.Exit(status)
    lines = [render_findings(result.findings)] if result.findings else []
    if result.ok:
        verb = "would change" if dry_run else "changed"
        lines.append(f"✓ {result.sheet}: {len(result.changed)} {verb}, {len(result.added)} "
                     f"{'would be added' if dry_run else 'added'}, {result.unchanged} unchanged"
                     + (f" ({', '.join(result.files)})" if result.files else "")
                     + (f"; {plural(result.not_in_sheet, 'card')} of cards/ not in the sheet, left as they are"
                        if result.not_in_sheet else ""))
        if result.files and not dry_run:
            lines.append("  next: forge validate")
    else:
        lines.append(f"✗ {result.sheet}: nothing written")
    echo_report("\n".join(lines))
    raise typer.Exit(status)
