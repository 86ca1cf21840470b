"""The box: a stage of ``forge check`` runs in a child process under OS limits (issue 23 §4).

A pull request's files are read by forge's own code, which a crafted file can still drive into
minutes of CPU or gigabytes of memory (an SVG's ``<use>`` chains, a spreadsheet's claimed size,
prose that multiplies). So each stage runs in a forked child that the kernel stops: its address
space (``RLIMIT_AS``: an allocation past it raises MemoryError) and its CPU seconds
(``RLIMIT_CPU``: SIGXCPU, then SIGKILL). The parent bounds the rest: the wall time (a child that
waits instead of working is killed) and the bytes of the result it sends back (a pickle through a
pipe, read up to a cap). Nothing the child prints reaches the log: its stdout and stderr are
/dev/null, so a library's warning or a traceback cannot flood or confuse the CI output.

The child notes each input it opens (``forge.core.safeio.on_open``) in a page of memory it shares with
the parent, so a stage stopped by a limit is reported at the file it was reading.

The children are forked, as forge's worker pools are (``forge.core.workers``): they start at once with
the modules the parent loaded, ignore Ctrl-C (the parent stops them) and die with the parent.
The result is a pickle made by forge's own code in the child; the parent unpickles nothing else.
"""
from __future__ import annotations

import mmap
import os
import pickle
import select
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
import faulthandler
import resource

from . import safeio, workers

#: Bytes of the shared page holding the path of the last input a child opened.
MARK_BYTES = 4096
#: The longest error text a child sends back for a stage that failed.
MAX_ERROR_CHARS = 2000
#: Sent by a child whose memory ran out, made before it starts: sending it allocates nothing.
_OUT_OF_MEMORY = pickle.dumps(("memory", None), pickle.HIGHEST_PROTOCOL)


@dataclass(frozen=True)
class Limits:
    """What one stage may use: bytes of address space, CPU seconds, wall seconds, bytes of result."""

    memory: int  # address space on top of what the stage starts with (the parent's, at the fork)
    cpu: int
    wall: float
    output: int

    def scaled(self, factor: float) -> Limits:
        """Every limit times ``factor`` (``forge check --budget``)."""
        return Limits(int(self.memory * factor), max(1, round(self.cpu * factor)), self.wall * factor,
                      int(self.output * factor))

    def describe(self, kind: str) -> str:
        """The limit of this kind in words: "2 GiB", "60 s"."""
        value = {"memory": self.memory, "CPU": self.cpu, "time": self.wall, "output": self.output}[kind]
        return _size(value) if kind in ("memory", "output") else f"{value:g} s"


@dataclass
class Outcome:
    """How a stage's child ended: its value, or the limit it exceeded, or why it failed."""

    value: Any = None
    exceeded: str = ""  # "memory", "CPU", "time" or "output"
    failure: str = ""  # an unexpected end: the error the stage raised, or the signal that stopped it
    reading: str = ""  # the path of the last input the child opened, "" if none
    cpu: float = 0.0  # CPU seconds the child used
    peak: int = 0  # its peak resident memory, in bytes
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.exceeded and not self.failure


