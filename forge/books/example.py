"""The rulebook's worked example and setup diagram: a real game, played by the engine, replayed.

The example is not written by hand: ``templates/books/example.jsonl`` is the record of a
game the engine played (``forge.engine.record``), cut by its turn cap just after the turns
the rulebook shows. Each build replays it against the current cards and rules; a record
that no longer replays (a card or a rule changed) is a finding, never a wrong example.
The setup diagram deals the same game (same seed, same factions), so the table drawn in
the rulebook is the one the example goes on to play.

``search`` finds a seed whose shown turns hold everything a reader should see once: a
purchase, an activation, a trap in the opponent's window, a Guard and a Rite taken.
``refresh`` plays the example again when the cards changed under it (``forge sync`` and
``forge build`` call it): a deterministic search over bounded seeds, never a book without its example.
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS
from ..core import atomic, safeio
from ..core.atomic import write_text

EXAMPLE_FILE = "example.jsonl"
#: What the shown turns must hold, as record events (a trap must answer the active player's action).
WANTED = frozenset({"buy", "activate", "trap", "guard", "rite"})
#: The active player's actions a trap can answer in the opponent's window (six steps, 3).
ANSWERED = frozenset({"play", "summon", "activate", "buy"})
#: Events that start a new action in the text (a new paragraph).
ACTIONS = frozenset({"play", "summon", "activate", "buy", "trap", "raise", "end", "poison_damage"})
#: Events whose card is shown as a picture beside the turn.
PICTURED = ("play", "summon", "activate", "buy", "trap", "guard", "rite")
#: Events the text leaves out: the turn marker heads its section, the decision lines are the engine's.
_SILENT = frozenset({"turn", "decision", "setup", "capped"})
#: Decisions the text tells, as events of their own: they are the cause of what follows them
#: (the allegiance a raise gives, the cleanup an end of turn starts); the others show in their events.
TOLD_DECISIONS = frozenset({"raise", "end"})
#: Where the record lives in a project.
RECORD_PATH = Path("templates") / "books" / EXAMPLE_FILE
#: Seeds are tried in blocks, in order: the first block holding a game worth showing gives the game
#: (about a second a block); no game in the first MAX_SEEDS is a finding, never a search without end.
SEED_BLOCK = 32
MAX_SEEDS = 128
#: The search plays each game this far at most: the example prefers early turns, and a game cut by
#: its turn cap is the same game up to the cap (``record_text`` relies on it).
SEARCH_TURN_CAP = 40


@dataclass
class Moment:
    """The state of the table at one point of the replay, as the text quotes it."""

    health: tuple[int, int]
    allegiance: tuple[tuple[int, ...], tuple[int, ...]]
    field: tuple[tuple[str, ...], tuple[str, ...]]
    hand: tuple[int, int]
    rites: tuple[str | None, str | None]
    #: Where each card is (``field``, ``hand``, ``discard``, ``deck``, ``exile``…) and which are exhausted:
    #: what a sentence of the example says of its card is read here, never assumed.
    zone: dict[int, str] = field(default_factory=dict)
    exhausted: frozenset[int] = frozenset()


@dataclass
class Turn:
    """One shown turn: who plays it, the table at its start, and its events in order."""

    number: int
    player: int
    start: Moment
    events: list[tuple[dict, Moment]] = field(default_factory=list)


@dataclass
class Example:
    """A replayed record: the game's header, its opening deal and the shown turns."""

    seed: int
    factions: tuple[str, str]
    first: int
    row: tuple[str, ...]
    rites: tuple[str, ...]
    turns: list[Turn]


class ExampleError(ValueError):
    """The record cannot be shown: it does not replay, or holds no turn to show."""


_ZONES = ("field", "hand", "discard", "deck")


def _moment(state) -> Moment:
    defs = state.defs
    zone = {c: name for name in _ZONES for p in (0, 1) for c in getattr(state, name)[p]}
    zone.update((c, "exile") for c in state.exile)
    return Moment(tuple(state.health), tuple(tuple(a) for a in state.alleg),
                  tuple(tuple(defs[c].id for c in state.field[p]) for p in (0, 1)),
                  tuple(len(state.hand[p]) for p in (0, 1)),
                  tuple(r.id if r else None for r in state.rite_of), zone,
                  frozenset(c for p in (0, 1) for c in state.field[p] if state.exhausted[c]))


