"""Engine speed: complete games per second and decisions per second, per agent, and the --jobs 2 speed-up.

    python benchmarks/engine_speed.py [--games N] [--real] [--cpu-only] [--repeat K]

``--real`` loads the project's cards/ (forge.carddb.database) instead of the sample game.
The per-core figures are games per CPU-second of this process (``time.process_time``): on a
shared machine the wall clock counts the other programs' time too. ``--cpu-only`` prints only
those, ``--repeat K`` measures each K times (each run, then the median), and the load average is
printed before and after. Timed here, never in the test suite.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.engine import Game, HeuristicAgent, RandomAgent, run
from forge.engine.sample import sample_database
from forge.sim.simulate import PAIRINGS, Settings
from forge.sim.simulate import run as simulate_run


def load(real: bool):
    if not real:
        return sample_database()
    from forge.carddb.database import load_database
    return load_database(Path(__file__).resolve().parents[1]).db


def engine_only(db, agent_cls, games: int, clock=time.perf_counter) -> tuple[float, float, float]:
    """Bare engine loop: no invariants, no coverage, no log."""
    game = Game(db)
    decisions = turns = 0
    t = clock()
    for i in range(games):
        s = game.new_state(i, PAIRINGS[i % 12])
        run(s, [agent_cls(2 * i), agent_cls(2 * i + 1)])
        decisions += s.decisions
        turns += s.turn
    dt = clock() - t
    return games / dt, decisions / dt, turns / games


def simulate(db, agents: str, games: int, jobs: int) -> float:
    t = time.perf_counter()
    simulate_run(db, Settings(games=games, seed=1, jobs=jobs, agents=agents))
    return games / (time.perf_counter() - t)


def simulate_cpu(db, agents: str, games: int) -> float:
    """Games per CPU-second of one process (jobs 1): the per-core figure, whatever else the machine runs."""
    t = time.process_time()
    simulate_run(db, Settings(games=games, seed=1, jobs=1, agents=agents))
    return games / (time.process_time() - t)


def load_average() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def repeated(what: str, measure, k: int) -> None:
    """``measure()`` k times: each figure, then the median."""
    runs = [measure() for _ in range(k)]
    each = " ".join(f"{r:.1f}" for r in runs)
    print(f"{what}: {statistics.median(runs):7.1f} games per CPU-second" + (f" (median of {each})" if k > 1 else ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--cpu-only", action="store_true", help="only the per-core figures (games per CPU-second)")
    ap.add_argument("--repeat", type=int, default=1, help="measure each per-core figure this many times")
    args = ap.parse_args()
    db = load(args.real)
    print(f"database: {'cards/' if args.real else 'sample'}; {args.games} games per figure; {load_average()}")
    simulate_cpu(db, "heuristic", min(args.games, 24))  # warm up: the agent's tables, the imports
    for name, cls in (("heuristic", HeuristicAgent), ("random", RandomAgent)):
        repeated(f"engine only   {name:<9}", lambda cls=cls: engine_only(db, cls, args.games, time.process_time)[0], args.repeat)
        repeated(f"simulate      {name:<9}", lambda name=name: simulate_cpu(db, name, args.games), args.repeat)
    print("(simulate: one process, invariants checked after every step, coverage counted)")
    if args.cpu_only:
        print(load_average())
        return
    for name, cls in (("random", RandomAgent), ("heuristic", HeuristicAgent)):
        g, d, t = engine_only(db, cls, args.games)
        print(f"engine only   {name:<9}: {g:7.1f} games/s  {d:9.0f} decisions/s  ({t:.1f} turns/game)")
    for name in ("random", "heuristic"):
        j1 = simulate(db, name, args.games, 1)
        j2 = simulate(db, name, args.games, 2)
        print(f"simulate      {name:<9}: jobs 1 {j1:7.1f} games/s, jobs 2 {j2:7.1f} games/s "
              f"(x{j2 / j1:.2f}; invariants + coverage on)")
    print(load_average())


if __name__ == "__main__":
    main()
