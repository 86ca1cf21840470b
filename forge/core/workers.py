"""Worker processes that never outlive forge, a Ctrl-C that stops everything, and a sane --jobs.

Three pools do forge's work: card rendering (forge.render.cards), the books
(forge.books.build) and simulated games (forge.sim.simulate). They share this module:

- ``init_worker`` starts every worker. Ctrl-C at a terminal sends SIGINT to the whole
  process group: workers ignore it and only the parent acts (it stops the pool, prints one
  line and exits 130), so no worker prints a traceback. On Linux a worker asks the kernel to
  SIGKILL it when its parent dies (``prctl(PR_SET_PDEATHSIG)``), so ``kill -9`` of forge
  leaves nothing writing into ``output/``; it then checks that the parent is still there,
  since it may have died before the request was made. Off Linux that request is skipped.
  The signal comes when the *thread* that started the worker ends: every pool here starts its
  workers from the main thread (with fork, a ProcessPoolExecutor starts them all at its first job,
  which ``process_pool`` submits at once).
- SIGTERM (the parent stopping the pool) makes a worker remove the temporary file it is
  writing (forge.core.atomic) and exit at once.
- ``cap`` bounds --jobs: no more processes than work items or cores.
- ``trap_interrupts`` makes SIGINT raise ``Interrupted``, which forge.cli.main reports.
  Typer would turn a KeyboardInterrupt into a silent exit 130; a BaseException that is not a
  KeyboardInterrupt passes through it, and through every ``except Exception``. While a pool
  starts its workers, Ctrl-C waits (interrupted half-way, the pool would leave workers that
  no one stops), and a worker forked before its initializer ran ignores the handler it inherited.
- ``process_pool`` (a ProcessPoolExecutor) and ``mp_pool`` (its ``imap``, results in order) stop
  their workers at once on Ctrl-C: SIGTERM, then SIGKILL for a worker still there after a grace
  period, so a worker that missed its SIGTERM cannot hold forge up: on Ctrl-C nothing waits for
  a worker, or for a lock a worker may hold, without a deadline.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from . import atomic

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
# multiprocessing and concurrent.futures are imported where a pool starts: every command imports this
# module (forge.cli traps Ctrl-C with it), and most never start a pool.

PR_SET_PDEATHSIG = 1
#: How long stopped workers get to remove their temporary files before they are killed.
GRACE_SECONDS = 3.0


class Interrupted(BaseException):
    """The user pressed Ctrl-C (SIGINT)."""


#: owner: the process that called trap_interrupts; deferring/pending: Ctrl-C while a pool is being built.
_SIGINT = {"owner": None, "deferring": False, "pending": False}


def _raise_interrupted(signum, frame) -> None:
    if os.getpid() != _SIGINT["owner"]:
        return  # a worker forked before init_worker ran inherits this handler: the parent handles Ctrl-C
    if _SIGINT["deferring"]:
        _SIGINT["pending"] = True
        return
    raise Interrupted()


def trap_interrupts() -> None:
    """From now on SIGINT raises Interrupted in the main thread (call it from main())."""
    _SIGINT.update(owner=os.getpid(), deferring=False, pending=False)
    signal.signal(signal.SIGINT, _raise_interrupted)


@contextmanager
def _building() -> Iterator[None]:
    """Ctrl-C waits while a pool starts its workers: interrupted half-way, it would leave workers no one stops."""
    outer = _SIGINT["deferring"]
    _SIGINT["deferring"] = True
    try:
        yield
    finally:
        _SIGINT["deferring"] = outer


def _raise_deferred() -> None:
    """Raise the Ctrl-C that came while a pool was being built."""
    if _SIGINT["pending"] and not _SIGINT["deferring"]:
        _SIGINT["pending"] = False
        raise Interrupted()


def cpus() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cap(asked: int, items: int) -> int:
    """Worker processes worth starting: at most one per work item and one per core, at least one."""
    return max(1, min(asked, items, cpus()))


def mp_context():
    """Fork where it exists: workers start fast and inherit the loaded modules."""
    import multiprocessing  # lazy: keeps multiprocessing out of forge's start-up

    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def die_with_parent(parent: int) -> None:
    """Ask the kernel to SIGKILL this process when its parent dies; exit now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # lazy: keeps ctypes out of forge's start-up

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL),
                       ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
        except (OSError, AttributeError):  # no libc or no prctl: the getppid check below still helps
            pass
    if os.getppid() != parent:
        os._exit(1)