def deal(db: CardDatabase, seed: int, factions: tuple[str, str], first: int = 0):
    """The game's state after setup 1-7 (the table the setup diagram draws)."""
    from ..engine.game import Game  # lazy: loads forge.engine only when needed

    return Game(db).new_state(seed, factions, first=first)


def read(db: CardDatabase, text: str | bytes, shown: int = 2) -> Example:
    """Replay a record and keep its last ``shown`` full turns, each event with the table after it.

    Raises ExampleError when the record does not replay against ``db`` (the cards or the rules
    changed: ``forge sync`` plays the game again)."""
    from ..engine.record import RecordError, Replayer  # lazy: loads forge.engine only when needed

    replayer = Replayer(db)
    turns: list[Turn] = []
    try:
        for x in replayer.lines(io.BytesIO(text.encode("utf-8") if isinstance(text, str) else text)):
            state = replayer.state
            if x.get("e") == "turn":
                turns.append(Turn(x["turn"], x["player"], _moment(state)))
            elif x.get("t") == "event" and turns and x.get("e") not in _SILENT:
                turns[-1].events.append((x, _moment(state)))
            elif x.get("t") == "decision" and turns and x["action"][0] in TOLD_DECISIONS:
                turns[-1].events.append(({"e": x["action"][0], "player": x["player"]}, _moment(state)))
    except RecordError as exc:
        raise ExampleError(f"line {exc.line}: {exc}") from None
    head = replayer.head or {}
    if not turns or replayer.result is None:
        raise ExampleError("the record holds no turn")
    # the turn cap stops the game once the last shown turn is over: every turn of the record is whole
    if len(turns) < shown:
        raise ExampleError(f"the record holds {len(turns)} turns, the rulebook shows {shown}")
    start = deal(db, head["seed"], tuple(head["factions"]), head["first"])
    defs = start.defs
    return Example(head["seed"], tuple(head["factions"]), head["first"],
                   tuple(defs[c].id for c in start.row if c is not None),
                   tuple(c.id for c in db.rites()), turns[-shown:])


def replays(db: CardDatabase, text: str | bytes) -> bool:
    """Whether a record replays against ``db`` and holds the turns the rulebook shows."""
    try:
        read(db, text)
    except ExampleError:
        return False
    return True


# -- finding a game worth showing --------------------------------------------------------------
def _play(db: CardDatabase, seed: int, factions: tuple[str, str], turn_cap: int = SEARCH_TURN_CAP):
    from ..sim.agents import make_agent  # lazy: loads forge.engine, forge.sim only when needed
    from ..engine.game import Game  # lazy: loads forge.engine only when needed
    from ..engine.play import run  # lazy: loads forge.engine only when needed
    from ..sim.simulate import splitmix64  # lazy: loads forge.engine, forge.sim only when needed

    state = Game(db, turn_cap=turn_cap).new_state(seed, factions, first=0, log=True)
    agents = (make_agent("heuristic", splitmix64(seed ^ 1)), make_agent("heuristic", splitmix64(seed ^ 2)))
    return run(state, agents)


def shows_everything(events: list[dict]) -> bool:
    """Whether these events hold a purchase, an activation, a Guard, a Rite taken and a trap sprung
    right after the active player's action (in their opponent's window)."""
    events = [e for e in events if e.get("e") != "resolve"]  # the causes: not actions of their own
    kinds = {e.get("e") for e in events}
    answered = any(e.get("e") == "trap" and i and events[i - 1].get("e") in ANSWERED
                   and events[i - 1].get("player") != e.get("player") for i, e in enumerate(events))
    return WANTED <= kinds and answered


def search(db: CardDatabase, seeds: range, shown: int = 2) -> tuple[int, tuple[str, str], int] | None:
    """The (seed, factions, last turn) whose ``shown`` consecutive turns show everything, preferring the
    earliest turns (the shortest record, and a table still close to the setup), then the fewest events
    (the shortest text), then the first seed tried."""
    from ..engine.record import make_record  # lazy: loads forge.engine only when needed

    best = None
    pairings = [(a, b) for i, a in enumerate(FACTIONS) for b in FACTIONS[i + 1:]]
    for seed in seeds:
        for factions in pairings:
            record = make_record(_play(db, seed, factions))
            turns: list[list[dict]] = []
            for x in record:
                if x.get("e") == "turn":
                    turns.append([x])
                elif turns and x.get("t") == "event":
                    turns[-1].append(x)
            for i in range(len(turns) - shown + 1):
                events = [e for t in turns[i:i + shown] for e in t]
                last = turns[i + shown - 1][0]["turn"]
                if shows_everything(events) and (best is None or (last, len(events)) < best[:2]):
                    best = (last, len(events), seed, factions)
    return (best[2], best[3], best[0]) if best else None


