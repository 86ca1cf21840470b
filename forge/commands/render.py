"""``forge render cards``: card faces, print-and-play sheets, print-shop files and Tabletop Simulator decks."""
from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..findings import EXIT_USAGE, Finding, exit_status
from ..model import Position
from .common import Format, FormatOption, RootOption, check_root, default_output, emit_json, io_failure, plural, render_findings

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
    from urllib.parse import urlsplit

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


class ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.enabled = stream.isatty()

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.enabled:
            return
        width = 28
        filled = width * done // max(total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what[:40]:<40}")
        self.stream.flush()

    def close(self) -> None:
        """Clear the line (once: an error message may follow it)."""
        if self.enabled:
            self.stream.write("\r" + " " * 90 + "\r")
            self.stream.flush()
            self.enabled = False


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
                                              "and Letter 6 cards a page) or butted (9 a page, edge to edge, no bleed)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output folder (default: ROOT/output)."),
    format: FormatOption = Format.text,
    workers: int = typer.Option(min(2, os.cpu_count() or 1), "--workers", help="Processes to render with."),
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
    from ..database import load_database
    from ..render.cards import RenderOptions, render_cards
    from ..render.template import TemplateError
    from ..text import PhraseError, load_phrasebooks

    load = load_database(root)
    errors = [f for f in load.findings if f.severity == "error"]
    if load.io_error or errors:
        _report_and_exit(format, load.findings, None, io_error=load.io_error,
                         message="the card database has errors; fix them (forge validate) before rendering")
    try:
        books = load_phrasebooks(root)
    except PhraseError as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE)
    options = RenderOptions(
        langs=("en", "fr") if lang is Lang.all else (lang.value,),
        papers=("a4", "letter") if paper is Paper.all else (paper.value,),
        profiles=profiles, back_offset=offset, pnp_layout=pnp_layout.value, out=default_output(root, out, format),
        workers=max(1, workers), tts_base_url=tts_url)
    bar = ProgressBar()
    try:
        result = render_cards(load.db, books, root, options, progress=bar)
    except TemplateError as exc:
        _report_and_exit(format, load.findings, None, io_error=True, message=str(exc))
    except PhraseError as exc:  # a locale phrase that cannot print a card (an unknown placeholder, say)
        bar.close()
        where = Position(exc.file, exc.line, exc.col) if exc.file else Position("locales")
        found = Finding(where, exc.rule, str(exc) if not exc.file else exc.reason,
                        exc.hint or "fix the phrase in the locale file (forge validate lists every such problem)")
        _report_and_exit(format, list(load.findings) + [found], None,
                         message="a locale cannot print the cards; fix it (forge validate) before rendering")
    except OSError as exc:  # an output that cannot be written: the earlier outputs are kept
        bar.close()
        io_failure(exc, format)
    finally:
        bar.close()
    _report_and_exit(format, list(load.findings) + result.findings, result)


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
        typer.echo(to_text(findings, result, message))
    raise typer.Exit(exit_status(findings, io_error))


def to_text(findings: list[Finding], result, message: str = "") -> str:
    from ..render.preflight import figures_line

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
        lines += [f"    {line}" for line in map(figures_line, report["files"]) if line]
        lines += [f"    advice: {a}" for a in report.get("shop", {}).get("advice", [])]
    s = result.summary()
    removed = f", {s['removed']} removed" if s["removed"] else ""
    lines.append(f"{plural(s['written'], 'file')} written, {s['unchanged']} unchanged{removed} in {s['seconds']:.1f} s")
    return "\n".join(lines)
