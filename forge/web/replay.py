"""The replay viewer: one self-contained page that steps through a game record as board views.

The record is read as ``forge replay`` reads it (``engine.record.Replayer``: every
line checked, every decision replayed by the rules engine, the final state matched
with the record's digest); after each decision the page keeps a view of the board
(``board.view``, only what changed), and the log lines that decision led to, in
the replay log's phrases and the chosen language. A failing game's record (the one
``forge simulate`` saves) is shown up to the decision the engine fails on, with
the failure; a record that is not whole or not sound is a finding at its
line and column, and no page.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable

from ..engine.record import MAX_LINE_BYTES, RecordError, Replayer
from ..text.narrate import LogPrinter
from ..core.escape import json_in_html
from ..core.findings import Finding, ERROR
from ..carddb.model import CardDatabase, Position
from ..carddb.vocabulary import FACTIONS, MAX_ALLEGIANCE
from . import board
from .icons import Icons
from .page import PageOutcome, asset, render, write
from .strings import KEYS, words
from ..text.cardtext import load_phrasebooks

TEMPLATE = "replay.html.j2"
#: The most decisions one page steps through: a record far longer (a capped game of a million
#: decisions) would make a page no browser opens; `forge replay` without --html still reads it.
MAX_STEPS = 50_000


@dataclass
class Replay:
    """What the page shows: the record's header and result, the board after each step, the log."""

    head: dict = field(default_factory=dict)
    result: dict | None = None
    steps: list[dict] = field(default_factory=list)  # each step's changes to the board
    log: list[tuple[int, str, str]] = field(default_factory=list)  # (step, kind, text)
    cards: set[str] = field(default_factory=set)
    failure: RecordError | None = None  # the engine failed on a legal decision (rule "replay")
    failed_step: int = -1
    final: dict = field(default_factory=dict)  # the last board, whole


def read(db: CardDatabase, books: dict, stream: BinaryIO, lang: str, max_bytes: int | None = None) -> Replay:
    """Replay a record into board views and log lines (in the locales' words, ``books``); raises RecordError
    for a record with no page."""
    rep, printer, out = Replayer(db), LogPrinter(db, books, lang, decisions=True), Replay()
    last: dict | None = None
    try:
        for n, x in _numbered(rep.lines(stream, max_bytes)):
            kind = x.get("t")
            if kind == "header" or (kind == "decision" and out.failed_step < 0):
                if rep.failure is not None:  # the engine failed on this decision: the board stays as it was
                    out.failed_step = len(out.steps)
                    out.steps.append({})
                else:
                    if len(out.steps) >= MAX_STEPS:
                        raise RecordError(n, f"the record has more than {MAX_STEPS:,} decisions: too long for one page",
                                          "replay it as text (forge replay FILE), or save a shorter game", "size")
                    now = board.view(rep.state)
                    out.steps.append(board.delta(last, now))
                    out.cards |= board.cards_of(now)
                    last = now
                if kind == "header":
                    out.head = x
            elif kind == "result":
                out.result = x
            text = printer(x)
            if text is not None:
                out.log.append((len(out.steps) - 1, _kind(x), text.strip()))
    except RecordError as exc:
        if exc.rule != "replay" or not out.steps:
            raise
        out.failure = exc
    out.final = last or {}
    return out


def _numbered(lines):
    """The record's lines with their line numbers (the header is line 1; the closing line is not handed on)."""
    for n, x in enumerate(lines, start=1):
        yield n, x


def _kind(x: dict) -> str:
    if x.get("t") == "decision":
        return "decision"
    return "turn" if x.get("e") == "turn" else "win" if x.get("e") in ("win", "capped") else "event"


# -- where a problem is ----------------------------------------------------------------------
_FIELD = re.compile(r"`([a-z_0-9]+)`")
_COLUMN = re.compile(r"column (\d+)")


def column(opener: Callable[[], BinaryIO], line: int, message: str) -> int:
    """The column of a record problem on its line: the field the message names, the column a JSON
    error gives, else 1 (the line is read again, at most one line's bytes)."""
    found = _COLUMN.search(message)
    if found:
        return int(found.group(1))
    names = _FIELD.findall(message)
    if not names:
        return 1
    try:
        with opener() as stream:
            for _ in range(line - 1):
                if not stream.readline(MAX_LINE_BYTES + 1):
                    return 1
            raw = stream.readline(MAX_LINE_BYTES + 1).decode("utf-8", "replace")
    except OSError:
        return 1
    at = raw.find(f'"{names[0]}":')
    return at + 1 if at >= 0 else 1