def find(db: CardDatabase, block: int = SEED_BLOCK, limit: int = MAX_SEEDS):
    """``search`` over seeds 0.., a block at a time: the best game of the first block that holds one,
    or None when none of the first ``limit`` seeds does. Deterministic: the same cards, the same game."""
    for start in range(0, limit, block):
        found = search(db, range(start, min(start + block, limit)))
        if found:
            return found
    return None


@dataclass
class Refreshed:
    """A record written anew: which game, and how long finding it took."""

    path: str
    seed: int
    factions: tuple[str, str]
    last_turn: int
    seconds: float
    text: str

    def describe(self) -> str:
        return (f"played again: seed {self.seed}, {self.factions[0]} against {self.factions[1]}, "
                f"turns {self.last_turn - 1}-{self.last_turn} ({self.seconds:.1f} s)")


def refresh(root: Path, db: CardDatabase, write: bool = True) -> Refreshed | None:
    """Play the worked example again when its record is missing or no longer replays against ``db``.

    None when the record replays (nothing to do). With ``write`` False only says what would be
    written. Raises ExampleError when no seed in the bounded search shows everything, and
    ``safeio.UnsafeInput`` when the record is there but is not an ordinary file of the project
    (a link, a folder): forge never writes through it.
    """
    path = Path(root) / RECORD_PATH
    if not safeio.within(path, root):  # templates/books a link out of the project: never written through
        raise safeio.UnsafeInput(path, "outside-project", f"{RECORD_PATH.as_posix()} leads outside the project",
                                 "make templates/books an ordinary folder of the project")
    if path.exists() or path.is_symlink():
        try:
            current = safeio.read_bytes(path, root)
        except safeio.UnsafeInput as exc:
            if exc.rule != "too-large":
                raise
            current = b""
        if replays(db, current):
            return None
    started = time.perf_counter()
    found = find(db)
    if found is None:
        raise ExampleError(f"no game of seeds 0-{MAX_SEEDS - 1} shows a purchase, an activation, a trap in the "
                           "opponent's window, a Guard and a Rite taken in two turns")
    seed, factions, last_turn = found
    text = record_text(db, seed, factions, last_turn)
    read(db, text)  # the game found replays, or this is forge's bug, not the cards'
    if write:
        atomic.write_text(path, text)
    return Refreshed(RECORD_PATH.as_posix(), seed, factions, last_turn, time.perf_counter() - started, text)


def record_text(db: CardDatabase, seed: int, factions: tuple[str, str], last_turn: int) -> str:
    """The record of that game, stopped by its turn cap once ``last_turn`` is over."""
    from ..engine.record import make_record, to_jsonl  # lazy: loads forge.engine only when needed

    return to_jsonl(make_record(_play(db, seed, factions, turn_cap=last_turn), ("heuristic", "heuristic")))


def main(argv: list[str] | None = None) -> int:
    """``python -m forge.books.example --root . --seeds 0-100``: find a game and write its record."""
    from ..carddb.database import load_database  # lazy: loads yaml only when needed

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--root", default=".")
    parser.add_argument("--seeds", default=f"0-{SEED_BLOCK - 1}", help="a range of seeds to try, FIRST-LAST")
    parser.add_argument("--seed", type=int, help="this seed (with --factions and --last-turn), no search")
    parser.add_argument("--factions", default="red,white")
    parser.add_argument("--last-turn", type=int)
    args = parser.parse_args(argv)
    root = Path(args.root)
    db = load_database(root).db
    if args.seed is not None and args.last_turn:
        found = (args.seed, tuple(args.factions.split(",")), args.last_turn)
    else:
        first, _, last = args.seeds.partition("-")
        found = search(db, range(int(first), int(last or first) + 1))
    if found is None:
        print("no seed in that range shows everything; try more seeds", file=sys.stderr)
        return 1
    seed, factions, last_turn = found
    target = root / "templates" / "books" / EXAMPLE_FILE
    write_text(target, record_text(db, seed, factions, last_turn))
    print(f"{target}: seed {seed}, {factions[0]} against {factions[1]}, turns {last_turn - 1}-{last_turn}")
    return 0


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    raise SystemExit(main())
