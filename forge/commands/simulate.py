"""``forge simulate``: play many games over every pairing of factions and report."""
from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from .. import atomic
from ..engine.record import to_jsonl
from ..findings import ERROR
from ..simulate import Settings, render_text, run, to_json
from .common import Format, FormatOption, RootOption, check_root, emit_json, render_findings

REPLAY_DIR = Path("output") / "replays"


class AgentKind(str, Enum):
    random = "random"
    heuristic = "heuristic"


def simulate(
    games: int = typer.Option(120, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(0, "--seed", "-s", help="The run's seed; game i's seed derives from it."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (the results do not depend on it)."),
    agents: AgentKind = typer.Option(AgentKind.heuristic, "--agents",
                                     help="Who plays both seats: heuristic (balance) or random (fuzzing)."),
    expert: bool = typer.Option(False, "--expert", help="Use the expert variant (recruitment set-asides)."),
    turn_cap: int = typer.Option(200, "--turn-cap", min=1, help="Stop a game after this many turns."),
    decision_cap: int = typer.Option(20_000, "--decision-cap", min=1, help="Stop a game after this many decisions."),
    save_replays: bool = typer.Option(False, "--save-replays",
                                      help="Write every game's record under output/replays/ (failing games always are)."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
) -> None:
    """Play games over the 12 ordered faction pairings, check invariants after every step, report."""
    from ..database import load_database  # the loader pulls in YAML; only this command needs it

    check_root(root)
    load = load_database(root)
    errors = [f for f in load.findings if f.severity == ERROR]
    if load.io_error:
        typer.echo(render_findings(load.findings), err=True)
        raise typer.Exit(2)
    if errors:
        typer.echo(render_findings(errors), err=True)
        raise typer.Exit(1)
    settings = Settings(games=games, seed=seed, jobs=jobs, agents=agents.value, expert=expert,
                        turn_cap=turn_cap, decision_cap=decision_cap, record=save_replays)
    report = _run_with_progress(load.db, settings)
    replays: dict[int, str] = {}
    try:
        for o in report.errors + (report.saved if save_replays else []):
            if o.record:
                rel = REPLAY_DIR / f"game-{o.index:06d}-seed-{o.seed}.jsonl"
                atomic.write_text(root / rel, to_jsonl(o.record))
                replays[o.index] = str(rel)
    except OSError as exc:
        typer.echo(f"forge: error: cannot write a replay: {exc}", err=True)
        raise typer.Exit(2) from exc
    data = to_json(report, load.db, replays)
    if format is Format.json:
        emit_json(data)
    else:
        typer.echo(render_text(data))
    raise typer.Exit(0 if report.ok else 1)


def _run_with_progress(db, settings: Settings):
    if not sys.stderr.isatty():
        return run(db, settings)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), transient=True, console=_stderr_console()) as bar:
        task = bar.add_task("simulating", total=settings.games)
        return run(db, settings, progress=lambda n: bar.advance(task, n))


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def replay(
    record: Path = typer.Argument(..., help="A game record (.jsonl) written by forge simulate."),
    lang: str = typer.Option("en", "--lang", help="Language of the log: en or fr."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    decisions: bool = typer.Option(False, "--decisions", help="Show every raw decision in the log too."),
) -> None:
    """Replay a game record, check it reaches the recorded state, and print its log."""
    from ..database import load_database
    from ..engine.record import ReplayMismatch, from_jsonl, render
    from ..engine.record import replay as replay_record

    check_root(root)
    if lang not in ("en", "fr"):
        typer.echo(f"forge: error: --lang {lang}: choose en or fr", err=True)
        raise typer.Exit(2)
    try:
        lines = from_jsonl(record.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        typer.echo(f"forge: error: cannot read {record}: {exc}", err=True)
        raise typer.Exit(2) from exc
    load = load_database(root)
    if load.io_error or any(f.severity == ERROR for f in load.findings):
        typer.echo(render_findings(load.findings), err=True)
        raise typer.Exit(2 if load.io_error else 1)
    log = list(render(lines, load.db, lang, decisions=decisions))
    problem = None
    try:
        replay_record(load.db, lines)
    except ReplayMismatch as exc:
        problem = f"replay differs from the record: {exc}"
    except Exception as exc:  # noqa: BLE001 - a failing game's record replays up to its failure
        problem = f"the replay stops: {type(exc).__name__}: {exc}"
    if format is Format.json:
        emit_json({"record": str(record), "lang": lang, "ok": problem is None, "problem": problem, "log": log})
    else:
        for text in log:
            typer.echo(text)
        if problem:
            typer.echo(f"forge: {problem}", err=True)
    raise typer.Exit(1 if problem else 0)
