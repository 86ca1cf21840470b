"""``forge simulate --backend ray``: the same games, played on a Ray cluster.

Why Ray: one machine's cores are not enough for millions of games, and Ray runs the
same Python function on every core of a cluster with no server code of ours. The
games are cut into batches of consecutive indices (forge.sim.simulate.batches); each batch
is a Ray task that plays its games exactly as the local backend does (game ``i``'s seed
and pairing depend on ``i`` only) and sends back only their counts, a partial
``Report`` of a few kilobytes whatever the batch holds. The driver keeps a bounded
window of batches in flight and merges their counts *in game order* (``ordered``,
``Report.merge``): the report is exactly the local run's, the driver's work is small next
to the games' (benchmarks/ray_scaling.py reports it), and its memory does not grow with the
number of games.

A cluster forge starts itself (no ``--address``) is a single machine's: its servers
listen on the loopback interface only (``start_local``). Ray is imported here only, and
this module only when ``--backend ray`` is chosen: ``forge validate`` and the other
commands never import it. docs/simulation.md says how to run on several machines.
"""
from __future__ import annotations

import os
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

from forge.core.compat.ray import single_machine_reading

T = TypeVar("T")

#: Ray's switch for clusters of several machines (on by default on Linux). Off, a node takes
#: 127.0.0.1 as its address, and its servers (GCS, raylet, object manager, workers, the driver)
#: listen on loopback only. Ray reads it once, when it is imported.
MULTI_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached: a usage problem, not a bug."""


def ordered(work: Iterable[T], submit: Callable[[T], object], fetch: Callable[[object], list],
            window: int) -> Iterator:
    """Submit ``work`` items, at most ``window`` pending, and yield each one's results in submission order."""
    pending: deque = deque()
    for item in work:
        pending.append(submit(item))
        if len(pending) >= window:
            yield from fetch(pending.popleft())
    while pending:
        yield from fetch(pending.popleft())


def _ray():
    try:
        import ray  # lazy: an optional extra, imported when used
    except ImportError:
        raise ClusterError("Ray is not installed: the ray backend is an extra; install it with "
                           "`pip install 'forge[ray]'` (see docs/simulation.md)") from None
    return ray


@contextmanager
def _single_machine() -> Iterator:
    """While a local cluster starts, make Ray treat this machine as the whole cluster (loopback
    address, loopback listeners). Ray reads the variable when it is imported, and the processes
    ``ray.init`` starts inherit it; this process's own reading is set too (it may have imported
    Ray before), then both are put back, so that joining a real cluster later is not affected."""
    saved = os.environ.get(MULTI_MACHINE)
    os.environ[MULTI_MACHINE] = "0"
    try:
        ray = _ray()
        with single_machine_reading():
            yield ray
    finally:
        if saved is None:
            os.environ.pop(MULTI_MACHINE, None)
        else:
            os.environ[MULTI_MACHINE] = saved


def start_local(cpus: int):
    """Start a local cluster of ``cpus`` CPUs whose servers listen on 127.0.0.1 only; the ray module."""
    with _single_machine() as ray:
        ray.init(num_cpus=cpus, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    return ray


# Each Ray worker process compiles the card database once per run, not once per batch.
_CACHE: dict = {}


def _ready(holder: list, settings, init: Callable) -> None:
    """This worker's game and settings for the run (``holder`` wraps the database's object ref so
    that Ray does not fetch and unpickle it for every task); ``init`` is forge.sim.simulate's worker set-up."""
    ray = _ray()
    key = (holder[0].hex(), settings)
    if _CACHE.get("key") != key:
        init(ray.get(holder[0]), settings)
        _CACHE["key"] = key


def _batch(holder: list, settings, work, indices: range, init: Callable) -> list:
    """A Ray task: ``work`` (forge.sim.simulate.count: the batch's counts; or _work: its outcomes) over the
    games ``indices``, in a list (``ordered`` yields its items)."""
    _ready(holder, settings, init)
    return [work(indices)]


def connect(address: str | None, cpus: int):
    """Join the cluster at ``address``, or start a local one with ``cpus`` CPUs; reuse a session
    already started in this process. Returns (ray, whether we started it, so must stop it)."""
    ray = _ray()
    if ray.is_initialized():
        return ray, False
    try:
        if address:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        else:
            start_local(cpus)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Ray cluster{f' at {address}' if address else ''}: {exc}") from None
    return ray, True


def play_batches(db, settings, work, init: Callable, plan: Callable[[int], Iterable[range]], window: int,
                 progress: Callable[[object], None] | None = None) -> Iterator:
    """``work`` over every batch of the run, on the cluster, results in game order
    (forge.sim.simulate.play_batches's contract). forge.sim.simulate passes what it decides: ``init`` sets up a
    worker, ``plan(cpus)`` gives the batches, ``window`` batches are in flight per CPU, ``progress`` sees each result."""
    ray, started = connect(settings.address, settings.jobs)
    try:
        task = ray.remote(_batch).options(num_cpus=1, max_retries=2)
        holder = [ray.put(db)]
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

        def fetch(ref) -> list:
            try:
                results = ray.get(ref)
            except ray.exceptions.RayError as exc:  # a worker or node lost more often than retried
                raise ClusterError(f"a batch of games failed on the cluster: {exc}") from None
            if progress:
                progress(results[0])
            return results

        yield from ordered(plan(cpus), lambda idx: task.remote(holder, settings, work, idx, init), fetch, window * cpus)
    finally:
        if started:
            ray.shutdown()
