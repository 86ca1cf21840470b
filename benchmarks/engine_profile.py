"""Profile the engine's hot path (cProfile), random agents on the sample game.

    python benchmarks/engine_profile.py [--games N] [--heuristic] [--top K]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.engine import Game, HeuristicAgent, RandomAgent, run  # noqa: E402
from forge.engine.sample import sample_database  # noqa: E402
from forge.simulate import PAIRINGS  # noqa: E402


def play(games: int, cls) -> None:
    game = Game(sample_database())
    for i in range(games):
        run(game.new_state(i, PAIRINGS[i % 12]), [cls(2 * i), cls(2 * i + 1)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--heuristic", action="store_true")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    cls = HeuristicAgent if args.heuristic else RandomAgent
    prof = cProfile.Profile()
    prof.runcall(play, args.games, cls)
    pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
