"""How strong is the search agent? Its win rate against the heuristic agent, with its Wilson interval.

    python benchmarks/search_strength.py [--deals 48] [--budget 64] [--horizon 2] [--jobs 2] [--seed 0]
                                         [--no-tactics]   (purchases searched, tactical play the guide's)

A fair sample: deal ``d`` is played twice, the search agent in seat 0 then in seat 1, on the
same cards (the same game seed) and the ordered pairing ``PAIRINGS[d % 12]``, so every
pairing and both seats are played equally (use a multiple of 12 deals). Also reports the
time per search decision (wall clock: load on the machine changes it, the games do not).
The target (issue 12 §3) is a win rate of 65 % or more.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from forge.core import workers
from forge.sim.stats import wilson
from forge.engine import Game, HeuristicAgent, Observation
from forge.sim.agents.search import SearchAgent
from forge.sim.simulate import PAIRINGS, game_seed, splitmix64

_W: dict = {}


def _init(budget: int, horizon: int, tactics: bool = True) -> None:
    from forge.carddb.database import load_database

    _W.update(game=Game(load_database(ROOT).db), budget=budget, horizon=horizon, tactics=tactics)


def play(job: tuple[int, int]) -> tuple[int, int, str, int, int, float, int]:
    """(deal, search seat, pairing, winner or -1, search decisions, search seconds, turns)."""
    seed, deal, seat = job
    gs = game_seed(seed, deal)
    factions = PAIRINGS[deal % len(PAIRINGS)]
    s = _W["game"].new_state(gs, factions)
    search = SearchAgent(splitmix64(gs ^ 11), budget=_W["budget"], horizon=_W["horizon"], tactics=_W["tactics"])
    agents = [HeuristicAgent(splitmix64(gs ^ 1)), HeuristicAgent(splitmix64(gs ^ 2))]
    agents[seat] = search
    views = (Observation(s, 0), Observation(s, 1))
    decisions, spent = 0, 0.0
    while not s.terminal:
        p = s.pending
        if p == seat:
            t = time.perf_counter()
            a = search.act(views[p], s.options)
            spent += time.perf_counter() - t
            decisions += 1
        else:
            a = agents[p].act(views[p], s.options)
        s.apply(a)
    winner = -1 if s.winner is None else s.winner
    return deal, seat, f"{factions[0]}-{factions[1]}", winner, decisions, spent, s.turn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=48)
    ap.add_argument("--budget", type=int, default=64)
    ap.add_argument("--horizon", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-tactics", dest="tactics", action="store_false",
                    help="search the purchases only (tactical play left to the heuristic guide)")
    args = ap.parse_args()
    jobs = [(args.seed, d, seat) for d in range(args.deals) for seat in (0, 1)]
    rows = []
    started = time.perf_counter()
    n = workers.cap(args.jobs, len(jobs))
    if n <= 1:
        _init(args.budget, args.horizon, args.tactics)
        rows = [play(j) for j in jobs]
    else:
        with workers.mp_pool(n, _init, (args.budget, args.horizon, args.tactics)) as pool:
            for row in pool.imap(play, jobs):  # forge.core.workers.OrderedPool: results in job order
                rows.append(row)
                print(f"  deal {row[0]} seat {row[1]} {row[2]}: "
                      f"{'search' if row[3] == row[1] else 'heuristic' if row[3] >= 0 else 'nobody'} wins",
                      file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    wins = sum(r[3] == r[1] for r in rows)
    rate = wilson(wins, len(rows))
    decisions = sum(r[4] for r in rows)
    spent = sum(r[5] for r in rows)
    what = "" if args.tactics else ", purchases only"
    print(f"search (budget {args.budget}, horizon {args.horizon}{what}) vs heuristic, seed {args.seed}: "
          f"{wins}/{len(rows)} games won = {100 * rate.value:.1f}% "
          f"[{100 * rate.low:.1f}-{100 * rate.high:.1f}] (95 % Wilson)")
    for seat in (0, 1):
        sub = [r for r in rows if r[1] == seat]
        w = sum(r[3] == r[1] for r in sub)
        print(f"  search in seat {seat}: {w}/{len(sub)}")
    for k in sorted({r[2] for r in rows}):
        sub = [r for r in rows if r[2] == k]
        print(f"  {k:<12} {sum(r[3] == r[1] for r in sub)}/{len(sub)}")
    print(f"time per search decision: {1000 * spent / max(decisions, 1):.1f} ms over {decisions} decisions; "
          f"{wall:.0f} s wall on {n} processes")


if __name__ == "__main__":
    main()
