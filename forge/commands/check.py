"""``forge check``: validate, parity, generated files, the books and a smoke simulation, as one CI gate."""
from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING, Optional

from ..core.limits import SMOKE_GAMES_CHECK as SMOKE_GAMES
from .common import (ReportFormat, ReportFormatOption, echo_report, emit_ci, RootOption, check_root, emit_json, plural,
                     progress, render_findings)


if TYPE_CHECKING:
    from ..checks.check import CheckReport, CheckResult


def checks_named(values: list[str] | None) -> list[str] | None:
    """``--only``'s names, each value a name or a comma-separated list (a repeated option adds to it rather than
    replacing it); None when it is not given. An unknown name is a usage error (exit 2) listing the checks."""
    if not values:
        return None
    from ..checks.check import UnknownCheck, chosen  # lazy: loads markdown_it, yaml ... only when needed

    names = [name.strip().lower() for value in values for name in value.split(",") if name.strip()]
    try:
        chosen(names)
    except UnknownCheck as exc:
        raise typer.BadParameter(str(exc)) from None
    return names


def check(
    root: RootOption = Path("."),
    format: ReportFormatOption = ReportFormat.text,
    games: int = typer.Option(SMOKE_GAMES, "--games", min=0, help="Games of the simulation smoke test."),
    seed: int = typer.Option(0, "--seed", help="Seed of the simulation smoke test."),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Processes for the simulation."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail their check too."),
    budget: float = typer.Option(1.0, "--budget", min=0.1, max=100.0,
                                 help="Multiply each check's memory, CPU, time and output limits by this."),
    only: Optional[list[str]] = typer.Option(
        None, "--only", callback=checks_named, metavar="<names>",
        help="Run only these checks: validate, parity, schema, books, docs or simulate, comma-separated "
             "(validate,parity) or repeated. books, docs and simulate bring validate along: they read the "
             "cards it accepts."),
) -> None:
    """The CI gate: validate, parity, schema and design-doc freshness, the books composed, and a smoke simulation.

    Each check runs in a process of its own under OS limits: one that exceeds its memory, CPU, time or
    output budget fails with a [budget] finding at the file it was reading. The report lists the checks
    that ran.

    Example: forge check --format sarif > forge.sarif
    Example: forge check --only validate,parity   (a fast pre-commit gate)
    """
    check_root(root)
    from ..checks.check import check as run_gate  # lazy: loads markdown_it, yaml ... only when needed

    with progress(format) as say:  # a spinner naming the running check, on a terminal only
        report = run_gate(root, games=games, seed=seed, jobs=jobs, strict=strict, progress=say, budget=budget,
                          only=only)
    if format is ReportFormat.json:
        emit_json(report.to_json())
    elif format is not ReportFormat.text:
        from ..core.reports import Suite  # lazy: keeps forge.core.reports out of forge's start-up

        suites = [Suite(c.name, c.findings, skipped=describe(c) if c.status == "skipped" else "",
                        failed=c.status == "failed", seconds=c.seconds) for c in report.checks]
        emit_ci(format, suites, "forge check", to_text(report).splitlines()[-1], root)
    else:
        echo_report(to_text(report))
    raise typer.Exit(report.exit_status)


MARKS = {"ok": "✓", "failed": "✗", "skipped": "–"}


def describe(result: CheckResult) -> str:
    s = result.summary
    if result.status == "skipped":
        return f"skipped: {s['reason']}"
    if "budget" in s:
        return f"over its {s['budget']} budget"
    if "stopped" in s:
        return "stopped"
    if result.name == "simulate":
        return f"{s['games']} games ({s['agents']} agents, seed {s['seed']}), {plural(s['errors'], 'error')}"
    if result.name in ("schema", "docs"):
        return "up to date" if s["current"] else "out of date"
    errors = sum(f.severity == "error" for f in result.findings)
    counts = f"{plural(errors, 'error')}, {plural(len(result.findings) - errors, 'warning')}"
    return f"{plural(len(s['books']), 'book')} composed, {counts}" if result.name == "books" else counts


def to_text(report: CheckReport) -> str:
    lines = []
    for result in report.checks:
        if result.findings:
            lines.append(render_findings(result.findings))
        lines.append(f"{MARKS[result.status]} {result.name}: {describe(result)} ({result.seconds:.1f} s)")
    failed = [c.name for c in report.checks if c.status == "failed"]
    lines.append(f"✗ check failed: {', '.join(failed)}" if failed else "✓ all checks passed")
    return "\n".join(lines)
