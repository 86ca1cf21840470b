"""``forge simulate``: play many games over every pairing of factions and report."""
from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..core import atomic, safeio
from ..core.findings import ERROR
from ..core.limits import DEFAULT_SEARCH_BUDGET, MAX_DECISION_CAP, MAX_SEARCH_BUDGET, MAX_TURN_CAP
from ..core.workers import cap
from .common import (Format, FormatOption, RootOption, check_root, default_output, emit_json, fail, inside_project,
                     io_failure, render_findings)

REPLAY_DIR = Path("output") / "replays"
REPORT_DIR = "balance"  #: the balance report's folder inside the output folder
#: A record streams, so it may be far larger than safeio's limit; this only stops an absurd file.
MAX_RECORD_BYTES = 1 << 30


class AgentKind(str, Enum):
    random = "random"
    heuristic = "heuristic"
    search = "search"


class Backend(str, Enum):
    local = "local"
    ray = "ray"


def simulate(
    games: int = typer.Option(120, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="The run's seed; game i's seed derives from it."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (the results do not depend on it)."),
    agents: AgentKind = typer.Option(AgentKind.heuristic, "--agent", "--agents",
                                     help="Who plays both seats: heuristic (balance), search (stronger, slower: "
                                          "see --budget) or random (fuzzing)."),
    budget: int = typer.Option(DEFAULT_SEARCH_BUDGET, "--budget", min=1, max=MAX_SEARCH_BUDGET,
                               help="The search agent's iterations per decision (more: stronger and slower)."),
    backend: Backend = typer.Option(Backend.local, "--backend",
                                    help="local: worker processes here (--jobs); ray: a Ray cluster (docs/simulation.md)."),
    address: str = typer.Option(None, "--address",
                                help="With --backend ray: the cluster to join (HOST:PORT of `ray start --head`); "
                                     "without it a local cluster of --jobs CPUs is started and stopped."),
    expert: bool = typer.Option(False, "--expert", help="Use the expert variant (recruitment set-asides)."),
    turn_cap: int = typer.Option(200, "--turn-cap", min=1, max=MAX_TURN_CAP, help="Stop a game after this many turns."),
    decision_cap: int = typer.Option(20_000, "--decision-cap", min=1, max=MAX_DECISION_CAP,
                                     help="Stop a game after this many decisions."),
    save_replays: bool = typer.Option(False, "--save-replays",
                                      help="Write every game's record under output/replays/ (failing games always are)."),
    report: bool = typer.Option(False, "--report",
                                help="Also write the balance report: charts (PNG, SVG) and report.html under "
                                     "output/balance/."),
    proofs: bool = typer.Option(True, "--proofs/--no-proofs", help="With --report: each card's face on the proof sheet."),
    out: Optional[Path] = typer.Option(None, "--out", help="Output folder for --report (default: ROOT/output)."),
    force: bool = typer.Option(False, "--force", help="Simulate even when forge validate refuses the cards: the "
                                                      "figures and the report are then marked DRAFT."),
    played: Optional[Path] = typer.Option(None, "--played", file_okay=False,
                                          help="Read the games people played (forge play's records, e.g. "
                                               "output/play/games, or testers' records gathered in a folder) "
                                               "instead of simulating: the same figures, and the human seats "
                                               "against the AI's."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
) -> None:
    """Play games over the 12 ordered faction pairings, check invariants after every step, report.

    Example: forge simulate --games 1200 --jobs 2 --seed 7
    Example: forge simulate --games 2400 --jobs 2 --report   (charts and output/balance/report.html)
    """
    from ..engine.record import to_jsonl  # lazy: loads forge.carddb, forge.engine only when needed
    from ..sim.cluster import ClusterError  # lazy: loads forge.sim only when needed
    from ..checks.gate import judge  # lazy: loads forge.checks only when needed
    from ..sim.simulate import Settings, render_text, to_json  # lazy: loads forge.carddb, forge.engine ... only when needed

    check_root(root)
    verdict = judge(root, prints_text=False)  # one gate: what validate refuses gives no figures (but a draft)
    load = verdict.load
    unloaded = [f for f in load.findings if f.severity == ERROR]
    if load.io_error or unloaded or (verdict.errors and not force):
        typer.echo(render_findings(verdict.findings), err=True)
        typer.echo("forge: error: the card database has errors; fix them (forge validate)"
                   + ("" if load.io_error or unloaded else ", or simulate a DRAFT with --force"), err=True)
        raise typer.Exit(2 if load.io_error else 1)
    draft = verdict.draft_reason()
    if draft:
        typer.echo(f"warning: simulating a DRAFT: {draft}; the figures are not the game's", err=True)
    settings = Settings(games=games, seed=seed, jobs=cap(jobs, games), agents=agents.value, expert=expert,
                        turn_cap=turn_cap, decision_cap=decision_cap, record=save_replays, budget=budget,
                        backend=backend.value, address=address)
    if address and backend is not Backend.ray:
        typer.echo("forge: error: --address needs --backend ray", err=True)
        raise typer.Exit(2)
    if played is not None:
        _report_played(played, load.db, root, out, format, proofs, draft, report)
    try:
        sim = _run_with_progress(load.db, settings)
    except ClusterError as exc:
        typer.echo(f"forge: error: {exc}", err=True)
        raise typer.Exit(2) from None
    replays: dict[int, str] = {}
    if save_replays or sim.errors:
        atomic.confine(inside_project(root / REPLAY_DIR, root, format))
    try:
        for o in sim.errors + (sim.saved if save_replays else []):
            if o.record:
                rel = REPLAY_DIR / f"game-{o.index:06d}-seed-{o.seed}.jsonl"
                atomic.write_text(inside_project(root / rel, root, format), to_jsonl(o.record))
                replays[o.index] = str(rel)
    except OSError as exc:  # one line: the replay's path and the reason; earlier replays are kept
        io_failure(exc, format)
    data = to_json(sim, load.db, replays)
    if draft:
        data["draft"] = draft
    written = _write_report(data, load.db, root, out, format, proofs) if report else []
    if format is Format.json:
        emit_json({**data, "report": written} if report else data)
    else:
        typer.echo(render_text(data))
        if written:
            typer.echo(f"balance report: {written[-1]} and {len(written) - 1} more files in {Path(written[-1]).parent}")
    raise typer.Exit(0 if sim.ok else 1)


def _write_report(data: dict, db, root: Path, out: Path | None, format: Format, proofs: bool) -> list[str]:
    """Write the charts, report.html (last) and balance.json under OUT/balance/; the paths written."""
    from ..balance.report import build  # lazy: loads forge.balance, forge.carddb ... only when needed

    folder = default_output(root, out, format) / REPORT_DIR
    files = build(data, db, root, proofs=proofs).files
    written = []
    try:
        for name in sorted(files, key=lambda n: n == "report.html"):
            atomic.write_bytes(folder / name, files[name])
            written.append(str(folder / name))
    except OSError as exc:
        io_failure(exc, format)
    return written


def _report_played(folder: Path, db, root: Path, out: Path | None, format: Format, proofs: bool, draft: str,
                   report: bool) -> None:
    """``--played``: the people's games through the simulate report's own figures (forge.balance.humans)."""
    from ..balance.humans import human_figures, read_played, render_humans  # lazy: loads forge.balance, forge.carddb ... only when needed
    from ..sim.simulate import render_text, to_json  # lazy: loads forge.carddb, forge.engine ... only when needed

    if not folder.is_dir():
        typer.echo(f"forge: error: {folder}: no such folder of game records", err=True)
        raise typer.Exit(2)
    games = read_played(folder, db, str(folder))
    if games.findings:
        typer.echo(render_findings(games.findings), err=True)
    data = to_json(games.report, db)
    data["humans"] = human_figures(games, db)
    if draft:
        data["draft"] = draft
    written = _write_report(data, db, root, out, format, proofs) if report else []
    if format is Format.json:
        emit_json({**data, "report": written} if report else data)
    else:
        typer.echo(render_text(data))
        typer.echo(render_humans(data["humans"]))
        if written:
            typer.echo(f"balance report: {written[-1]} and {len(written) - 1} more files in {Path(written[-1]).parent}")
    raise typer.Exit(1 if games.findings or not games.report.ok else 0)


def _run_with_progress(db, settings):
    from ..sim.simulate import run  # lazy: loads forge.carddb, forge.engine ... only when needed

    if not sys.stderr.isatty():
        return run(db, settings)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn  # lazy: loads rich only when needed

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("simulating", total=settings.games)
        return run(db, settings, progress=lambda n: bar.advance(task, n))


def _stderr_console():
    from rich.console import Console  # lazy: loads rich only when needed

    return Console(stderr=True)


def replay(
    record: Path = typer.Argument(..., help="A game record (.jsonl) written by forge simulate."),
    lang: str = typer.Option("en", "--lang", help="Language of the log: en or fr."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    decisions: bool = typer.Option(False, "--decisions", help="Show every raw decision in the log too."),
    html: bool = typer.Option(False, "--html", help="Write the replay viewer instead: one self-contained page that "
                                                    "steps through the game as board views, with the log."),
    out: Optional[Path] = typer.Option(None, "--out", help="With --html: the page to write (default: "
                                                           "ROOT/output/replays/<record>-<lang>.html)."),
) -> None:
    """Replay a game record, check it reaches the recorded state, and print its log (or, with --html, write
    a page that steps through it).

    Example: forge replay output/replays/game-000007-seed-42.jsonl --lang fr --html
    """
    # The record streams: each line is checked, replayed and printed before the next is read.
    # Exit 1 for a bad record (FILE:LINE: [record] ...), 2 when the file cannot be read.
    from ..carddb.database import load_database  # lazy: loads yaml, forge.carddb only when needed
    from ..engine.record import RecordError, Replayer  # lazy: loads forge.carddb, forge.engine only when needed
    from ..text.narrate import LogPrinter  # lazy: loads forge.carddb, forge.engine ... only when needed
    from ..text.cardtext import PhraseError, load_phrasebooks  # lazy: loads forge.carddb, forge.text only when needed

    check_root(root)
    if lang not in ("en", "fr"):
        typer.echo(f"forge: error: --lang {lang}: choose en or fr", err=True)
        raise typer.Exit(2)
    if out is not None and not html:
        fail("--out names the page --html writes; add --html", format)
    if html:
        from .render import refuse_a_refused_database  # lazy: loads forge.carddb only when needed

        refuse_a_refused_database(root, format, prints_text=False)  # one gate: a refused database makes no page
        _replay_page(record, root, lang, out, format)
    try:
        stream = _open_record(record, root)
    except safeio.UnsafeInput as exc:
        typer.echo(f"{record}: [{exc.rule}] {exc.message}" + (f"\n    hint: {exc.hint}" if exc.hint else ""),
                   err=True)
        raise typer.Exit(2) from None
    with stream:
        load = load_database(root)
        if load.io_error or any(f.severity == ERROR for f in load.findings):
            typer.echo(render_findings(load.findings), err=True)
            raise typer.Exit(2 if load.io_error else 1)
        try:
            books = load_phrasebooks(root)
        except PhraseError as exc:  # the log's phrases are the locales'
            typer.echo(f"forge: error: {exc}", err=True)
            raise typer.Exit(2) from None
        printer = LogPrinter(load.db, books, lang, decisions)
        log: list[str] = []
        problem: RecordError | None = None
        try:
            for x in Replayer(load.db).lines(stream, max_bytes=MAX_RECORD_BYTES):
                text = printer(x)
                if text is None:
                    continue
                if format is Format.json:
                    log.append(text)
                else:
                    typer.echo(text)
        except RecordError as exc:
            problem = exc
        except OSError as exc:
            typer.echo(f"{record}: [io] cannot read the file ({exc.strerror or exc})", err=True)
            raise typer.Exit(2) from None
    if format is Format.json:
        emit_json({"record": str(record), "lang": lang, "ok": problem is None,
                   "problem": problem.message if problem else None, "line": problem.line if problem else None,
                   "rule": problem.rule if problem else None, "hint": problem.hint if problem else None,
                   "log": log})
    elif problem:
        typer.echo(f"{record}:{problem.line}: [{problem.rule}] {problem.message}\n    hint: {problem.hint}",
                   err=True)
    raise typer.Exit(1 if problem else 0)


def _replay_page(record: Path, root: Path, lang: str, out: Path | None, format: Format) -> None:
    """``forge replay FILE --html``: write the replay viewer, report, exit (1: a finding, 2: I/O)."""
    from ..web.replay import build_replay  # lazy: loads forge.carddb, forge.engine ... only when needed
    from .web import report_page  # lazy: loads forge.carddb only when needed

    try:
        _open_record(record, root).close()  # refused before anything is loaded: a folder, a FIFO, a link out
    except safeio.UnsafeInput as exc:
        fail(f"{record}: [{exc.rule}] {exc.message}", format, exc.hint)
    except OSError as exc:
        fail(f"{record}: [io] cannot read the file ({exc.strerror or exc})", format)
    if out is None:
        target = inside_project(root / REPLAY_DIR, root, format) / f"{record.stem}-{lang}.html"
        cache = default_output(root, None, format)
    else:
        target, cache = out, None
        atomic.confine(Path(os.path.abspath(out)).parent)
    outcome = build_replay(root, lambda: _open_record(record, root), str(record), target, lang, cache,
                           MAX_RECORD_BYTES)
    report_page(outcome, format, {"record": str(record), "lang": lang, "steps": outcome.steps, "cards": outcome.cards},
                f"{outcome.steps} steps, {outcome.cards} cards", failed=bool(outcome.failure))


def _open_record(path: Path, root: Path):
    """The record opened for streaming, or safeio.UnsafeInput before a byte is read.

    A path named on the command line may lie outside the project; a link inside the
    project that leads out of it is refused (forge.core.safeio). Folders, FIFOs and devices
    are refused on the opened descriptor; the size limit is far above safeio's 10 MB
    since the record is streamed, never held.
    """
    where = Path(os.path.abspath(path))
    inside = safeio.inside(where.parent.resolve() / where.name, safeio.allowed_folders(root))
    return safeio.open_input(path, root if inside else None, MAX_RECORD_BYTES)
