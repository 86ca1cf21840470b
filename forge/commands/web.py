"""``forge render gallery``: the card gallery, one self-contained HTML page (forge/web)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..core.findings import exit_status
from .common import (Format, FormatOption, RootOption, check_root, default_output, echo_report, emit_json,
                     render_findings)
from .render import Lang, app, refuse_a_refused_database


@app.command("gallery")
def gallery(
    root: RootOption = Path("."),
    lang: Lang = typer.Option(Lang.all, "--lang", help="Languages the page holds: en, fr or all (a switch)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: ROOT/output); the page is "
                                                           "OUT/gallery.html, beside the proofs it links to."),
    format: FormatOption = Format.text,
) -> None:
    """Write the card gallery: every card as printed, with its text, search and filters, in both languages.

    A database that `forge validate` refuses is not shown (exit 1, its errors).

    Example: forge render gallery --lang all
    """
    from ..web.gallery import build_gallery  # lazy: loads forge.books, forge.engine ... only when needed

    check_root(root)
    refuse_a_refused_database(root, format)
    langs = ("en", "fr") if lang is Lang.all else (lang.value,)
    target = default_output(root, out, format)
    outcome = build_gallery(root, target, langs)
    report_page(outcome, format, {"cards": outcome.cards, "langs": list(langs)},
                f"{outcome.cards} cards in {', '.join(langs)}")


def report_page(outcome, format: Format, facts: dict, what: str, failed: bool = False) -> None:
    """Report a web page written (or not) and exit: 0 clean, 1 findings, 2 an output that cannot be written."""
    status = exit_status(outcome.findings, bool(outcome.io_error))
    if format is Format.json:
        emit_json({"ok": status == 0, **facts, **outcome.to_json()})
        raise typer.Exit(status)
    lines = [render_findings(outcome.findings)] if outcome.findings else []
    if outcome.ready:
        how = "unchanged" if outcome.unchanged else "written"
        lines.append(f"{'✗' if failed else '✓'} {outcome.path}: {what}, {outcome.size / 1024:.0f} KB, {how}")
    if outcome.io_error:
        lines.append(f"forge: error: {outcome.io_error}")
    echo_report("\n".join(lines), err=status != 0)
    raise typer.Exit(status)
