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

from forge.sim import cluster
from forge.sim.simulate import GameOutcome, Report, Settings, batches, play_games, play_reports, run, to_json
from tests.conftest import REPO


@pytest.fixture(scope="module")
def ray_cluster():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = time.perf_counter()
    ray = cluster.start_local(2)  # what `forge simulate --backend ray` starts without --address
    print(f"ray cluster started in {time.perf_counter() - started:.1f} s")  # shown with pytest -s; never asserted
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def db():
    from forge.carddb.database import load_database

    return load_database(REPO).db


def test_ray_report_is_the_local_report(ray_cluster, db):
    """A seeded run is exact: 16 games (4 batches of 4 on 2 CPUs, as 40 games made 4 of 10) give the local
    run's report."""
    games = 16
    settings = Settings(games=games, seed=11, jobs=2)
    local = to_json(run(db, settings), db)
    ray_settings = Settings(games=games, seed=11, jobs=2, backend="ray")
    outcomes = list(play_games(db, ray_settings))
    assert [o.index for o in outcomes] == list(range(games))  # streamed back in game order
    parts = list(play_reports(db, ray_settings))  # what the driver receives: each batch's counts only
    assert len(parts) > 2 and [p.games for p in parts] == [len(b) for b in batches(games, len(outcomes) // len(parts))]
    assert all(isinstance(p, Report) for p in parts)
    remote = to_json(run(db, ray_settings), db)
    assert remote == local
    assert ray_cluster.is_initialized()  # a session it did not start is left running


def test_cli_backend_ray_prints_the_local_report(ray_cluster, cli):

    root = str(REPO)
    args = ["simulate", "--root", root, "--games", "12", "--seed", "2", "--format", "json"]
    local = cli(args)
    remote = cli(args + ["--backend", "ray"])
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_address_needs_the_ray_backend(cli):

    result = cli(["simulate", "--root", str(REPO), "--games", "1", "--address", "127.0.0.1:1"])
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

    out = list(cluster.ordered(batches(103, 8), submit, fetch, window=3))
    assert out == [i * 10 for i in range(103)]
    assert len(submitted) == 13 and not live


def test_aggregation_memory_does_not_grow_with_games(db):
    """The driver's whole path (batches in flight, then merging their counts) holds as much after
    10,000 games as after 1,000: tracemalloc's current size does not follow the games."""
    played = list(play_games(db, Settings(games=12, seed=1)))
    # Each fake game is a played one with a part of its coverage (the same counting, faster).
    coverages = [{k: o.coverage[k] for k in sorted(o.coverage, key=repr)[:60]} for o in played]

    def submit(batch):  # a worker: counts its batch, sends the partial report
        part = Report(Settings(games=10_000))
        for i in batch:
            part.add(GameOutcome(i, 0, played[i % 12].factions, played[i % 12].winner, 10 + i % 7, 100,
                                 coverage=coverages[i % 12]))
        return [part]

    report = Report(Settings(games=10_000))
    tracemalloc.start()
    try:
        sizes = {}
        for part in cluster.ordered(batches(10_000, 32), submit, lambda b: b, window=4):
            report.merge(part)
            if report.games in (992, 9_920):  # the batch ends nearest 1,000 and 10,000 games
                sizes[report.games] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert report.games == 10_000 and report.decided + len(report.capped) == 10_000
    # Keeping one small int per game would add 72 KB over these 9,000 games.
    assert sizes[9_920] - sizes[992] < 16 * 1024, sizes


def _listening(pids: set[int]) -> list[str]:
    """The TCP addresses on which processes ``pids`` listen (read from /proc: no tool needed)."""
    import ipaddress

    inodes = {}
    for name in ("tcp", "tcp6"):
        with open(f"/proc/net/{name}") as f:
            for row in f.read().splitlines()[1:]:
                cols = row.split()
                if cols[3] != "0A":  # LISTEN
                    continue
                hexip, port = cols[1].split(":")
                raw = bytes.fromhex(hexip)
                raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))  # each word is little-endian
                inodes[cols[9]] = (ipaddress.ip_address(raw), int(port, 16))
    found = []
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:  # the process has ended
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:[") and link[8:-1] in inodes:
                found.append(inodes[link[8:-1]])
    return found


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [root]
    while todo:
        pid = todo.pop()
        out.add(pid)
        todo += children.get(pid, [])
    return out


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux's /proc")
def test_a_local_cluster_listens_on_loopback_only(ray_cluster):
    """Every server of the local cluster (GCS, raylet, workers, this driver) is reachable from this
    machine only: a Ray cluster runs whatever code it is sent."""
    ray_cluster.get([ray_cluster.remote(lambda: 1).remote() for _ in range(4)])  # the workers are up
    addresses = _listening(_descendants(os.getpid()))
    assert len(addresses) >= 3, addresses  # the GCS, the raylet and the driver at least
    not_loopback = [(str(ip), port) for ip, port in addresses
                    if not (ip.is_loopback or (getattr(ip, "ipv4_mapped", None) or ip).is_loopback)]
    assert not not_loopback, f"listening beyond loopback: {not_loopback}"


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


def test_the_ray_backend_without_ray_names_the_extra(monkeypatch, cli):
    """Ray is an extra (forge[ray]): without it, --backend ray is a usage error that says what to install."""

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    result = cli(["simulate", "--root", str(REPO), "--games", "1", "--backend", "ray"])
    assert result.exit_code == 2
    assert "pip install 'forge[ray]'" in result.output
    assert "Traceback" not in result.output
