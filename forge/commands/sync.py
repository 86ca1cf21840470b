"""``forge sync``: every derived file brought up to date after editing cards or prose (wiring only)."""
from __future__ import annotations

from pathlib import Path

import typer

from ..core.findings import EXIT_USAGE
from .common import Format, FormatOption, RootOption, check_root, echo_report, emit_json, plural, render_findings


def sync(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    check: bool = typer.Option(False, "--check", help="Change nothing; exit 1 if a file would change (for CI)."),
) -> None:
    """Bring every derived file up to date after editing cards: the schema, the French typography, the
    worked example, the translation fingerprints and the tables of docs/design.md.

    Example: forge sync --check
    """
    check_root(root)
    from ..pipeline.sync import sync as run_sync  # lazy: loads forge.carddb, forge.pipeline only when needed

    report = run_sync(root, write=not check)
    if format is Format.json:
        emit_json(report.to_json(not check))
    else:
        echo_report(to_text(report, check))
    if report.io_error:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(1 if not report.ok or (check and report.changes) else 0)


def to_text(report, check: bool) -> str:
    lines = [render_findings(report.findings)] if report.findings else []
    verb = "would change" if check else "changed"
    lines += [f"{c.path}: {'out of date: ' if check else ''}{c.what}" for c in report.changes]
    if report.recorded:
        lines.append(f"new French {'to record' if check else 'recorded'} as reviewed (a translator should read it): "
                     + ", ".join(report.recorded))
    if report.flagged:
        lines.append("French flagged for review (the worked example changed): " + ", ".join(report.flagged))
    took = f"({report.seconds:.1f} s)"
    if not report.ok:
        lines.append(f"✗ sync stopped: {plural(len(report.findings), 'problem')} to fix first {took}")
    elif not report.changes:
        lines.append(f"✓ every derived file is up to date; nothing changed {took}")
    elif check:
        lines.append(f"✗ {plural(len(report.changes), 'file')} out of date; run `forge sync` {took}")
    else:
        them = "it" if len(report.changes) == 1 else "them"
        lines.append(f"✓ {plural(len(report.changes), 'file')} {verb}; review and commit {them} {took}")
    return "\n".join(lines)
