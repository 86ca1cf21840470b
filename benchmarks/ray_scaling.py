"""forge simulate --backend ray on a local cluster: games per second with one worker and with two.

    python benchmarks/ray_scaling.py [--games 960] [--agents heuristic]

Starts a local Ray cluster of 1 CPU, then one of 2 CPUs (each timed apart: the cluster's
start is reported, not counted in the games per second), plays the same games on each, and
checks that the two reports are identical. The target (issue 12 §4) is a speed-up of 1.8 or
more; on a machine whose other processes use the cores, the figure says so too.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from forge.sim.simulate import Settings, run, to_json


def measure(db, cpus: int, games: int, agents: str) -> tuple[float, float, dict, float]:
    from forge.sim.cluster import start_local

    t = time.perf_counter()
    ray = start_local(cpus)  # as `forge simulate --backend ray` starts it: loopback only
    start = time.perf_counter() - t
    try:
        settings = Settings(games=games, seed=1, jobs=cpus, agents=agents, backend="ray")
        run(db, Settings(games=4 * cpus, seed=2, jobs=cpus, backend="ray"))  # every worker up and warm
        t, cpu = time.perf_counter(), time.process_time()
        report = run(db, settings)
        rate = games / (time.perf_counter() - t)
        driver = time.process_time() - cpu
    finally:
        ray.shutdown()
    data = to_json(report, db)
    del data["settings"]  # --jobs differs; every figure must not
    return start, rate, data, driver


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=960)
    ap.add_argument("--agents", default="heuristic")
    args = ap.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from forge.carddb.database import load_database

    db = load_database(ROOT).db
    one = measure(db, 1, args.games, args.agents)
    two = measure(db, 2, args.games, args.agents)
    for n, m in ((1, one), (2, two)):
        print(f"ray, {n} worker{'s' if n > 1 else ' '}: {m[1]:.1f} games/s (cluster started in {m[0]:.1f} s; "
              f"the driver used {m[3]:.2f} CPU-s for the {args.games} games)")
    print(f"speed-up: {two[1] / one[1]:.2f}x; same report: {one[2] == two[2]}; "
          f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
