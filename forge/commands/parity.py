"""``forge parity``: the French and English of everything the game prints, compared for translators."""
from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING

from ..findings import exit_status
from .common import ReportFormat, ReportFormatOption, echo_report, emit_ci, RootOption, check_root, emit_json, plural, render_findings


if TYPE_CHECKING:
    from ..parity import ParityReport


def parity(
    root: RootOption = Path("."),
    format: ReportFormatOption = ReportFormat.text,
) -> None:
    """Compare the English and French locales, cards and books: keys, placeholders, markup, typography.

    Example: forge parity --format junit > parity.xml
    """
    check_root(root)
    from ..parity import parity as run_parity

    report = run_parity(root)
    if format is ReportFormat.json:
        emit_json(to_json(report))
    elif format is not ReportFormat.text:
        from ..reports import Suite

        emit_ci(format, [Suite("parity", report.findings)], "forge parity", to_text(report).splitlines()[-1])
    else:
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
        lines.append(f"✗ {plural(s['errors'], 'error')}, {plural(s['warnings'], 'warning')} ({counts})")
    else:
        warn = f", {plural(s['warnings'], 'warning')}" if s["warnings"] else ""
        lines.append(f"✓ English and French are in parity{warn} ({counts})")
    return "\n".join(lines)
