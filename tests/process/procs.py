"""Looking at processes through /proc: a process's children, and whether one still runs."""
from __future__ import annotations

import time
from pathlib import Path


def _stat(pid: int) -> tuple[str, str] | None:
    """(state, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name may hold spaces and parentheses
    return fields[0], fields[19]


def children(pid: int) -> dict[int, str]:
    """The running children of ``pid`` (every thread's), each with its start time (to tell a reused pid)."""
    kids: dict[int, str] = {}
    for f in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            for kid in map(int, f.read_text().split()):
                stat = _stat(kid)
                if stat:
                    kids[kid] = stat[1]
        except OSError:
            pass
    return kids


def running(pid: int, start: str) -> bool:
    """Whether the process ``pid`` started at ``start`` still runs (a zombie waiting to be reaped does not)."""
    stat = _stat(pid)
    return stat is not None and stat[1] == start and stat[0] not in "ZX"


def alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (not a zombie waiting to be reaped)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in "ZX"


def wait_for(condition, timeout: float, step: float = 0.02) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; its last value."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() > deadline:
            return bool(condition())
        time.sleep(step)
