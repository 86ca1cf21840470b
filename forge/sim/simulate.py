"""Simulated games over every pairing of factions: outcomes, coverage, invariants.

Game ``i`` of a run with seed ``S`` has its own seed ``game_seed(S, i)`` and the
ordered pairing ``PAIRINGS[i % 12]`` (the first faction is seat 0 and plays
first), so the results do not depend on how many worker processes play them.
This module plays and aggregates; it writes nothing and prints nothing (the
command does).
"""
from __future__ import annotations

import traceback
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Callable, Iterable, Iterator

from .analysis import (CardTally, HealthTrack, add_health, card_effects, cost_curve, ending, endings,
                               faction_matrix, health_curves, length_summary, seat_advantage)
from .stats import wilson
from .agents import DEFAULT_BUDGET, make_agent
from ..engine import Game
from ..engine.invariants import InvariantChecker, InvariantError
from ..engine.play import run as run_game
from ..engine.record import make_record
from ..carddb.model import CardDatabase, Position
from ..carddb.vocabulary import FACTIONS
from ..core import workers
from ..core.findings import Finding

PAIRINGS: tuple[tuple[str, str], ...] = tuple((a, b) for a in FACTIONS for b in FACTIONS if a != b)
MASK64 = (1 << 64) - 1


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (63 bits)."""
    return splitmix64(splitmix64(seed & MASK64) ^ index) >> 1


@dataclass
class Settings:
    games: int = 100
    seed: int = 0
    jobs: int = 1
    agents: str = "heuristic"
    expert: bool = False
    turn_cap: int = 200
    decision_cap: int = 20_000
    check: bool = True
    record: bool = False  # keep every game's record (slower), not only failing ones
    budget: int = DEFAULT_BUDGET  # the search agent's iterations per decision
    backend: str = "local"  # or "ray" (forge.sim.cluster): the same games, on a cluster
    address: str | None = None  # the Ray cluster to join (None: start a local one)


@dataclass
class GameOutcome:
    """One simulated game, as data."""

    index: int
    seed: int
    factions: tuple[str, str]
    winner: int | None
    turns: int
    decisions: int
    capped: str | None = None
    error: str | None = None
    invariant: bool = False
    coverage: dict = field(default_factory=dict)
    record: list[dict] | None = None
    ending: str | None = None  # forge.sim.analysis.ENDINGS
    health: list[tuple[int, int, int]] = field(default_factory=list)  # (turn, seat 0, seat 1) at each turn's start
    no_cards: bool = False  # a player's deck and discard pile were both empty at the end
    market_empty: bool = False  # the recruit deck was empty at the end

    @property
    def failed(self) -> bool:
        return self.error is not None


def play_one(game: Game, settings: Settings, index: int) -> GameOutcome:
    """Play game ``index``; on an error or broken invariant, replay it with a log for the record."""
    seed = game_seed(settings.seed, index)
    factions = PAIRINGS[index % len(PAIRINGS)]
    try:
        track: list = []
        state = _play(game, settings, seed, factions, log=settings.record, track=track)
    except Exception as exc:  # every failure becomes a reported outcome
        msg = _describe(exc)
        state = None
        record = _failure_record(game, settings, seed, factions, msg)
        return GameOutcome(index, seed, factions, None, 0, 0, error=msg,
                           invariant=isinstance(exc, InvariantError), record=record)
    record = make_record(state, (settings.agents, settings.agents)) if settings.record else None
    return GameOutcome(index, seed, factions, state.winner, state.turn, state.decisions,
                       capped=state.capped, coverage=state.cov or {}, record=record,
                       ending=ending(state.winner, state.capped, state.lost_in), health=track,
                       no_cards=any(not state.deck[p] and not state.discard[p] for p in (0, 1)),
                       market_empty=not state.recruit)


def _play(game: Game, settings: Settings, seed: int, factions, log: bool, out: list | None = None,
          track: list | None = None):
    """One game to its end; ``track`` receives the health at each turn's start (HealthTrack)."""
    state = game.new_state(seed, factions, first=0, expert=settings.expert, log=log, coverage=True)
    if out is not None:
        out.append(state)
    agents = (make_agent(settings.agents, splitmix64(seed ^ 1), settings.budget),
              make_agent(settings.agents, splitmix64(seed ^ 2), settings.budget))
    check = InvariantChecker(state) if settings.check else None
    health = HealthTrack(state)
    if check is None:
        step = health
    else:
        check(state)
        holds = check.holds

        def step(s) -> None:  # after every decision: the cheap test, then the wording if it fails
            if not holds(s):
                check.check(s)
            if s.turn != health.last:
                health(s)

    run_game(state, agents, on_step=step)
    if track is not None:
        track.extend(health.finish(state))
    return state