def _on_terminate(signum, frame) -> None:
    atomic.discard_pending()
    os._exit(128 + signum)


def init_worker(parent: int, then: Callable | None = None, args: tuple = ()) -> None:
    """The initializer of every worker: ignore Ctrl-C, die with the parent, clean up on SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_terminate)
    die_with_parent(parent)
    if then is not None:
        then(*args)


def initializer(then: Callable | None = None, args: tuple = ()) -> dict:
    """Keyword arguments that give a pool ``init_worker`` (then ``then(*args)``) as initializer."""
    return {"initializer": init_worker, "initargs": (os.getpid(), then, args)}


@contextmanager
def process_pool(workers: int, then: Callable | None = None, args: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A ProcessPoolExecutor of ``workers`` processes set up by ``init_worker``.

    On Ctrl-C its workers are stopped at once instead of finishing their jobs; on
    another error the jobs not started are dropped and the running ones finish
    (each writes its file atomically or not at all).
    """
    from concurrent.futures import ProcessPoolExecutor  # lazy: keeps concurrent out of forge's start-up

    with _building():
        started = ProcessPoolExecutor(max_workers=workers, mp_context=mp_context(), **initializer(then, args))
        started.submit(int).result()  # with fork, the first job starts every worker: here, where Ctrl-C waits
    try:
        _raise_deferred()
        yield started
    except (Interrupted, KeyboardInterrupt):
        stop(started)
        raise
    except BaseException:
        started.shutdown(wait=True, cancel_futures=True)
        raise
    started.shutdown(wait=True)


@contextmanager
def mp_pool(processes: int, then: Callable | None = None, args: tuple = ()) -> Iterator[OrderedPool]:
    """A pool with ``imap`` (results in order, as ``multiprocessing.Pool.imap``) over ``process_pool``, whose
    workers are stopped on the way out, Ctrl-C included, without ever waiting for a worker without a deadline.

    It was a ``multiprocessing.Pool``, whose ``terminate()`` hung about once in a few hundred Ctrl-Cs under
    load: it joins its workers and its own threads with no timeout, but a worker can miss its SIGTERM (the
    signal lands just before the worker blocks on the task queue's lock, and Python runs a handler only
    between bytecodes), and a worker stopped while it sends a result leaves the result queue's lock taken
    for the pool's task thread, which terminate() then joins.
    """
    with process_pool(processes, then, args) as executor:
        yield OrderedPool(executor, processes)


class OrderedPool:
    """``imap`` over an executor: each result in the order of the items, a few items ahead per worker, so that
    the workers never wait for the caller and a long or endless iterable is not submitted at once."""

    AHEAD = 4  # items submitted per worker before the first result is taken

    def __init__(self, executor: ProcessPoolExecutor, processes: int):
        self.executor, self.ahead = executor, max(1, processes) * self.AHEAD

    def imap(self, fn: Callable, items) -> Iterator:
        from collections import deque  # lazy: keeps collections out of forge's start-up

        items = iter(items)
        waiting = deque(self.executor.submit(fn, item) for _, item in zip(range(self.ahead), items))
        try:
            while waiting:
                done = waiting.popleft()
                for item in items:  # refill before waiting: the worker that finishes next has its next item
                    waiting.append(self.executor.submit(fn, item))
                    break
                yield done.result()
        except (Interrupted, KeyboardInterrupt):
            # Ctrl-C: process_pool's stop() kills the workers, which fails every waiting future. One
            # cancelled here first would make the executor's thread print a traceback as it does so
            # (Python 3.11's terminate_broken sets an exception on every pending future, cancelled or not).
            raise
        except BaseException:
            for future in waiting:
                future.cancel()
            raise


def stop(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now: SIGTERM (they remove their temporary files), SIGKILL after a grace period."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        p.terminate()
    deadline = time.monotonic() + GRACE_SECONDS
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(1.0)
    pool.shutdown(wait=False, cancel_futures=True)
