"""Profile the engine's hot path (cProfile): the sample game by default, or the simulation path.

    python benchmarks/engine_profile.py [--games N] [--heuristic] [--top K] [--real] [--simulate]

``--real`` plays the project's cards/ (forge.carddb.database) instead of the sample game; ``--simulate``
profiles what ``forge simulate`` runs for each game (forge.sim.simulate.run, one process: heuristic
agents, invariants checked after every step, coverage counted), the path issue 12 §2 measures.
cProfile's clock is the wall clock: compare profiles taken on a quiet machine, and measure speed
with benchmarks/engine_speed.py (CPU time).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.engine import Game, HeuristicAgent, RandomAgent, run
from forge.engine.sample import sample_database
from forge.sim.simulate import PAIRINGS, Settings
from forge.sim.simulate import run as simulate_run


def play(db, games: int, cls) -> None:
    game = Game(db)
    for i in range(games):
        run(game.new_state(i, PAIRINGS[i % 12]), [cls(2 * i), cls(2 * i + 1)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--heuristic", action="store_true")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--real", action="store_true", help="the project's cards/, not the sample game")
    ap.add_argument("--simulate", action="store_true", help="forge simulate's path (heuristic, invariants on)")
    args = ap.parse_args()
    if args.real:
        from forge.carddb.database import load_database
        db = load_database(Path(__file__).resolve().parents[1]).db
    else:
        db = sample_database()
    prof = cProfile.Profile()
    if args.simulate:
        simulate_run(db, Settings(games=24, seed=1, jobs=1))  # warm up: the agent's tables, the imports
        prof.runcall(simulate_run, db, Settings(games=args.games, seed=1, jobs=1))
    else:
        prof.runcall(play, db, args.games, HeuristicAgent if args.heuristic else RandomAgent)
    pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
