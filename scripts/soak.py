"""A local soak of the rules engine: many simulated games with every invariant checked after every step.

    python scripts/soak.py --games 1000000 --jobs 2        # about an hour on 2 cores

The games are split evenly between the four ways to play (heuristic or random agents,
standard or expert variant), each over all 12 ordered pairings with its own seed. A
game that raises, breaks an invariant or hits a cap is counted; a failing game's record
is saved under output/soak/ for `forge replay`. Exit 1 when any game failed.
The fuzz half of the soak is Hypothesis: `HYPOTHESIS_PROFILE=soak pytest tests/validate/test_fuzz.py`.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from forge.core import atomic
from forge.carddb.database import load_database
from forge.engine.record import to_jsonl
from forge.sim.simulate import Settings, play_games

WAYS = (("heuristic", False), ("random", False), ("heuristic", True), ("random", True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in all, split between the four ways")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--root", type=Path, default=Path("."))
    args = parser.parse_args()
    load = load_database(args.root)
    if load.io_error or any(f.severity == "error" for f in load.findings):
        print("the card database has errors: run forge validate", file=sys.stderr)
        return 2
    out = args.root / "output" / "soak"
    total = {"games": 0, "errors": 0, "invariant": 0, "capped": 0, "decisions": 0}
    started = time.perf_counter()
    for way, (agents, expert) in enumerate(WAYS):
        settings = Settings(games=args.games // len(WAYS), seed=args.seed + way, jobs=args.jobs, agents=agents,
                            expert=expert, check=True)
        t0 = time.perf_counter()
        counts = {"games": 0, "errors": 0, "invariant": 0, "capped": 0, "decisions": 0}
        for outcome in play_games(load.db, settings):
            counts["games"] += 1
            counts["decisions"] += outcome.decisions
            if outcome.capped:
                counts["capped"] += 1
            if outcome.failed:
                counts["errors"] += 1
                counts["invariant"] += outcome.invariant
                atomic.write_text(out / f"{agents}-{'expert' if expert else 'standard'}-{outcome.index}.jsonl",
                                  to_jsonl(outcome.record or []))
        seconds = time.perf_counter() - t0
        print(f"{agents:9} {'expert' if expert else 'standard':8} seed {settings.seed}: {counts['games']:,} games, "
              f"{counts['decisions']:,} decisions, {counts['errors']} errors ({counts['invariant']} invariant), "
              f"{counts['capped']} capped, {seconds:.0f} s, {counts['games'] / seconds:.0f} games/s", flush=True)
        for key in total:
            total[key] += counts[key]
    seconds = time.perf_counter() - started
    print(f"total: {total['games']:,} games, {total['decisions']:,} decisions checked step by step, "
          f"{total['errors']} errors ({total['invariant']} invariant breaks), {total['capped']} capped, "
          f"{seconds / 60:.1f} min")
    return 1 if total["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
