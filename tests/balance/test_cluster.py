"""forge simulate --backend ray: the same report as the local run, bounded memory, Ray imported only then.

One real local Ray cluster (2 CPUs, no dashboard) serves every test here: it is started by
the first test that asks for it and shut down after this module's last test, not at the end
of the session, so that no later test forks a process while Ray's threads and sockets are
open in it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc

import pytest
from typer.testing import CliRunner

from forge import cluster
from forge.simulate import GameOutcome, Report, Settings, play_games, run, to_json
from tests.conftest import REPO


@pytest.fixture(scope="module")
def ray_cluster():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    print(f"ray cluster started in {time.perf_counter() - started:.1f} s")  # shown with pytest -s; never asserted
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def db():
    from forge.database import load_database

    return load_database(REPO).db


def test_ray_report_is_the_local_report(ray_cluster, db):
    settings = Settings(games=40, seed=11, jobs=2)
    local = to_json(run(db, settings), db)
    ray_settings = Settings(games=40, seed=11, jobs=2, backend="ray")
    outcomes = list(play_games(db, ray_settings))
    assert [o.index for o in outcomes] == list(range(40))  # streamed back in game order
    remote = to_json(run(db, ray_settings), db)
    assert remote == local
    assert ray_cluster.is_initialized()  # a session it did not start is left running


def test_cli_backend_ray_prints_the_local_report(ray_cluster):
    from forge.cli import app

    root = str(REPO)
    runner = CliRunner()
    args = ["simulate", "--root", root, "--games", "12", "--seed", "2", "--format", "json"]
    local = runner.invoke(app, args)
    remote = runner.invoke(app, args + ["--backend", "ray"])
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_address_needs_the_ray_backend():
    from forge.cli import app

    result = CliRunner().invoke(app, ["simulate", "--root", str(REPO), "--games", "1", "--address", "127.0.0.1:1"])
    assert result.exit_code == 2
    assert "--backend ray" in result.output


def test_ordered_keeps_order_and_a_bounded_window():
    submitted, live = [], []

    def submit(batch):
        submitted.append(batch)
        live.append(batch)
        return batch

    def fetch(batch):
        live.remove(batch)
        return [i * 10 for i in batch]

    out = list(cluster.ordered(cluster.batches(103, 8), submit, fetch, window=3))
    assert out == [i * 10 for i in range(103)]
    assert len(submitted) == 13 and not live


def test_aggregation_memory_does_not_grow_with_games(db):
    """The driver's whole path (batches in flight, then the report's counts) holds as much after
    10,000 games as after 1,000: tracemalloc's current size does not follow the games."""
    played = list(play_games(db, Settings(games=12, seed=1)))
    # Each fake game is a played one with a part of its coverage (the same counting, faster).
    coverages = [{k: o.coverage[k] for k in sorted(o.coverage, key=repr)[:60]} for o in played]

    def submit(batch):
        return [GameOutcome(i, 0, played[i % 12].factions, played[i % 12].winner, 10 + i % 7, 100,
                            coverage=coverages[i % 12]) for i in batch]

    report = Report(Settings(games=10_000))
    tracemalloc.start()
    try:
        sizes = {}
        for o in cluster.ordered(cluster.batches(10_000, 32), submit, lambda b: b, window=4):
            report.add(o)
            if report.games in (1_000, 10_000):
                sizes[report.games] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert report.games == 10_000 and report.decided + len(report.capped) == 10_000
    # Keeping one small int per game would add 72 KB over these 9,000 games.
    assert sizes[10_000] - sizes[1_000] < 16 * 1024, sizes


def test_forge_validate_and_local_simulate_never_import_ray():
    code = ("import sys\nfrom forge.cli import main\n"
            "for argv in (['forge', 'validate', '--root', sys.argv[1]],\n"
            "             ['forge', 'simulate', '--root', sys.argv[1], '--games', '2']):\n"
            "    sys.argv = argv\n"
            "    try:\n        main()\n    except SystemExit:\n        pass\n"
            "print('RAY' if 'ray' in sys.modules else 'NO RAY', file=sys.stderr)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.stderr.strip().splitlines()[-1] == "NO RAY", done.stderr[-2000:]
