"""``forge render cards``: card faces, print-and-play sheets, print-shop files and Tabletop Simulator decks."""
from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..core.findings import EXIT_USAGE, Finding, exit_status
from ..carddb.model import Position
from .common import (Format, FormatOption, RootOption, check_root, default_output, echo_report, emit_json, io_failure,
                     is_quiet, plural, progress_bar, render_findings)

app = typer.Typer(name="render", help="Render the game's printable and digital outputs.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)

@app.callback()
def render() -> None:
    """Render the game's printable and digital outputs."""


PROFILE_CHOICES = ("pnp", "gamecrafter", "mpc", "pod", "tts", "proof")


class Lang(str, Enum):
    en = "en"
    fr = "fr"
    all = "all"


class PnpLayout(str, Enum):
    gutter = "gutter"
    butted = "butted"


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"
    all = "all"


def parse_profiles(value: str) -> tuple[str, ...]:
    """"all", one profile, or a comma-separated list, in the canonical order."""
    names = {p.strip().lower() for p in value.split(",") if p.strip()}
    if "all" in names or not names:
        return PROFILE_CHOICES
    unknown = sorted(names - set(PROFILE_CHOICES))
    if unknown:
        raise typer.BadParameter(f"unknown profile {unknown[0]!r}; choose from {', '.join(PROFILE_CHOICES)} or all")
    return tuple(p for p in PROFILE_CHOICES if p in names)


def parse_tts_url(value: str | None) -> str | None:
    """An http(s) base URL for hosted TTS images: a file URL or a path would point at this machine."""
    if value is None:
        return None
    from urllib.parse import urlsplit  # lazy: keeps urllib out of forge's start-up

    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise typer.BadParameter(f"expected an http(s) URL where the images will be hosted, got {value!r} "
                                 "(leave it out to reference the images by their file names)")
    return value.strip().rstrip("/")


def parse_offset(value: str) -> tuple[float, float]:
    """"X,Y" in millimetres, e.g. "-1.5,0.5"."""
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise typer.BadParameter(f"expected X,Y in millimetres (e.g. -1.5,0.5), got {value!r}") from None
    return (x, y)


#: validate's rules that do not stop a render. The set's composition (the rulebook's counts, the
#: starter decks, the four factions) says the kit is incomplete, not that a card would print wrong:
#: a designer prints a prototype of ten cards. The card template and the text fit are the render's
#: own checks, reported by it at their place with their own exit status.
RENDER_REPORTS = frozenset({"count", "starter", "faction", "template", "text-overflow"})


@app.command("cards")
def cards(
    root: RootOption = Path("."),
    lang: Lang = typer.Option(Lang.all, "--lang", help="Language to render: en, fr or all."),
    paper: Paper = typer.Option(Paper.all, "--paper", help="Print-and-play paper: a4, letter or all."),
    profile: str = typer.Option("all", "--profile",
                                help="pnp, gamecrafter, mpc, pod, tts, proof or all (comma-separated list allowed)."),
    back_offset: str = typer.Option("0,0", "--back-offset",
                                    help="Shift the print-and-play backs by X,Y mm (see the calibration page)."),
    pnp_layout: PnpLayout = typer.Option(PnpLayout.gutter, "--pnp-layout",
                                         help="Print-and-play: gutter (each card with its own 2.5 mm bleed; A4 8 "
                                              "and Letter 6 cards a page) or butted (A4 9 and Letter 8 a page, "
                                              "edge to edge, no bleed)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: ROOT/output)."),
    format: FormatOption = Format.text,
    workers: int = typer.Option(min(2, os.cpu_count() or 1), "--jobs", "-j", "--workers",
                                show_default="2, or 1 on one core",
                                help="Processes to render with (--workers: the former name)."),
    force: bool = typer.Option(False, "--force", help="Render even when forge validate refuses the cards: "
                                                      "every card and page is then marked DRAFT, not for print."),
    tts_url: Optional[str] = typer.Option(None, "--tts-url",
                                          help="Base URL where the Tabletop Simulator images will be hosted, "
                                               "as BASE/<lang>/<file> (default: bare file names, for the "
                                               "images copied into TTS's Mods/Images folder; see OUT/tts/<lang>/"
                                               "README.txt)."),
) -> None:
    """Render card faces and backs, print-and-play sheets, print-shop files, TTS decks and proofs.

    Example: forge render cards --profile pnp,pod --lang fr --paper a4
    """
    check_root(root)
    profiles = parse_profiles(profile)
    offset = parse_offset(back_offset)
    tts_url = parse_tts_url(tts_url)
    from ..render.cards import RenderOptions, render_cards  # lazy: loads reportlab, yaml ... only when needed
    from ..render.template import TemplateError  # lazy: loads reportlab, yaml ... only when needed
    from ..text.cardtext import PhraseError, load_phrasebooks  # lazy: loads forge.text only when needed

    # one gate: what validate refuses is not rendered (but as a draft); the text fit is the render's own
    verdict = gate(root)
    load = verdict.load
    reported = verdict.findings
    if load.io_error or (verdict.errors and not force) or not load.db.cards:
        _report_and_exit(format, reported, None, io_error=load.io_error,
                         message="the card database has errors; fix them (forge validate), or render a DRAFT "
                                 "with --force")
    draft = verdict.draft_reason()
    if draft:
        typer.echo(f"warning: rendering a DRAFT: {draft}; every card and page is marked", err=True)
    try:
        books = load_phrasebooks(root)
    except PhraseError as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    options = RenderOptions(
        langs=("en", "fr") if lang is Lang.all else (lang.value,),
        papers=("a4", "letter") if paper is Paper.all else (paper.value,),
        profiles=profiles, back_offset=offset, pnp_layout=pnp_layout.value, out=default_output(root, out, format),
        workers=max(1, workers), tts_base_url=tts_url, draft=draft)
    try:
        with progress_bar(format) as advance:  # cleared before any report or error is printed
            result = render_cards(load.db, books, root, options, progress=advance)
    except TemplateError as exc:
        _report_and_exit(format, list(load.findings), None, io_error=True, message=str(exc))
    except PhraseError as exc:  # a locale phrase that cannot print a card (an unknown placeholder, say)
        where = Position(exc.file, exc.line, exc.col) if exc.file else Position("locales")
        found = Finding(where, exc.rule, str(exc) if not exc.file else exc.reason,
                        exc.hint or "fix the phrase in the locale file (forge validate lists every such problem)")
        _report_and_exit(format, reported + [found], None,
                         message="a locale cannot print the cards; fix it (forge validate) before rendering")
    except OSError as exc:  # an output that cannot be written: the earlier outputs are kept
        io_failure(exc, format)
    _report_and_exit(format, reported + result.findings, result)


def gate(root: Path, prints_text: bool = True):
    """Validate the project for a render: forge.checks.gate's verdict.

    The render's own reports (counts, text fit, the card template) are left to the renderer; a command
    that prints no card text is not refused for a locale or a template (forge.checks.gate)."""
    from ..checks.gate import judge  # lazy: loads forge.checks only when needed
    from ..render.template import TEMPLATE_FILE  # lazy: loads reportlab, yaml ... only when needed

    if not prints_text:
        return judge(root, prints_text=False)
    return judge(root, leave=RENDER_REPORTS, leave_files=(TEMPLATE_FILE.as_posix(),))


def refuse_a_refused_database(root: Path, format: Format, prints_text: bool = True) -> None:
    """One gate for what is made from the cards: exit 1 with validate's errors when it refuses the database."""
    verdict = gate(root, prints_text)
    if verdict.refused:
        _report_and_exit(format, verdict.findings, None, io_error=verdict.load.io_error,
                         message="the card database has errors; fix them (forge validate)")


def _report_and_exit(format: Format, findings: list[Finding], result, io_error: bool = False,
                     message: str = "") -> None:
    if format is Format.json:
        emit_json({
            "ok": exit_status(findings, io_error) == 0,
            "findings": [f.to_json() for f in findings],
            "summary": result.summary() if result else {},
            "changed_outside": dict(sorted(result.outside.items())) if result else {},
            "preflight": {k: {"ok": v["ok"], "files": len(v["files"]),
                              "problems": [p for f in v["files"] for p in f["problems"]]}
                          for k, v in sorted(result.preflight.items())} if result else {},
            **({"error": message} if message else {}),
        })
    else:
        echo_report(to_text(findings, result, message))
    raise typer.Exit(exit_status(findings, io_error))


def to_text(findings: list[Finding], result, message: str = "") -> str:
    from ..render.preflight import figures_line  # lazy: loads forge.render only when needed

    lines = [render_findings(findings)] if findings else []
    if message:
        lines.append(f"✗ {message}")
        return "\n".join(lines)
    for rel, how in sorted(result.outside.items()):
        lines.append(f"! {(result.out / rel).as_posix()} was {how} outside forge: rendered again")
    for name, report in sorted(result.preflight.items()):
        mark = "✓" if report["ok"] else "✗"
        lines.append(f"{mark} {name}: {plural(len(report['files']), 'file')}, preflight "
                     f"{'passed' if report['ok'] else 'failed'}")
        if is_quiet() and report["ok"]:
            continue
        lines += [f"    {line}" for line in map(figures_line, report["files"]) if line]
        lines += [f"    advice: {a}" for a in report.get("shop", {}).get("advice", [])]
    s = result.summary()
    removed = f", {s['removed']} removed" if s["removed"] else ""
    if not is_quiet():
        lines.append(f"{plural(s['written'], 'file')} written, {s['unchanged']} unchanged{removed} in {s['seconds']:.1f} s")
    return "\n".join(lines)
