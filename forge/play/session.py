"""One game being played: the engine's state, the AI seats' agents, and the record as it grows.

The record is the game: a human's decision is applied only when it is one of the
engine's legal options at the decision the page was shown (``decision`` counts
them), the AI seats answer at once, and the record (JSON lines, as ``forge
replay`` reads them) is extended line by line, so writing it after each move
costs a join, not a new serialisation of the whole game. A record read back is
replayed decision by decision, each AI seat's agent asked again at its own
decisions, so the agents remember what they had seen and the game goes on as if
the server had never stopped.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass

from ..sim.agents import make_agent
from ..engine import Action, Game, IllegalDecision, Observation
from ..engine.agents import AGENTS
from ..engine.record import event_json, header, result
from ..sim.simulate import splitmix64

#: What a seat of the record's header says when a person plays it.
HUMAN = "human"
SEATS = (HUMAN, *sorted(AGENTS))


class PlayError(Exception):
    """A request the game refuses, with the HTTP status that says why (4xx) and a reason for people."""

    def __init__(self, status: int, reason: str, **details) -> None:
        super().__init__(reason)
        self.status, self.reason, self.details = status, reason, details


def agent_seed(seed: int, player: int) -> int:
    """The seed of the agent in seat ``player`` (as ``forge simulate`` seeds its agents)."""
    return splitmix64(seed ^ (player + 1))


def _line(x: dict) -> str:
    """One record line, written exactly as ``forge.engine.record.to_jsonl`` writes it."""
    return json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass
class Moved:
    """What one human decision cost: the engine's time for it and the AI's answers after it (seconds)."""

    human: float
    ai: float
    ai_decisions: int


class Session:
    """A game between a person and the AI, two people on one screen (hot-seat) or on two machines (remote)."""

    def __init__(self, gid: str, game: Game, seed: int, factions: tuple[str, str], first: int,
                 seats: tuple[str, str], expert: bool = False, remote: bool = False) -> None:
        if any(s not in SEATS for s in seats):
            raise PlayError(422, f"a seat is played by one of {', '.join(SEATS)}, not {seats!r}")
        if HUMAN not in seats:
            raise PlayError(422, "at least one seat is played by a person")
        self.gid, self.seats, self.remote = gid, seats, remote
        self.abandoned: int | None = None  # the seat that left the game (forge.play.seats keeps it)
        try:
            self.state = game.new_state(seed, factions, first=first, expert=expert, log=True)
        except ValueError as exc:
            raise PlayError(422, str(exc)) from None
        self.agents = tuple(None if s == HUMAN else make_agent(s, agent_seed(seed, p)) for p, s in enumerate(seats))
        self.views = (Observation(self.state, 0), Observation(self.state, 1))
        self.lock = threading.Lock()  # held briefly: never across an await
        self.serial = None  # the server's asyncio.Lock that queues this game's moves (forge.play.server)
        self.events: list[dict] = []  # every record line after the header, as JSON objects
        self.error: str | None = None
        self.worded: dict[str, list[str]] = {}  # lang -> the log's lines worded so far (forge.play.views)
        self.worded_upto: dict[str, int] = {}
        self.version = 0  # counts the changes a live page is told of (forge.play.live)
        # the clock: seconds each seat's decisions have waited on it, since this server holds the game
        self.clock = [0.0, 0.0]
        self._clock_at = time.monotonic()
        self.saved: tuple[int, int] | None = None  # (lines, bytes) of self._text on disk before the trailer
        first_line = _line(header(self.state, seats))
        self._text = [first_line]
        self._sha = hashlib.sha256(first_line.encode("utf-8"))
        self._take_log()

    # -- what the page asks ---------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.terminal or self.error is not None or self.abandoned is not None

    def humans(self) -> tuple[int, ...]:
        return tuple(p for p, s in enumerate(self.seats) if s == HUMAN)

    def is_hotseat(self) -> bool:
        return self.seats == (HUMAN, HUMAN) and not self.remote

    @property
    def mode(self) -> str:
        return "remote" if self.remote else "hotseat" if self.is_hotseat() else "ai"

    def clock_ms(self) -> list[int]:
        """Each seat's time so far, the running decision's included (milliseconds)."""
        out = list(self.clock)
        if not self.over:
            out[self.state.pending] += time.monotonic() - self._clock_at
        return [round(t * 1000) for t in out]

    def _tick(self, seat: int) -> None:
        now = time.monotonic()
        self.clock[seat] += now - self._clock_at
        self._clock_at = now

    def abandon(self, seat: int) -> None:
        """``seat`` leaves the game: no decision is taken any more (the record stays as it was)."""
        if self.over:
            raise PlayError(409, "the game is over already")
        self._tick(self.state.pending)
        self.abandoned = seat
        self.version += 1

    # -- playing ----------------------------------------------------------------------------
    def decide(self, seat: int, decision: int, action: Action) -> Moved:
        """Apply a person's decision, then the AI's answers until a person decides again or the game ends.

        Refused (PlayError, the state unchanged) unless ``decision`` is the one pending, it is
        ``seat``'s and a person's, and ``action`` is one of the engine's legal options.
        """
        s = self.state
        if self.over:
            raise PlayError(409, "the game is over: no decision is pending")
        if decision != s.decisions:
            raise PlayError(409, f"stale decision: it was decision {decision}, the game is at decision "
                            f"{s.decisions} now (reload the board)", pending=s.decisions)
        if s.pending != seat:
            raise PlayError(409, f"decision {decision} is player {s.pending + 1}'s, not player {seat + 1}'s")
        if self.agents[seat] is not None:
            raise PlayError(403, f"seat {seat + 1} is played by the AI")
        if action not in s.options:
            raise PlayError(422, f"{' '.join(map(str, action))!s} is not a legal option at decision {decision} "
                            f"({s.decision_kind()})", legal=[list(o) for o in s.options])
        self._tick(seat)
        start = time.perf_counter()
        self._apply(s.options[s.options.index(action)])
        human = time.perf_counter() - start
        ai, count = self.run_agents()
        self.version += 1
        return Moved(human, ai, count)

    def run_agents(self) -> tuple[float, int]:
        """Let the AI seats decide until a person's decision or the end: (seconds, decisions)."""
        s = self.state
        start, count = time.perf_counter(), 0
        while not self.over and self.agents[s.pending] is not None:
            p = s.pending
            self._apply(self.agents[p].act(self.views[p], s.options))
            self._tick(p)
            count += 1
        return time.perf_counter() - start, count

    def _apply(self, action: Action) -> None:
        try:
            self.state.apply(action)
        except IllegalDecision as exc:  # an agent's mistake: the game cannot go on, its record says why
            self.error = f"IllegalDecision: {exc}"
        except Exception as exc:  # an engine failure ends this game, not the server
            self.error = f"{type(exc).__name__}: {exc}"
        self._take_log()

    # -- the record -------------------------------------------------------------------------
    def _take_log(self) -> None:
        """Move what the engine logged into the record (the engine's own list stays short)."""
        log = self.state.log
        for entry in log:
            x = event_json(self.state, entry)
            self.events.append(x)
            text = _line(x)
            self._text.append(text)
            self._sha.update(text.encode("utf-8"))
        log.clear()

    def trailer(self) -> str:
        """The record's last two lines for the state now: a result line and the closing line (its count
        and checksum)."""
        res = result(self.state)
        if self.error:
            res["error"] = self.error
        last = _line(res)
        sha = self._sha.copy()
        sha.update(last.encode("utf-8"))
        return last + _line({"t": "end", "lines": len(self._text) + 1, "sha256": sha.hexdigest()})

    def record_text(self) -> str:
        """The record as it stands: its lines, a result line of the state now, and the closing line.

        ``forge replay`` reads it at any moment of the game and reaches the same digest.
        """
        return "".join(self._text) + self.trailer()

    def unsaved(self) -> tuple[str, int]:
        """The lines written since the last save and how many lines the record holds now (forge.play.store
        appends them, then the trailer)."""
        done = self.saved[0] if self.saved else 0
        return "".join(self._text[done:]), len(self._text)


def restore(gid: str, game: Game, lines: list[dict], remote: bool = False) -> Session:
    """The session of a checked record (``forge.engine.record.replay`` read it whole): dealt again,
    every decision applied in order, each AI seat's agent asked at its own decisions first."""
    head = lines[0]
    seats = tuple(head["agents"])
    session = Session(gid, game, head["seed"], tuple(head["factions"]), head["first"], seats, head["expert"], remote)
    s = session.state
    for x in lines[1:]:
        if x.get("t") != "decision":
            continue
        p = x["player"]
        if session.agents[p] is not None:
            session.agents[p].act(session.views[p], s.options)  # the agent sees what it saw the first time
        session._apply(Action.from_json(x["action"]))
        if session.error:
            break
    final = lines[-1]
    if final.get("t") == "result" and final.get("error"):
        session.error = final["error"]
    return session
