"""Killing forge as a user or CI would: kill -9 of forge ends its workers at once; Ctrl-C is one line, exit 130.

Each test starts the real command on a copy of the shipped game in its own
process group, waits (polling /proc, with a deadline) until its workers run,
then signals it. Nothing sleeps and hopes: every wait is a poll with a deadline.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from forge.core.workers import cpus

from .procs import children, running, wait_for

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="looks at processes through Linux /proc"),
    pytest.mark.skipif(cpus() < 2, reason="on a single core forge starts no worker process"),
]

SIMULATE = ("simulate", "--games", "100000", "--jobs", "2")  # far more than it plays before the signal
RENDER = ("render", "cards", "--workers", "2")


def start(root: Path, args: tuple[str, ...], stdout=subprocess.DEVNULL) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "FORGE_DEBUG"}
    return subprocess.Popen([sys.executable, "-m", "forge.cli", *args, "--root", str(root)], cwd=root, env=env,
                            stdout=stdout, stderr=subprocess.PIPE, start_new_session=True)


def workers_of(proc: subprocess.Popen, ready=lambda: True) -> dict[int, str]:
    """The command's two workers, once they run (and ``ready()`` holds)."""
    found: dict[int, str] = {}

    def started() -> bool:
        found.update(children(proc.pid))
        return proc.poll() is not None or (len(found) >= 2 and ready())

    try:
        assert wait_for(started, timeout=120), "the workers did not start"
        assert proc.poll() is None, f"forge ended before its workers were seen: {proc.stderr.read().decode()}"
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return found


def all_ended(kids: dict[int, str], timeout: float) -> bool:
    return wait_for(lambda: not any(running(pid, start) for pid, start in kids.items()), timeout)


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


def test_kill_9_while_rendering_stops_every_write_into_output(shipped):
    out = shipped / "output"
    proc = start(shipped, RENDER)
    kids = workers_of(proc, ready=lambda: out.is_dir() and any(out.rglob("*.png")))  # mid-render
    proc.kill()
    proc.wait(timeout=30)
    assert all_ended(kids, timeout=5), "workers outlived their parent"
    before = snapshot(out)
    # every process that could write is gone; check that it stays so for a while
    assert not wait_for(lambda: snapshot(out) != before, timeout=1.0), "output/ still changes"


@pytest.mark.parametrize("args", [SIMULATE, RENDER], ids=["simulate", "render"])
def test_ctrl_c_is_one_line_and_exit_130(shipped, args):
    out = shipped / "output"
    proc = start(shipped, args, stdout=subprocess.PIPE)
    kids = workers_of(proc)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole process group
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert err.decode().splitlines() == ["forge: interrupted"]
    assert all_ended(kids, timeout=5)
    assert not list(out.rglob("*.tmp")), "a stopped worker left its temporary file"


#: Runs forge's main() and presses Ctrl-C (SIGINT) while main imports the commands: deterministic, no timing.
_CTRL_C_DURING_IMPORT = """
import builtins, os, signal, sys
import forge.cli
real_import = builtins.__import__
def pressing_ctrl_c(name, globals=None, locals=None, fromlist=(), level=0):
    if name == "commands.app" and level == 1 and not getattr(pressing_ctrl_c, "done", False):
        pressing_ctrl_c.done = True
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, globals, locals, fromlist, level)
builtins.__import__ = pressing_ctrl_c
sys.argv = ["forge", "validate", "--quick"]
forge.cli.main()
"""


def test_ctrl_c_while_forge_starts_is_one_line_and_exit_130(tmp_path):
    """The commands are imported after Ctrl-C is trapped: a Ctrl-C in that second is handled too."""
    result = subprocess.run([sys.executable, "-c", _CTRL_C_DURING_IMPORT], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (130, "forge: interrupted\n"), result.stderr