def _failure_record(game: Game, settings: Settings, seed: int, factions, msg: str) -> list[dict]:
    """The same game again, logged, up to the failure (the engine is deterministic)."""
    out: list = []
    try:
        _play(game, settings, seed, factions, log=True, out=out)
    except Exception:  # the failure we are recording
        pass
    if not out:
        return [{"t": "header", "seed": seed, "factions": list(factions), "error": msg}]
    return make_record(out[0], (settings.agents, settings.agents), error=msg)


def _describe(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


# -- running many games -------------------------------------------------------------------

_WORKER: dict = {}
#: Games per batch at most: a worker's share of the run, played and counted as one partial Report,
#: big enough that sending a batch and its counts costs little next to playing it.
BATCH = 32
#: Batches in flight per worker: each worker has its next batch ready when one ends.
IN_FLIGHT = 2


def _init_worker(db: CardDatabase, settings: Settings) -> None:
    _WORKER["game"] = Game(db, turn_cap=settings.turn_cap, decision_cap=settings.decision_cap)
    _WORKER["settings"] = settings


def _work(indices: Iterable[int]) -> list[GameOutcome]:
    """Play games ``indices`` in this worker: every outcome (forge diff --simulate pairs them)."""
    return [play_one(_WORKER["game"], _WORKER["settings"], i) for i in indices]


def count(indices: Iterable[int]) -> "Report":
    """Play games ``indices`` in this worker and count them: the batch's partial report (Report.merge)."""
    part = Report(_WORKER["settings"])
    for i in indices:
        part.add(play_one(_WORKER["game"], _WORKER["settings"], i))
    return part


def batch_size(games: int, workers: int) -> int:
    """Games per batch: at most BATCH, fewer in a short run so that each worker gets several batches
    (the last batches decide when the run ends: small ones end close together)."""
    return max(1, min(BATCH, games // (IN_FLIGHT * workers)))


def batches(games: int, size: int) -> Iterator[range]:
    """Consecutive game indices, ``size`` at a time (ranges: a batch costs the same for any game count)."""
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def games_in(result) -> int:
    """How many games a batch's result holds (``count``'s report or ``_work``'s outcomes)."""
    return result.games if isinstance(result, Report) else len(result)


def play_batches(db: CardDatabase, settings: Settings, work: Callable,
                 progress: Callable[[int], None] | None = None) -> Iterator:
    """``work`` (``count`` or ``_work``) over the run's batches of games, results in game order: here
    with one job, on worker processes (``--jobs``, capped at the games and the cores), or on a Ray
    cluster (forge.sim.cluster, imported only then). The results do not depend on which."""
    if settings.backend == "ray":
        from . import cluster  # lazy: the Ray backend is an extra, loaded only for --backend ray

        yield from cluster.play_batches(db, settings, work, _init_worker,
                                        lambda cpus: batches(settings.games, batch_size(settings.games, cpus)),
                                        IN_FLIGHT, progress and (lambda result: progress(games_in(result))))
        return
    jobs = workers.cap(settings.jobs, settings.games)
    todo = batches(settings.games, batch_size(settings.games, jobs))
    if jobs <= 1:
        _init_worker(db, settings)
        yield from _progressing(map(work, todo), progress)
        return
    with workers.mp_pool(jobs, _init_worker, (db, settings)) as pool:  # terminated on the way out, Ctrl-C too
        yield from _progressing(pool.imap(work, todo), progress)


def _progressing(results: Iterable, progress: Callable[[int], None] | None) -> Iterator:
    for result in results:
        yield result
        if progress:
            progress(games_in(result))


def play_games(db: CardDatabase, settings: Settings,
               progress: Callable[[int], None] | None = None) -> Iterator[GameOutcome]:
    """Every outcome, in game order, whatever the number of jobs or the backend."""
    for outcomes in play_batches(db, settings, _work, progress):
        yield from outcomes


# -- the report ---------------------------------------------------------------------------

@dataclass
class Report:
    settings: Settings
    games: int = 0
    errors: list[GameOutcome] = field(default_factory=list)
    capped: list[GameOutcome] = field(default_factory=list)
    saved: list[GameOutcome] = field(default_factory=list)  # games with a record (--save-replays)
    coverage: Counter = field(default_factory=Counter)
    wins_by_faction: Counter = field(default_factory=Counter)
    games_by_faction: Counter = field(default_factory=Counter)
    wins_by_pairing: Counter = field(default_factory=Counter)
    games_by_pairing: Counter = field(default_factory=Counter)
    wins_by_seat: Counter = field(default_factory=Counter)
    decided: int = 0
    decisions: int = 0
    cards: CardTally = field(default_factory=CardTally)
    lengths: Counter = field(default_factory=Counter)  # game turns -> games (every game that did not fail)
    endings: Counter = field(default_factory=Counter)
    no_cards: int = 0
    market_empty: int = 0
    health: Counter = field(default_factory=Counter)  # (turn, winner|loser, health) -> games

    @property
    def ok(self) -> bool:
        return not self.errors

    def merge(self, other: "Report") -> None:
        """Add the partial report of the games that follow (a worker's batch). Every figure is an
        integer count or a list in game order, so merging batches in order gives exactly the report
        of one process adding each game; a field of another kind is refused, never dropped."""
        for name in _MERGED:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif isinstance(mine, int):
                setattr(self, name, mine + theirs)
            elif isinstance(mine, CardTally):
                mine.merge(theirs)
            else:  # pragma: no cover - a new kind of field needs its merge written here
                raise TypeError(f"Report.merge: no rule for {name} ({type(mine).__name__})")

    def add(self, o: GameOutcome) -> None:
        self.games += 1
        if o.failed:
            self.errors.append(o)
            return
        self.coverage.update(o.coverage)
        self.decisions += o.decisions
        if o.record is not None:
            self.saved.append(o)
        self.lengths[o.turns] += 1
        self.endings[o.ending] += 1
        self.no_cards += o.no_cards
        self.market_empty += o.market_empty
        if o.capped:
            self.capped.append(o)
            return
        pairing = f"{o.factions[0]}-{o.factions[1]}"
        self.games_by_pairing[pairing] += 1
        self.decided += 1
        for f in o.factions:
            self.games_by_faction[f] += 1
        if o.winner is not None:
            self.cards.add_game(o.coverage, o.winner)
            add_health(self.health, o.health, o.winner)
            self.wins_by_faction[o.factions[o.winner]] += 1
            self.wins_by_seat[o.winner] += 1
            if o.winner == 0:
                self.wins_by_pairing[pairing] += 1


#: The fields Report.merge adds up: all of them but the settings.
_MERGED = tuple(f.name for f in fields(Report) if f.name != "settings")


def card_coverage(report: Report, db: CardDatabase) -> list[dict]:
    """Per card: bought, played, activated, each line's resolutions, traps, Rites."""
    cov = report.coverage
    out = []
    for c in db.cards:
        lines = []
        for section in ("effects", "activate", "demise", "end_of_turn"):
            for i, ln in enumerate(getattr(c, section)):
                lines.append(_line_cov(cov, c.id, section, i, ln))
        index = 0
        for t in c.triggers:
            for ln in t.lines:
                lines.append(_line_cov(cov, c.id, "triggers", index, ln))
                index += 1
        entry = {"card": c.id, "type": c.type, "bought": cov[("bought", c.id)], "played": cov[("played", c.id)],
                 "activated": cov[("activated", c.id)], "lines": lines}
        if c.type == "trap" and c.trap:
            entry["sprung"] = {c.trap.kind: cov[("trap", c.id, c.trap.kind)]}
        if c.type == "rite":
            entry["taken"] = cov[("rite", c.id)]
        entry["gaps"] = _gaps(entry)
        out.append(entry)
    return out


def _line_cov(cov: Counter, card_id: str, section: str, i: int, ln) -> dict:
    d = {"section": section, "index": i, "verb": ln.verb}
    if ln.threshold:
        d["met"] = cov[("line", card_id, section, i, "met")]
        d["not_met"] = cov[("line", card_id, section, i, "not_met")]
    else:
        d["resolved"] = cov[("line", card_id, section, i, "resolved")]
    return d


def _gaps(entry: dict) -> list[str]:
    gaps = []
    for ln in entry["lines"]:
        where = f"{ln['section']}[{ln['index']}]"
        if "resolved" in ln and not ln["resolved"]:
            gaps.append(f"{where} never resolved")
        if "met" in ln and not ln["met"]:
            gaps.append(f"{where} threshold never met")
        if "not_met" in ln and not ln["not_met"]:
            gaps.append(f"{where} threshold never missed")
    return gaps


def run(db: CardDatabase, settings: Settings, progress: Callable[[int], None] | None = None) -> Report:
    """Play the run and count it. Several workers (or a Ray cluster) each count a batch of games and
    send back only those counts, merged here in game order: the very report one process gives."""
    report = Report(settings)
    for part in play_reports(db, settings, progress):
        report.merge(part)
    return report


def play_reports(db: CardDatabase, settings: Settings,
                 progress: Callable[[int], None] | None = None) -> Iterator[Report]:
    """The run's partial reports, one per batch, in game order (merged by ``run``)."""
    yield from play_batches(db, settings, count, progress)


def _median(counts: Counter):
    """statistics.median of the values ``counts`` counts, without listing them."""
    n = counts.total()
    lo, hi, seen = None, None, 0
    for value in sorted(counts):
        seen += counts[value]
        if lo is None and seen > (n - 1) // 2:
            lo = value
        if seen > n // 2:
            hi = value
            break
    return lo if n % 2 else (lo + hi) / 2


def _rate(w: int, n: int) -> float | None:
    return round(w / n, 4) if n else None


def to_json(report: Report, db: CardDatabase, replays: dict[int, str] | None = None) -> dict:
    s = report.settings
    t = report.lengths
    return {
        "settings": {"games": s.games, "seed": s.seed, "jobs": s.jobs, "agents": s.agents, "expert": s.expert,
                     "turn_cap": s.turn_cap, "decision_cap": s.decision_cap,
                     **({"budget": s.budget} if s.agents == "search" else {})},
        "games": report.games,
        "errors": [{"game": o.index, "seed": o.seed, "factions": list(o.factions), "error": o.error,
                    "invariant": o.invariant, "replay": (replays or {}).get(o.index)} for o in report.errors],
        "capped": [{"game": o.index, "seed": o.seed, "factions": list(o.factions), "reason": o.capped,
                    "turns": o.turns} for o in report.capped],
        "win_rate": {
            "by_faction": {f: _rate(report.wins_by_faction[f], report.games_by_faction[f]) for f in FACTIONS},
            "by_pairing": {k: _rate(report.wins_by_pairing[k], report.games_by_pairing[k])
                           for k in (f"{a}-{b}" for a, b in PAIRINGS)},
            "by_seat": {"first": _rate(report.wins_by_seat[0], report.decided),
                        "second": _rate(report.wins_by_seat[1], report.decided)},
        },
        "turns": {"mean": round(sum(k * n for k, n in t.items()) / t.total(), 2) if t else None,
                  "median": _median(t) if t else None, "min": min(t) if t else None, "max": max(t) if t else None},
        "decisions": report.decisions,
        "coverage": card_coverage(report, db),
        "balance": balance(report, db),
    }


def balance(report: Report, db: CardDatabase) -> dict:
    """Win rates with their sample sizes and 95 % intervals; per-card effects; the seat advantage;
    the faction matrix by seat, game lengths, endings, health over turns, the cost curve."""
    cards = card_effects(report.cards, [c.id for c in db.cards], {c.id for c in db.of_set("recruit")})
    return {
        "by_faction": {f: wilson(report.wins_by_faction[f], report.games_by_faction[f]).to_json() for f in FACTIONS},
        "by_pairing": {k: wilson(report.wins_by_pairing[k], report.games_by_pairing[k]).to_json()
                       for k in (f"{a}-{b}" for a, b in PAIRINGS)},
        "seat": seat_advantage(report.wins_by_seat[0], report.decided),
        "length": dict(sorted(report.lengths.items())),
        "cards": cards,
        "matrix": faction_matrix(report.wins_by_pairing, report.games_by_pairing, list(FACTIONS)),
        "lengths": length_summary(report.lengths),
        "endings": endings(report.endings, sum(report.endings.values()), report.no_cards, report.market_empty),
        "health": health_curves(report.health),
        "cost_curve": cost_curve(cards, db.of_set("recruit")),
    }


def render_text(data: dict) -> str:
    """The JSON report, rendered for people."""
    out = [f"DRAFT: {data['draft']}: these figures are not the game's"] if data.get("draft") else []
    s = data["settings"]
    budget = f", budget {s['budget']}" if "budget" in s else ""
    out.append(f"simulated {data['games']} games ({s['agents']} agents{budget}, seed {s['seed']}, "
               f"{s['jobs']} job{'' if s['jobs'] == 1 else 's'}{', expert variant' if s['expert'] else ''})")
    out.append(f"errors: {len(data['errors'])}")
    for e in data["errors"]:
        kind = "invariant broken" if e["invariant"] else "error"
        out.append(f"  game {e['game']} (seed {e['seed']}, {e['factions'][0]} vs {e['factions'][1]}): "
                   f"{kind}: {e['error']}" + (f"\n    replay: {e['replay']}" if e.get("replay") else ""))
    out.append(f"capped: {len(data['capped'])}")
    for c in data["capped"][:20]:
        out.append(f"  game {c['game']} (seed {c['seed']}, {c['factions'][0]} vs {c['factions'][1]}): "
                   f"{c['reason']} cap after {c['turns']} turns")
    t = data["turns"]
    out.append(f"game length (turns): mean {t['mean']}, median {t['median']}, min {t['min']}, max {t['max']}")

    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}%"

    b = data["balance"]
    out.append("win rate by faction (95 % interval, games):")
    for f, r in b["by_faction"].items():
        out.append(f"  {f:<12} {_rate_text(r)}")
    seat = b["seat"]
    out.append(f"first seat wins {_rate_text(seat['first'])}: "
               + ("a significant advantage" if seat["significant"] and seat["first"]["value"] > 0.5 else
                  "a significant disadvantage" if seat["significant"] else "not significantly different from 50 %")
               + f" (p = {seat['p_value']})")
    out.append("win rate of the first player by pairing (95 % interval, games):")
    for k, r in b["by_pairing"].items():
        out.append(f"  {k:<12} {_rate_text(r)}")
    out.append("win rate by faction and seat (first | second):")
    for f, r in b["matrix"]["by_seat"].items():
        out.append(f"  {f:<12} {_rate_text(r['first'])} | {_rate_text(r['second'])}")
    n = b["lengths"]
    out.append(f"game turns (both players'): median {n['median']} (quartiles {n['q1']}–{n['q3']}, "
               f"10–90 % {n['p10']}–{n['p90']}), {n['median_per_player']} per player")
    e = b["endings"]
    out.append("how games end: " + ", ".join(f"{k} {_rate_text(r)}" for k, r in e["kinds"].items()))
    out.append(f"  a player with no cards left to draw at the end: {_rate_text(e['no_cards'])}; "
               f"recruit deck empty: {_rate_text(e['market_empty'])}")
    flagged = [c for c in b["cards"] if c["significant"] or c["never_used"]]
    out.append(f"cards whose use goes with a significantly different win rate (Holm-corrected), or never used: "
               f"{len(flagged)}")
    for c in flagged:
        if c["never_used"]:
            out.append(f"  {c['card']:<28} never bought or played")
        for use in c["significant"]:
            d = c[use]
            out.append(f"  {c['card']:<28} {use}: {100 * d['a']['value']:.1f}% (n={d['a']['n']}) vs "
                       f"{100 * d['b']['value']:.1f}% without, {100 * d['value']:+.1f} points "
                       f"[{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]")
    out.append("card coverage (bought / played / activated; gaps):")
    for c in data["coverage"]:
        extra = ""
        if "sprung" in c:
            extra = " sprung " + ", ".join(f"{k} {v}" for k, v in c["sprung"].items())
        if "taken" in c:
            extra = f" taken {c['taken']}"
        gaps = "; ".join(c["gaps"])
        out.append(f"  {c['card']:<28} {c['bought']:>6} {c['played']:>6} {c['activated']:>6}{extra}"
                   + (f"  [{gaps}]" if gaps else ""))
    return "\n".join(out)


def _rate_text(r: dict) -> str:
    if r["value"] is None:
        return "– (0 games)"
    return f"{100 * r['value']:5.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}] of {r['n']}"


def smoke(db: CardDatabase, games: int, seed: int = 0, jobs: int = 1) -> tuple[list, dict]:
    """A quick batch of heuristic games as a gate (forge build, forge check): its findings and summary."""
    sim = run(db, Settings(games=games, seed=seed, jobs=jobs, agents="heuristic"))
    summary = {"games": sim.games, "errors": len(sim.errors), "capped": len(sim.capped),
               "seed": seed, "agents": "heuristic"}
    positions = {c.id: c.position for c in db.cards}
    factions = {f.id: f.position for f in db.factions}
    findings = []
    for o in sim.errors:
        last = _last_card(o.record or [], positions)
        # at the card last named, else (a failure before any card moved) where the first faction is defined
        where = positions[last] if last else factions.get(o.factions[0], Position("simulate"))
        findings.append(Finding(
            where, "simulate",
            f"game {o.index} (seed {o.seed}, {o.factions[0]} vs {o.factions[1]}) failed: {o.error}"
            + (f" (the last card the game's log names before the failure is `{last}`)" if last else ""),
            "replay it with `forge simulate --save-replays`"))
    return findings, summary


def _last_card(record: list[dict], positions: dict) -> str | None:
    """The card the failed game's log names last: where the finding points (a card file, line and
    column), as the card most likely being played or resolved when the game failed."""
    for entry in reversed(record):
        card = entry.get("card") if isinstance(entry, dict) else None
        if isinstance(card, str) and card in positions:
            return card
    return None
