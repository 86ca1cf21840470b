"""``forge validate``: check the card database and report every problem at once."""
from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING

from ..core.findings import exit_status
from .common import ReportFormat, ReportFormatOption, echo_report, emit_ci, is_verbose, RootOption, check_root, emit_json, plural, render_findings


if TYPE_CHECKING:
    from ..checks.validate import Report


def validate(
    root: RootOption = Path("."),
    format: ReportFormatOption = ReportFormat.text,
    quick: bool = typer.Option(False, "--quick", help="Skip the engine's card proofs and the text-fit layout check."),
) -> None:
    """Check cards/ against the schema, the rulebook and the rules engine.

    Example: forge validate --quick --format github
    """
    check_root(root)
    from ..checks.validate import validate as run_validation  # lazy: loads yaml, forge.carddb ... only when needed

    report = run_validation(root, extra=not quick)
    if format is ReportFormat.json:
        emit_json(to_json(report))
    elif format is not ReportFormat.text:
        from ..core.reports import Suite  # lazy: keeps forge.core.reports out of forge's start-up

        emit_ci(format, [Suite("validate", report.findings)], "forge validate", to_text(report).splitlines()[-1], root)
    else:
        if is_verbose():
            typer.echo("\n".join(f"  {name:<12} {seconds * 1000:7.1f} ms" for name, seconds in report.seconds.items()),
                       err=True)
        echo_report(to_text(report))
    raise typer.Exit(exit_status(report.findings, report.io_error))


def to_json(report: Report) -> dict:
    return {
        "ok": not any(f.severity == "error" for f in report.findings) and not report.io_error,
        "findings": [f.to_json() for f in report.findings],
        "summary": report.summary(),
    }


SKIPPED_NAMES = {"counts": "the rulebook's counts", "card_proofs": "the engine's proofs of every card"}


def to_text(report: Report) -> str:
    s = report.summary()
    lines = [render_findings(report.findings)] if report.findings else []
    counts = (f"{plural(s['card_designs'], 'card design')}, {s['physical_cards']} physical cards, "
              f"{s['recruitment_cards']} recruitment cards, in {plural(s['files'], 'file')}")
    if s["skipped"]:
        what = ", ".join(SKIPPED_NAMES.get(name, name) for name in s["skipped"])
        lines.append(f"– not checked until every card file loads: {what}")
    if s["errors"]:
        lines.append(f"✗ {plural(s['errors'], 'error')}, {plural(s['warnings'], 'warning')} ({counts})")
    else:
        warn = f", {plural(s['warnings'], 'warning')}" if s["warnings"] else ""
        lines.append(f"✓ the card database is valid{warn} ({counts})")
    return "\n".join(lines)
