"""``forge build``: the whole kit from the card database, in one run.

The stages run in order and each gates the next, as a designer preparing a print
run would: validate the database (schema, rulebook, engine proofs, text fit),
play a smoke batch of games over every faction pairing and seat, render every
card output, then the rulebook and the reference booklet, in both languages, as
PDFs and as web pages, and last the card gallery (one page, linking to the proofs).
Nothing is rendered from a database that fails.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core.findings import ERROR, Finding
from ..core.limits import SMOKE_GAMES_BUILD
from ..checks.validate import Report, validate
from ..carddb.model import Position
from ..core.atomic import describe
from .sync import regenerate_example

#: Every ordered pairing of factions, both seats: 12 games make one round.
SMOKE_GAMES = SMOKE_GAMES_BUILD


@dataclass
class Stage:
    """One stage of the build: its name, whether it passed, what it says, how long it took."""

    name: str
    ok: bool
    summary: dict = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    io_error: str = ""  # an output that could not be written: `<path>: cannot write (<reason>)`


@dataclass
class BuildReport:
    stages: list[Stage] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.stages)

    @property
    def io_error(self) -> str:
        """The I/O error that stopped the build (exit 2), or ""."""
        return next((s.io_error for s in self.stages if s.io_error), "")

    def to_json(self) -> dict:
        return {"ok": self.ok, **({"error": self.io_error} if self.io_error else {}), "stages": [
            {"name": s.name, "ok": s.ok, "seconds": round(s.seconds, 2), "summary": s.summary,
             "findings": [f.to_json() for f in s.findings]} for s in self.stages]}


def build(root: Path, out: Path, games: int = SMOKE_GAMES, seed: int = 0, jobs: int = 2,
          langs: tuple[str, ...] = ("en", "fr"), progress: Callable[[str], None] | None = None) -> BuildReport:
    """Validate, simulate, render; stops at the first stage that fails."""
    report = BuildReport()
    say = progress or (lambda _msg: None)

    say("validating the card database")
    started = time.perf_counter()
    checked = validate(root)
    errors = [f for f in checked.findings if f.severity == ERROR]
    unreadable = next((f"{f.position.file}: {f.message}" for f in checked.findings if f.rule == "io"),
                      "the project cannot be read") if checked.io_error else ""
    report.stages.append(Stage("validate", not errors and not checked.io_error, checked.summary(),
                               checked.findings, time.perf_counter() - started, io_error=unreadable))
    if not report.ok:
        return report

    say(f"playing {games} games over every pairing and seat")
    report.stages.append(_simulate(checked, games, seed, jobs))
    if not report.ok:
        return report

    say("rendering the cards")
    report.stages.append(_render(checked, root, out, langs, jobs))
    if not report.ok:
        return report

    say("rendering the rulebook and the reference booklet")
    report.stages.append(_books(root, out, langs, jobs, checked.load.db))
    if not report.ok:
        return report

    say("writing the card gallery")
    report.stages.append(_gallery(checked, root, out, langs))
    return report


def _simulate(checked: Report, games: int, seed: int, jobs: int) -> Stage:
    from ..sim.simulate import smoke  # lazy: loads forge.engine, forge.sim only when needed

    started = time.perf_counter()
    findings, summary = smoke(checked.load.db, games, seed, jobs)
    return Stage("simulate", not findings, summary, findings, time.perf_counter() - started)


def _render(checked: Report, root: Path, out: Path, langs: tuple[str, ...], jobs: int) -> Stage:
    from ..render.cards import RenderOptions, render_cards  # lazy: loads reportlab, forge.render only when needed

    started = time.perf_counter()
    try:
        result = render_cards(checked.load.db, checked.books, root, RenderOptions(langs=langs, out=out, workers=jobs))
    except OSError as exc:  # an output that cannot be written; the earlier outputs are kept
        return Stage("render", False, {}, [], time.perf_counter() - started, io_error=describe(exc))
    errors = [f for f in result.findings if f.severity == ERROR]
    return Stage("render", not errors, result.summary(), result.findings, time.perf_counter() - started)


def _books(root: Path, out: Path, langs: tuple[str, ...], jobs: int, db) -> Stage:
    from ..books.build import build_books  # lazy: loads forge.books only when needed
    from ..books.web import build_web  # lazy: loads jinja2, markdown_it ... only when needed

    started = time.perf_counter()
    # cards changed under the worked example: play it again (its French flagged), never a book without it
    example = regenerate_example(root, db)
    if example.findings or example.io_error:
        return Stage("books", False, {"books": [], "pages": 0}, example.findings, time.perf_counter() - started)
    composed: dict = {}  # each book composed once, for its PDF and its web page
    outcomes = build_books(root, ("rulebook", "reference"), langs, out, workers=jobs, press=True, composed=composed)
    web = build_web(root, ("rulebook", "reference"), langs, out, composed=composed)
    findings = list(dict.fromkeys(f for o in outcomes + web for f in o.findings))  # a book's findings, once
    findings += [Finding(_pos(o.path or "output/books"), "preflight", p, "look at the page in the PDF")
                 for o in outcomes for p in o.problems]
    io_error = next((o.io_error for o in outcomes + web if o.io_error), "")
    ok = all(o.ready for o in outcomes) and all(o.ready for o in web) and not any(f.severity == ERROR for f in findings)
    summary = {"books": [f"{o.kind}-{o.lang}" for o in outcomes if o.written],
               "web": [f"{o.kind}-{o.lang}.html" for o in web if o.written],
               "unchanged": [f"{o.kind}-{o.lang}" for o in outcomes if o.unchanged]
                            + [f"{o.kind}-{o.lang}.html" for o in web if o.unchanged],
               "pages": sum(o.pages for o in outcomes if o.ready),
               **({"example": [f"{c.path}: {c.what}" for c in example.changes]} if example.changes else {})}
    return Stage("books", ok, summary, findings, time.perf_counter() - started, io_error=io_error)


def _gallery(checked: Report, root: Path, out: Path, langs: tuple[str, ...]) -> Stage:
    from ..web.gallery import build_gallery  # lazy: loads forge.books, forge.engine ... only when needed

    started = time.perf_counter()
    o = build_gallery(root, out, langs, checked.load.db, checked.books)
    summary = {"path": o.path, "cards": o.cards, "langs": list(langs), "bytes": o.size, "written": o.written}
    ok = o.ready and not any(f.severity == ERROR for f in o.findings)
    return Stage("gallery", ok, summary, o.findings, time.perf_counter() - started, io_error=o.io_error)


def _pos(name: str):
    return Position(name)