class Boxed:
    """One child running ``fn(*args)`` under ``limits``; the parent feeds on its pipe until it ends."""

    def __init__(self, fn: Callable, args: tuple, limits: Limits):
        self.limits, self.result, self.over = limits, bytearray(), ""
        self.started = time.monotonic()
        self.deadline = self.started + limits.wall
        self.mark = mmap.mmap(-1, MARK_BYTES)  # shared with the child (MAP_SHARED), unlike the rest of its memory
        parent, (read, write) = os.getpid(), os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            try:
                os.close(read)
                _child(parent, fn, args, limits, write, self.mark)
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self.fd = pid, read

    def fileno(self) -> int:
        return self.fd

    def feed(self) -> bool:
        """Read what the child sent; True when it is done (the pipe closed, or it sent more than its limit)."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            chunk = b""
        self.result += chunk
        if len(self.result) > self.limits.output:
            self.over = "output"
            return True
        return not chunk

    def finish(self) -> Outcome:
        """Stop the child if it still runs (``over`` says why), reap it, and say how it ended."""
        os.close(self.fd)
        status, usage = _stop(self.pid) if self.over else os.wait4(self.pid, 0)[1:]
        outcome = Outcome(reading=_read_mark(self.mark), cpu=usage.ru_utime + usage.ru_stime,
                          peak=usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024),
                          seconds=time.monotonic() - self.started)
        self.mark.close()
        if self.over:
            outcome.exceeded = self.over
        elif os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGXCPU or (sig == signal.SIGKILL and outcome.cpu >= self.limits.cpu):
                outcome.exceeded = "CPU"
            else:
                outcome.failure = f"it was stopped by {signal.Signals(sig).name}"
        else:
            outcome.value, outcome.exceeded, outcome.failure = _decode(bytes(self.result))
        return outcome


class Pool:
    """Boxed stages, ``parallel`` at a time; every child still running is stopped on the way out."""

    def __init__(self, parallel: int):
        self.parallel = max(1, parallel)
        self.running: dict[str, Boxed] = {}
        self.done: dict[str, Outcome] = {}

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        for name in list(self.running):  # an error or Ctrl-C in the parent: nothing waits for these
            self.cancel(name)

    def start(self, name: str, fn: Callable, args: tuple, limits: Limits) -> None:
        """Run ``fn(*args)`` in a box as ``name``, once fewer than ``parallel`` stages run."""
        while len(self.running) >= self.parallel:
            self._step()
        with workers._building():  # Ctrl-C waits until the child is known: it is then stopped on the way out
            self.running[name] = Boxed(fn, args, limits)
        workers._raise_deferred()

    def wait(self, name: str) -> Outcome:
        """The outcome of the stage ``name``, once it has ended."""
        while name not in self.done:
            self._step()
        return self.done[name]

    def cancel(self, name: str) -> None:
        """Stop the stage ``name`` if it still runs: its result is no longer wanted."""
        if name in self.running:
            self.running[name].over = "stopped"
            self.done[name] = self.running.pop(name).finish()

    def join(self) -> dict[str, Outcome]:
        while self.running:
            self._step()
        return self.done

    def _step(self) -> None:
        """Wait until a child sends something or its time runs out, and finish the children that are done."""
        now = time.monotonic()
        timeout = max(0.0, min(b.deadline for b in self.running.values()) - now)
        ready, _, _ = select.select(list(self.running.values()), [], [], timeout)
        now = time.monotonic()
        for name, boxed in list(self.running.items()):
            done = boxed in ready and boxed.feed()
            if not done and boxed.deadline <= now:
                boxed.over = done = "time"
            if done:
                self.done[name] = self.running.pop(name).finish()


def _child(parent: int, fn: Callable, args: tuple, limits: Limits, out: int, mark: mmap.mmap) -> None:
    """In the child: set the limits, run the stage, send back ("done", value), ("memory", None) or ("error", text)."""
    workers.init_worker(parent)
    _silence()
    _set_limits(limits)
    safeio.on_open(lambda path: _write_mark(mark, path))
    try:
        data = pickle.dumps(_run(fn, args), pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        data = _OUT_OF_MEMORY
    except Exception as exc:  # a value that cannot be pickled is a failure to report, not a traceback
        data = pickle.dumps(("error", _error_text(exc)))
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(out, view):]
    except OSError:  # the parent stopped reading: it has what it needs
        pass


def _run(fn: Callable, args: tuple) -> tuple[str, Any]:
    try:
        return "done", fn(*args)
    except MemoryError:
        return "memory", None
    except Exception as exc:  # a stage's unexpected error is a finding at its stage, never a traceback
        return "error", _error_text(exc)


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]


def _decode(data: bytes) -> tuple[Any, str, str]:
    """(value, exceeded, failure) from what a child sent."""
    try:
        status, value = pickle.loads(data)
    except Exception:  # a child cut off while sending: its result is not there
        return None, "", "it ended without sending its result"
    if status == "memory":
        return None, "memory", ""
    if status == "error":
        return None, "", str(value)
    return value, "", ""


def _silence() -> None:
    """Point the child's stdout and stderr at /dev/null: what it would print is not the report's (nor is
    faulthandler's dump of a crash, which writes to a file of its own: the parent names the signal)."""
    faulthandler.disable()
    null = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(null, fd)
    os.close(null)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # lives as long as the child


def _set_limits(limits: Limits) -> None:
    """Lower the child's limits: ``limits.memory`` more address space than it starts with (the parent's, which
    it shares until it writes), ``limits.cpu`` seconds; never above a hard limit already set; no core file."""
    memory = _address_space() + limits.memory
    for which, soft, hard in ((resource.RLIMIT_AS, memory, memory),
                              (resource.RLIMIT_CPU, limits.cpu, limits.cpu + 5),  # SIGXCPU, then SIGKILL 5 s later
                              (resource.RLIMIT_CORE, 0, 0)):
        _, ceiling = resource.getrlimit(which)
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):  # a limit this system does not enforce (RLIMIT_AS on macOS): the others hold
            pass


def _address_space() -> int:
    """This process's address space in bytes (0 where /proc does not say: the limit is then absolute)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _write_mark(mark: mmap.mmap, path: Path) -> None:
    data = os.fsencode(path)[:MARK_BYTES - 2]
    mark[2:2 + len(data)] = data
    mark[:2] = len(data).to_bytes(2, "little")


def _read_mark(mark: mmap.mmap) -> str:
    size = int.from_bytes(mark[:2], "little")
    return os.fsdecode(mark[2:2 + size]) if size else ""


def _stop(pid: int) -> tuple:
    """SIGTERM (the child removes a temporary file it writes), SIGKILL if it is still there after the grace
    period; the child's (status, usage) once reaped."""
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + workers.GRACE_SECONDS
    while time.monotonic() < deadline:
        reaped, status, usage = os.wait4(pid, os.WNOHANG)
        if reaped:
            return status, usage
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    return os.wait4(pid, 0)[1:]


def _size(n: float) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n:g} bytes"


__all__ = ["Boxed", "Limits", "Outcome", "Pool"]
