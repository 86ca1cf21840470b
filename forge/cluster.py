"""``forge simulate --backend ray``: the same games, played on a Ray cluster.

Why Ray: one machine's cores are not enough for millions of games, and Ray runs the
same Python function on every core of a cluster with no server code of ours. The
games are cut into batches of consecutive indices; each batch is a Ray task that
plays its games exactly as the local backend does (forge.simulate.play_one: game
``i``'s seed and pairing depend on ``i`` only). The driver keeps a bounded window of
batches in flight and hands their outcomes on *in game order*, so forge.simulate's
aggregation receives the very sequence the local run gives it (the same report) and
never holds more than the window (``ordered``): memory does not grow with the games.

Ray is imported here only, and this module only when ``--backend ray`` is chosen:
``forge validate`` and the other commands never import it. docs/simulation.md says
how to run on several machines.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")

#: Games per task at most: big enough that Ray's per-task cost (~1 ms) is small next to the games;
#: a short run is cut smaller so that every CPU gets some (a search agent's game takes seconds).
BATCH = 32
#: Tasks in flight per CPU of the cluster: each CPU has the next batch ready when one ends.
IN_FLIGHT_PER_CPU = 2


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached: a usage problem, not a bug."""


def batches(games: int, size: int = BATCH) -> Iterator[range]:
    """Consecutive game indices, ``size`` at a time (ranges: a batch costs the same for any game count)."""
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


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
        import ray
    except ImportError:
        raise ClusterError("Ray is not installed; install it with `pip install 'ray>=2.9'` "
                           "(see docs/simulation.md)") from None
    return ray


# Each Ray worker process compiles the card database once per run, not once per batch.
_CACHE: dict = {}


def _play_batch(holder: list, settings, indices: range) -> list:
    """A Ray task: play the games ``indices`` (``holder`` wraps the database's object ref so
    that Ray does not fetch and unpickle it for every task)."""
    from . import simulate

    ray = _ray()
    key = (holder[0].hex(), settings)
    if _CACHE.get("key") != key:
        simulate._init_worker(ray.get(holder[0]), settings)
        _CACHE["key"] = key
    return simulate._work(list(indices))


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
            ray.init(num_cpus=cpus, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Ray cluster{f' at {address}' if address else ''}: {exc}") from None
    return ray, True


def play_games(db, settings, progress: Callable[[int], None] | None = None) -> Iterator:
    """Every outcome, in game order, played on the cluster (forge.simulate.play_games's contract)."""
    ray, started = connect(settings.address, settings.jobs)
    try:
        task = ray.remote(_play_batch).options(num_cpus=1, max_retries=2)
        holder = [ray.put(db)]
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

        def fetch(ref) -> list:
            try:
                outcomes = ray.get(ref)
            except ray.exceptions.RayError as exc:  # a worker or node lost more often than retried
                raise ClusterError(f"a batch of games failed on the cluster: {exc}") from None
            if progress:
                progress(len(outcomes))
            return outcomes

        size = max(1, min(BATCH, settings.games // (IN_FLIGHT_PER_CPU * cpus)))
        yield from ordered(batches(settings.games, size), lambda idx: task.remote(holder, settings, idx), fetch,
                           IN_FLIGHT_PER_CPU * cpus)
    finally:
        if started:
            ray.shutdown()
