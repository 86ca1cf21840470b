"""``forge render rulebook`` and ``forge render reference``: the books, in English and French, as A5 PDFs."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from ..core.findings import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, ERROR, Finding, exit_status
from .common import (Format, FormatOption, RootOption, check_root, default_output, echo_report, emit_json, progress,
                     render_findings)
from .render import Lang, app
from ..carddb.model import Position

OutOption = typer.Option(None, "--out", help="Output folder (default: ROOT/output); books go to OUT/books/.")
WorkersOption = typer.Option(min(2, os.cpu_count() or 1), "--jobs", "-j", "--workers",
                             show_default="2, or 1 on one core", help="Processes to render with (--workers: the former name).")
ForceOption = typer.Option(False, "--force", help="Render even when forge validate refuses the cards: every page is "
                                                  "then marked DRAFT, not for print.")
LangOption = typer.Option(Lang.all, "--lang", help="Language to render: en, fr or all.")
PrintOption = typer.Option(False, "--print", help="Also write the print files: OUT/books/press/ (PDF/X-4, press "
                                                  "CMYK, 3 mm bleed, crop marks) and OUT/books/booklet/ (A5 booklets "
                                                  "two-up on A4 and Letter, for home printing).")
HtmlOption = typer.Option(False, "--html", help="Also write the web edition: one self-contained, accessible HTML "
                                                "page per book and language, beside the PDFs (OUT/books/*.html).")


@app.command("rulebook")
def rulebook(root: RootOption = Path("."), lang: Lang = LangOption, format: FormatOption = Format.text,
             out: Optional[Path] = OutOption, workers: int = WorkersOption, force: bool = ForceOption,
             press: bool = PrintOption, html: bool = HtmlOption) -> None:
    """Render the rulebook (A5 booklet): rules text, tables and card anatomy from the cards.

    Example: forge render rulebook --lang fr
    """
    run_books(("rulebook",), root, lang, format, out, workers, force, press, html)


@app.command("reference")
def reference(root: RootOption = Path("."), lang: Lang = LangOption, format: FormatOption = Format.text,
              out: Optional[Path] = OutOption, workers: int = WorkersOption, force: bool = ForceOption,
             press: bool = PrintOption, html: bool = HtmlOption) -> None:
    """Render the reference booklet: keywords, trap and Rite clarifications, FAQ, glossary, card list.

    Example: forge render reference --lang en
    """
    run_books(("reference",), root, lang, format, out, workers, force, press, html)


@app.command("books")
def books(root: RootOption = Path("."), lang: Lang = LangOption, format: FormatOption = Format.text,
          out: Optional[Path] = OutOption, workers: int = WorkersOption, force: bool = ForceOption,
          press: bool = PrintOption, html: bool = HtmlOption) -> None:
    """Render both books at once (the rulebook and the reference), sharing the cores.

    Example: forge render books --out dist; forge render books --print (for a printer, and booklets to print at home);
    forge render books --html (the web edition, one page per book and language)
    """
    run_books(("rulebook", "reference"), root, lang, format, out, workers, force, press, html)


def run_books(kinds: tuple[str, ...], root: Path, lang: Lang, fmt: Format, out: Optional[Path],
              workers: int, force: bool = False, press: bool = False, html: bool = False) -> None:
    """Check the project, render the books, report once, exit 0 (clean), 1 (findings) or 2 (I/O).

    The gate is `forge validate`'s: a database it refuses is not rendered, unless --force,
    and then every page is marked DRAFT."""
    check_root(root)
    from ..books.build import build_books  # lazy: loads forge.books only when needed
    from ..books.compose import BookIOError, check_sources, load_project  # lazy: loads jinja2, markdown_it ... only when needed
    from ..text.cardtext import PhraseError, load_phrasebooks  # lazy: loads forge.text only when needed
    from ..checks.gate import draft_reason  # lazy: loads forge.checks only when needed
    from ..checks.validate import validate  # lazy: loads yaml, forge.checks ... only when needed

    langs = ("en", "fr") if lang is Lang.all else (lang.value,)
    checked = validate(root, extra=True)
    load = checked.load
    errors = [f for f in checked.findings if f.severity == ERROR]
    if load.io_error or (errors and not force):
        _finish(fmt, list(checked.findings), [], io_error=load.io_error,
                message="the card database has errors; fix them (forge validate), or render a DRAFT with --force")
    draft = draft_reason(errors)
    if draft:
        typer.echo(f"warning: rendering a DRAFT: {draft}; every page is marked", err=True)
    if not load.db.cards:
        _finish(fmt, list(checked.findings), [], message="no card loads: nothing to render, even as a draft")
    try:
        project = load_project(root, load.db, load_phrasebooks(root))
        check_sources(project, kinds, langs)
    except (PhraseError, BookIOError) as exc:
        _finish(fmt, list(load.findings), [], io_error=True, message=str(exc))
    target = default_output(root, out, fmt)
    with progress(fmt) as say:
        say(f"laying out {', '.join(f'{kind}-{lang}' for kind in kinds for lang in langs)}")
        composed: dict | None = {} if html else None  # each book composed once, for its PDF and its web page
        outcomes = build_books(root, kinds, langs, target, workers=max(1, workers), draft=draft, press=press,
                               composed=composed)
        if html:
            from ..books.web import build_web  # lazy: loads jinja2, markdown_it ... only when needed

            say("laying out the web edition")
            outcomes += build_web(root, kinds, langs, target, draft=draft, composed=composed)
    findings = list(checked.findings)
    for o in outcomes:
        findings += o.findings
        findings += [Finding(_position(o.path), "preflight", p, "look at the page in the PDF; see templates/books/README.md")
                     for p in getattr(o, "problems", ())]
    io_error = next((o.io_error for o in outcomes if o.io_error), "")
    _finish(fmt, findings, outcomes, io_error=bool(io_error), message=io_error)


def _position(path: str):
    return Position(path or "output/books")


def _finish(fmt: Format, findings: list[Finding], outcomes: list, io_error: bool = False, message: str = "") -> None:
    """Report and exit; an I/O error (an input unreadable, a book that cannot be written) is one
    `forge: error:` line on stderr, after the report of the books that were written."""
    status = exit_status(findings, io_error)
    if fmt is Format.json:
        emit_json({"ok": status == EXIT_CLEAN, "books": [o.to_json() for o in outcomes],
                   "findings": [f.to_json() for f in sorted(set(findings))],
                   **({"error": message} if message else {})})
    elif status == EXIT_USAGE and message:
        report = to_text(findings, outcomes)
        if report:
            echo_report(report, err=not outcomes)
        typer.echo(f"forge: error: {message}", err=True)
    else:
        echo_report(to_text(findings, outcomes, message), err=status == EXIT_USAGE and not outcomes)
    raise typer.Exit(status)


def to_text(findings: list[Finding], outcomes: list, message: str = "") -> str:
    lines = [render_findings(sorted(set(findings)))] if findings else []
    for o in outcomes:
        if getattr(o, "web", False):
            how = "unchanged" if o.unchanged else "written"
            lines.append(f"✓ {o.path}: web edition, {o.size / 1024:.0f} KB, {how}" if o.ready else
                         f"✗ {o.kind} ({o.lang}), web edition: not written" if not o.io_error else "")
            continue
        if o.ready:
            mark = "✗" if o.problems else "✓"
            how = "unchanged (its inputs did not change)" if o.unchanged else f"{o.seconds:.1f} s"
            lines.append(f"{mark} {o.path}: {o.pages} pages, {o.size / 1024:.0f} KB, {how}")
            lines += [f"  {name}: {file['path']} ({file['size'] / 1024:.0f} KB)" for name, file in o.files.items()]
        elif not o.io_error:
            lines.append(f"✗ {o.kind} ({o.lang}): not written, the templates have errors")
    if message:
        lines.append(f"✗ {message}")
    return "\n".join(line for line in lines if line)


__all__ = ["books", "reference", "rulebook", "run_books", "EXIT_FINDINGS"]