# -- the page --------------------------------------------------------------------------------
def outcome_text(replay: Replay, w: dict[str, str], names: dict[int, str],
                 reason: Callable[[str], str] = str) -> str:
    """How the game ended, in a sentence of the words ``w``; ``reason`` names a cap in the page's language."""
    res = replay.result or {}
    if replay.failure is not None or res.get("error"):
        reason = replay.failure.message if replay.failure is not None else str(res.get("error"))
        return w["result_error"].replace("{error}", reason)
    if res.get("capped"):
        return w["result_capped"].replace("{turn}", str(res["turns"])).replace("{reason}", reason(str(res["capped"])))
    if res.get("winner") in (0, 1):
        h = res["health"]
        return (w["result_win"].replace("{player}", names[res["winner"]]).replace("{turn}", str(res["turns"]))
                .replace("{h0}", str(h[res["winner"]])).replace("{h1}", str(h[1 - res["winner"]])))
    return ""


def _agent(w, name) -> str:
    """Who played a seat, in the page's language (``web: agent_heuristic``…); a name the locales lack as written."""
    key = f"agent_{name}"
    return w[key] if isinstance(name, str) and key in KEYS else name


def page(db: CardDatabase, books: dict, replay: Replay, lang: str, pictures, record_name: str) -> str:
    """The replay page's text, in ``lang``."""
    w = words(books, lang)
    icons = Icons(db)
    by_id = db.by_id()
    printer = LogPrinter(db, books, lang)
    names = {p: printer.who(p) for p in (0, 1)}
    factions = {f.id: f.name.get(lang) or f.id for f in db.factions}
    head = replay.head
    players = [{"n": p, "name": names[p], "faction": factions.get(head["factions"][p], head["factions"][p]),
                "agent": _agent(w, head["agents"][p])} for p in (0, 1)]
    cards = {cid: {"n": by_id[cid].name.get(lang) or cid, "src": pictures.uri(by_id[cid], lang)}
             for cid in sorted(replay.cards)}
    alleg = [{"id": f, "label": books[lang].faction_name(f), "icon": icons.span(f, books[lang].faction_name(f))}
             for f in FACTIONS]
    failure = None
    if replay.failure is not None:
        failure = {"step": replay.failed_step, "line": replay.failure.line, "message": replay.failure.message}
    data = {"steps": replay.steps, "cards": cards, "failure": failure, "max": MAX_ALLEGIANCE,
            "ui": {k: w[k] for k in ("step", "turn", "empty", "exhausted", "active")},
            "names": [names[0], names[1]], "result": replay.result}
    return render(TEMPLATE, {
        "lang": lang, "w": w, "players": players, "alleg": alleg, "log": replay.log, "record": record_name,
        "seed": head["seed"], "outcome": outcome_text(replay, w, names, printer.reason), "failure": failure,
        "steps": len(replay.steps), "css": asset("base.css") + asset("replay.css") + icons.css(),
        "data": json_in_html(data), "expert": head.get("expert", False),
        "slots": list(range(len(replay.final.get("row", [])))),
    }, script="replay.js")


@dataclass
class ReplayOutcome(PageOutcome):
    steps: int = 0
    cards: int = 0
    seconds: float = 0.0
    failure: str = ""


def build_replay(root: Path, opener: Callable[[], BinaryIO], record_name: str, target: Path, lang: str,
                 cache: Path | None = None, max_bytes: int | None = None) -> ReplayOutcome:
    """Read the record ``opener()`` opens, write its page to ``target``; findings for what is wrong.

    ``cache``: the output folder whose picture record the cards are drawn from and kept in."""
    from ..carddb.database import load_database  # lazy: loads yaml only when needed
    from .pictures import CardPictures  # lazy: loads jinja2, markdown_it ... only when needed

    started = time.perf_counter()
    outcome = ReplayOutcome()
    load = load_database(root)
    errors = [f for f in load.findings if f.severity == ERROR]
    if load.io_error or errors:
        outcome.findings = errors
        outcome.io_error = "the card database cannot be read" if load.io_error else ""
        return outcome
    books = load_phrasebooks(root)
    try:
        with opener() as stream:
            replay = read(load.db, books, stream, lang, max_bytes)
    except RecordError as exc:
        col = column(opener, exc.line, exc.message)
        outcome.findings.append(Finding(Position(record_name, exc.line, col), exc.rule, exc.message, exc.hint))
        return outcome
    if replay.failure is not None:
        exc = replay.failure
        outcome.failure = exc.message
        outcome.findings.append(Finding(Position(record_name, exc.line, column(opener, exc.line, exc.message)),
                                        exc.rule, exc.message, exc.hint))
    pictures = CardPictures(root, load.db, books, cache)
    text = page(load.db, books, replay, lang, pictures, Path(record_name).name)  # no folder of this machine
    outcome.steps, outcome.cards = len(replay.steps), len(replay.cards)
    write(target, text, outcome)
    pictures.save()
    outcome.seconds = time.perf_counter() - started
    return outcome

