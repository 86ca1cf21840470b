"""``forge parity``: the French and English of everything translated, compared for translators."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..core.findings import exit_status
from .common import ReportFormat, ReportFormatOption, RootOption, check_root, echo_report, emit_ci, emit_json, plural, render_findings

if TYPE_CHECKING:
    from ..i18n.parity import ParityReport


def parity(
    root: RootOption = Path("."),
    format: ReportFormatOption = ReportFormat.text,
    fix: bool = typer.Option(False, "--fix", help="Correct the typography (spaces, no-break spaces, apostrophes) "
                             "in place, keeping comments and layout, then report what is left."),
) -> None:
    """Compare English and French: keys, numbers, placeholders, markup, terms, plurals, typography, structure, fit.

    Example: forge parity --fix
    """
    check_root(root)
    from ..i18n.parity import parity as run_parity  # lazy: loads markdown_it, yaml ... only when needed

    report = run_parity(root)
    fixed = {}
    if fix and report.fixes:
        from ..carddb.yamledit import fix_files  # lazy: loads yaml, forge.carddb only when needed

        fixed = fix_files(root, report.fixes)
        report = run_parity(root)
    if format is ReportFormat.json:
        emit_json({**to_json(report), "fixed": fixed})
    elif format is not ReportFormat.text:
        from ..core.reports import Suite  # lazy: keeps forge.core.reports out of forge's start-up

        emit_ci(format, [Suite("parity", report.findings)], "forge parity", to_text(report).splitlines()[-1], root)
    else:
        for rel, n in fixed.items():
            echo_report(f"fixed {plural(n, 'typography problem')} in {rel}")
        echo_report(to_text(report))
    raise typer.Exit(exit_status(report.findings, report.io_error))


def to_json(report: ParityReport) -> dict:
    return {
        "ok": not any(f.severity == "error" for f in report.findings) and not report.io_error,
        "findings": [f.to_json() for f in report.findings],
        "summary": report.summary(),
    }


def to_text(report: ParityReport) -> str:
    s = report.summary()
    lines = [render_findings(report.findings)] if report.findings else []
    counts = f"{s['strings']['en']} English and {s['strings']['fr']} French strings checked"
    if s["errors"]:
        fixable = f"; `forge parity --fix` corrects {s['fixable']}" if s["fixable"] else ""
        lines.append(f"✗ {plural(s['errors'], 'error')}, {plural(s['warnings'], 'warning')} ({counts}){fixable}")
    else:
        warn = f", {plural(s['warnings'], 'warning')}" if s["warnings"] else ""
        lines.append(f"✓ English and French are in parity{warn} ({counts})")
    return "\n".join(lines)
