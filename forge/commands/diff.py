"""``forge diff``: the cards added, removed and changed between two git revisions."""
from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING

from ..findings import EXIT_CLEAN, EXIT_USAGE
from .common import Format, FormatOption, RootOption, check_root, emit_json

if TYPE_CHECKING:
    from ..diff import DiffReport


def diff(
    rev: str = typer.Argument(..., help="The revision to compare from, e.g. HEAD~1 or a tag."),
    rev2: str = typer.Argument(None, help="The revision to compare to (default: the working tree)."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
) -> None:
    """What changed in the card database between two git revisions: cards, printed text, counts.

    Example: forge diff main   (the working tree against the main branch)
    """
    check_root(root)
    from ..diff import DiffError, diff as run_diff

    try:
        report = run_diff(root, rev, rev2)
    except DiffError as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if format is Format.json:
        emit_json(report.to_json())
    else:
        typer.echo(to_text(report))
    raise typer.Exit(EXIT_CLEAN)


def to_text(report: DiffReport) -> str:
    lines = [f"cards from {report.old} to {report.new}: {len(report.added)} added, "
             f"{len(report.removed)} removed, {len(report.changed)} changed"]
    lines += [f"+ {cid}" for cid in report.added]
    lines += [f"- {cid}" for cid in report.removed]
    for change in report.changed:
        shown = [_field(name, *change.values[name]) for name in change.fields]
        lines.append(f"~ {change.id}: " + (", ".join(shown) or "printed text"))
        for lang, (before, after) in change.text.items():
            lines.append(f"    {lang}: {' / '.join(before) or '(nothing)'} → {' / '.join(after) or '(nothing)'}")
    moved = [_count_line(name, b, a) for name, (b, a) in report.counts.items() if b != a]
    lines.append("counts: " + ("; ".join(moved) if moved else "unchanged"))
    if report.stale:
        lines.append(f"French to review (the English changed since it was translated): {len(report.stale)}")
        for s in report.stale:
            before, now = ("(new)", _quote(s.en_now)) if s.en_before is None else _changed(s.en_before, s.en_now)
            lines.append(f"! {s.where}: {s.id}: English {before} → {now}")
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
