"""``forge diff``: the cards added, removed and changed between two git revisions."""
from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from typing import TYPE_CHECKING

from ..core.findings import ERROR, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from .common import RootOption, check_root, emit_json, render_findings
from .simulate import AgentKind
from ..core.escape import code_fence, markdown_text, one_line
from ..core.workers import cap

if TYPE_CHECKING:
    from ..pipeline.diff import DiffReport


class DiffFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


def diff(
    rev: str = typer.Argument(..., help="The revision to compare from, e.g. HEAD~1 or a tag."),
    rev2: str = typer.Argument(None, help="The revision to compare to (default: the working tree)."),
    simulate: int = typer.Option(0, "--simulate", min=0, max=10_000_000,
                                 help="Also play N games on each side, the same seeds on both, and say what moved."),
    seed: int = typer.Option(0, "--seed", "-s", help="With --simulate: the run's seed."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="With --simulate: worker processes."),
    agents: AgentKind = typer.Option(AgentKind.heuristic, "--agents", help="With --simulate: who plays both seats."),
    root: RootOption = Path("."),
    format: DiffFormat = typer.Option(DiffFormat.text, "--format",
                                      help="text for people, json for tools, markdown for a pull-request comment."),
) -> None:
    """What changed in the card database between two git revisions: cards, printed text, counts.

    Example: forge diff main   (the working tree against the main branch)
    Example: forge diff main --simulate 2000 --jobs 2 --format markdown   (what moved, for a PR comment)
    """
    check_root(root)
    from ..pipeline.diff import DiffError, diff as run_diff  # lazy: loads yaml, forge.carddb ... only when needed

    try:
        report = run_diff(root, rev, rev2)
    except DiffError as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    moved = _simulate(report, simulate, seed, jobs, agents.value) if simulate else None
    if format is DiffFormat.json:
        emit_json({**report.to_json(), "simulation": moved} if moved else report.to_json())
    elif format is DiffFormat.markdown:
        typer.echo(to_markdown(report) + ("\n" + _moved_text(report, moved, markdown=True) if moved else ""))
    else:
        typer.echo(to_text(report) + ("\n" + _moved_text(report, moved) if moved else ""))
    raise typer.Exit(EXIT_CLEAN)


def _simulate(report: DiffReport, games: int, seed: int, jobs: int, agents: str) -> dict:
    """The same games on both sides (forge.sim.compare); a side whose cards do not load stops here."""
    from ..sim.compare import moved, simulate_both  # lazy: loads forge.carddb, forge.sim only when needed
    from ..sim.simulate import Settings  # lazy: loads forge.carddb, forge.engine ... only when needed

    for label, load in zip((report.old, report.new), report.loads):
        errors = [f for f in load.findings if f.severity == ERROR]
        if errors:
            typer.echo(f"forge: error: the cards at {label} do not load, nothing to simulate:\n"
                       + render_findings(errors), err=True)
            raise typer.Exit(EXIT_FINDINGS)
    settings = Settings(games=games, seed=seed, jobs=cap(jobs, games), agents=agents)
    before, after = (load.db for load in report.loads)
    comparison = simulate_both(before, after, settings)
    changed = [c.id for c in report.changed] + report.added
    result = moved(comparison, before, after, changed)
    result["settings"] = {"games": games, "seed": seed, "agents": agents}
    result["changes"] = _change_lines(report)
    result["names"] = {f.id: f.name.get("en", f.id) for f in after.factions}
    return result


def _moved_text(report: DiffReport, moved: dict, markdown: bool = False) -> str:
    from ..sim.compare import render_markdown, render_text  # lazy: loads forge.carddb, forge.sim only when needed

    render = render_markdown if markdown else render_text
    return render(moved, moved["settings"], moved["changes"], moved["names"])


def _change_lines(report: DiffReport) -> list[str]:
    """One line per changed card, as `forge diff` says it ("kindle: cost 1 → 2")."""
    lines = [f"{c.id}: " + (", ".join(_field(n, *c.values[n]) for n in c.fields) or "printed text")
             for c in report.changed]
    lines += [f"{cid}: added" for cid in report.added] + [f"{cid}: removed" for cid in report.removed]
    return [one_line(line) for line in lines]


def to_markdown(report: DiffReport) -> str:
    """The card changes for a pull-request comment: the summary line as escaped text, then the text report's
    lines in a ``diff`` code block, where GitHub shows an added card green and a removed one red, and reads
    no Markdown, mention or link in what the cards say (forge.core.escape)."""
    head, *rest = to_text(report).splitlines()
    opening, closing = code_fence(rest, "diff")
    return "\n".join([f"**{markdown_text(head)}**", "", opening, *rest, closing])


def to_text(report: DiffReport) -> str:
    """The report for people, one line per card; what the cards say is kept on its line (``one_line``),
    so a name with a line break cannot forge a line of its own (``+ a-card-never-added``)."""
    lines = [one_line(f"cards from {report.old} to {report.new}: {len(report.added)} added, "
                      f"{len(report.removed)} removed, {len(report.changed)} changed")]
    lines += [f"+ {one_line(cid)}" for cid in report.added]
    lines += [f"- {one_line(cid)}" for cid in report.removed]
    for change in report.changed:
        shown = [_field(name, *change.values[name]) for name in change.fields]
        lines.append(one_line(f"~ {change.id}: " + (", ".join(shown) or "printed text")))
        for lang, (before, after) in change.text.items():
            was, now = " / ".join(before) or "(nothing)", " / ".join(after) or "(nothing)"
            lines.append(one_line(f"    {lang}: {was} → {now}"))
    moved = [_count_line(name, b, a) for name, (b, a) in report.counts.items() if b != a]
    lines.append("counts: " + ("; ".join(moved) if moved else "unchanged"))
    if report.stale:
        lines.append(f"French to review (the English changed since it was translated): {len(report.stale)}")
        for s in report.stale:
            before, now = ("(new)", _quote(s.en_now)) if s.en_before is None else _changed(s.en_before, s.en_now)
            lines.append(one_line(f"! {s.where}: {s.id}: English {before} → {now}"))
        lines.append("  (once checked: forge i18n reviewed ID, or translate them in `forge i18n export` and import)")
    return "\n".join(lines)


def _changed(before: str, now: str, context: int = 4) -> tuple[str, str]:
    """The two Englishes cut to the words that differ, with a few words around them."""
    a, b = before.split(), now.split()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    start = max(head - context, 0)

    def cut(words: list[str]) -> str:
        end = len(words) - max(tail - context, 0)
        text = " ".join(words[start:end])
        return _quote(("… " if start else "") + text + (" …" if end < len(words) else ""), 200)

    return cut(a), cut(b)


def _quote(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return f"“{flat if len(flat) <= width else flat[:width - 1] + '…'}”"


def _field(name: str, before, after) -> str:
    """`cost 2 → 3` for a short value; the field's name alone for effect lists."""
    if isinstance(before, list) or isinstance(after, list) or len(f"{before}{after}") > 40:
        return name
    return f"{name} {_value(before)} → {_value(after)}"


def _value(value) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def _count_line(name: str, before, after) -> str:
    label = name.replace("_", " ")
    if isinstance(before, dict):
        keys = sorted(set(before) | set(after), key=lambda k: (len(k), k))
        parts = [f"{k} {before.get(k, 0)} → {after.get(k, 0)}" for k in keys if before.get(k, 0) != after.get(k, 0)]
        return f"{label}: {', '.join(parts)}"
    return f"{label} {before} → {after} ({after - before:+d})"


__all__ = ["diff"]
