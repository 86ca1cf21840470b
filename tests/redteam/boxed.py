"""Running forge on an attack in a child process under a memory cap and a wall-clock timeout.

The budgets these tests check make forge refuse an attack in about a second. The box is a
backstop, never a timing assertion: on a regression the child runs out of its 1.5 GB or its
120 s and the test fails, instead of the attack hanging the suite or filling the machine.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import forge as _forge

#: The checkout whose forge the tests import: the child runs the same one.
REPO = Path(_forge.__file__).resolve().parents[1]
MEMORY = 1536 << 20
TIMEOUT = 120


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def forge(*args: str, cwd: Path | None = None) -> tuple[int, str]:
    """forge's exit status and its output (stdout then stderr); AssertionError if the box stopped it."""
    code = "import sys; from forge.cli import main; sys.argv[0] = 'forge'; main()"
    env = {**os.environ, "PYTHONPATH": str(REPO), "FORGE_DEBUG": ""}
    try:
        done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd or REPO, env=env, capture_output=True,
                              text=True, timeout=TIMEOUT, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"forge {' '.join(args)} ran for more than {TIMEOUT} s") from None
    output = done.stdout + done.stderr
    assert "MemoryError" not in output and done.returncode >= 0, f"forge ran out of its box:\n{output[-2000:]}"
    return done.returncode, output


def call(function, *args, timeout: int = TIMEOUT):
    """``function(*args)`` run in a child process under the same box; returns what it returned or raised.

    ``function`` must be importable (a module-level function), its arguments and result picklable.
    """
    import multiprocessing

    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_run, args=(child, function, args))
    process.start()
    child.close()
    if not parent.poll(timeout):
        process.kill()
        process.join()
        raise AssertionError(f"{function.__name__} ran for more than {timeout} s")
    kind, value = parent.recv()
    process.join()
    if kind == "raised":
        raise value
    return value


def _run(pipe, function, args) -> None:
    _limits()
    try:
        pipe.send(("returned", function(*args)))
    except BaseException as exc:  # handed back to the test, MemoryError included
        pipe.send(("raised", exc))
