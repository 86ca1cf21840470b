"""One build for the whole run: a session fixture's result made by the first xdist worker that asks for it,
and read from disk by the others.

A session fixture is per process, and ``pytest -n auto`` runs two or more: the books laid out in full
(40 s of CPU), the web edition and the small game's print files were each made once per worker that ran a
test using them. ``once`` makes it once: under a lock in a folder of the run's own (``pytest-N/shared``,
removed with the run's folder), the first caller builds, its result is pickled beside what it wrote, and
the others wait for it and load it. Only for fixtures whose tests read what was built (all of these were
shared within a worker already); the seal key is the run's, so sealed records written by one worker are
records for the other (``run_seal_key``).
"""
from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")
RESULT = ".result.pickle"


def shared_folder(tmp_path_factory) -> Path:
    """``pytest-N/shared`` under xdist (one per run, shared by its workers), else the session's own folder."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    folder.mkdir(exist_ok=True)
    return folder


def once(tmp_path_factory, name: str, build: Callable[[Path], T]) -> T:
    """``build(folder)``'s result, built by one worker of the run into ``folder`` (``shared/<name>``).

    A build that failed left no result: the next caller removes what it left and builds again (and fails the
    same way, with its own traceback)."""
    root = shared_folder(tmp_path_factory)
    folder, done = root / name, root / name / RESULT
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process dies
        if done.exists():
            return pickle.loads(done.read_bytes())
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        result = build(folder)
        partial = folder / f"{RESULT}.part"
        partial.write_bytes(pickle.dumps(result))
        partial.replace(done)
        return result


def run_seal_key(tmp_path_factory) -> bytes:
    """The 32-byte key every worker of the run seals its records with (see ``once``)."""
    return once(tmp_path_factory, "seal-key", lambda folder: os.urandom(32))
