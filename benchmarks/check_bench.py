"""Benchmark: `forge check` on the shipped game, wall and CPU time, one forge against another.

Usage: python benchmarks/check_bench.py [--runs 7] [--forge /path/to/other/checkout ...] [--stages]

Each run is `python -m forge.cli check` in a fresh process on a copy of the shipped game (cards, locales,
schema, templates, docs), so it pays forge's start as CI does. With several ``--forge`` checkouts (the
one this file belongs to by default) the runs alternate between them, so that a machine shared with
other jobs loads each alike; it prints each one's median wall seconds and median CPU seconds (the
process and its children, from wait4), their ratio to the first, their lowest and highest, and the
machine's load average. ``--stages`` also prints each check's median seconds, CPU seconds and peak
resident memory, from `forge check --format json`: the figures forge.core.limits sets the box's limits from.
Python keeps the bytecode it compiles, as on a user's machine (the warm-up run writes it): under
PYTHONDONTWRITEBYTECODE each run compiled forge's sources again, ~0.3 CPU s a process, more for the
boxed forge, whose books import more of forge.

Measured on 2 cores (issue 23 §4), forge before the box (5 checks in one process) against the boxed one
(6 checks, the books composed, two at a time), runs alternated:
    quiet machine (load average ~1), 7 runs each:
        before   wall 1.57 s, CPU 1.54 s
        boxed    wall 2.31 s (x1.47), CPU 3.25 s (x2.11)
            validate 0.18 CPU s, parity 0.68, schema 0.02, books 1.51 (1.73 s wall), docs 0.07, simulate 0.19
    shared with five other busy jobs (load average 4-8), 9 runs each:
        before   wall 3.32 s, CPU 1.64 s
        boxed    wall 6.90 s (x2.08), CPU 3.54 s (x2.15)
    after the prose grammar, the layouts compiled once, parity's directives kept and the books started first
    (the longest check beside the chain of the others), quiet, 11 runs each, each forge on its own game:
        before   wall 1.12-1.25 s, CPU 1.12-1.25 s
        boxed    wall 1.44-1.60 s (x1.28-1.29), CPU 2.32-2.50 s (x2.0-2.1)
            validate 0.14 CPU s, parity 0.51, schema 0.01, books 0.94, docs 0.05, simulate 0.14
    with the bytecode kept, before (954f2df), today's boxed main (c9719b7) and the boxed gate after the
    books' and parity's cuts (no renderer imported without pictures, each card's constructs and view made
    once a book, the layouts' code kept sealed across processes, each string masked once, the termbase's
    matcher made once, the prose's units cut from block tokens only), a machine shared with a dozen busy
    jobs (load average 16-23), 7 runs each, medians (lowest-highest):
        before   wall 13.9 s (11.2-23.5), CPU 1.50 s (1.30-1.58)
        main     wall 25.5 s (16.1-34.1) (x1.83), CPU 2.87 s (2.68-3.09) (x1.91)
        cut      wall 21.4 s (15.5-28.5) (x1.54), CPU 2.52 s (2.29-2.67) (x1.68)
    each check's CPU in its own forked child, the lowest of 4-5 runs on that machine, main -> cut:
        books 1.00-1.20 -> 0.86-0.93 CPU s, parity 0.61-0.69 -> 0.54-0.58
    after the merges of issue 24's book work and the typography's cuts (a paragraph's end read backwards,
    each text rule only where its character occurs), a quiet machine (load average 0.9-1.1), 15 runs each:
        before   (954f2df) wall 1.35 s (1.05-1.59), CPU 1.32 s
        main     (c9719b7) wall 1.67 s (1.49-1.84) (x1.23), CPU 2.75 s (x2.08)
        now                wall 1.53 s (1.33-1.66) (x1.13), CPU 2.49 s (x1.88); books 0.96 CPU s
The boxes cost little (the five old checks use about what they did); composing the four books is the new
work, ~0.9 CPU s even without their card pictures, and the wall time's longest path. On an idle machine
it runs beside the other checks; on a loaded one the two cores are not free, so it adds as CPU: the CPU
ratio is then the wall ratio, and the machine's load decides more than forge does (compare runs
alternated in one invocation only).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PARTS = ("cards", "locales", "schema", "templates", "docs")
#: As on a user's machine (and a wheel's install), Python keeps the bytecode it compiles (the warm-up run
#: writes it): with PYTHONDONTWRITEBYTECODE every run compiled forge's sources again, ~0.3 CPU s a process.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def game(forge: Path, into: Path) -> Path:
    """A copy of the game that ``forge``'s checkout ships (each forge checks its own: the prose's grammar
    changed with issue 23, so one forge's game is not the other's)."""
    for part in PARTS:
        shutil.copytree(forge / part, into / part)
    return into


def once(forge: Path, root: Path, stages: bool) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the process and its children, each check's json) of one `forge check`."""
    command = [sys.executable, "-m", "forge.cli", "check", "--root", str(root)]
    command += ["--format", "json"] if stages else []
    env = {**ENV, "PYTHONPATH": str(forge)}
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"forge check failed with {forge}: {out.decode()[-2000:]}")
    checks = {c["name"]: c for c in json.loads(out)["checks"]} if stages else {}
    return wall, usage.ru_utime + usage.ru_stime, checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--forge", type=Path, action="append", help="a forge checkout (default: this one)")
    parser.add_argument("--stages", action="store_true", help="each check's time, CPU and peak memory too")
    args = parser.parse_args()
    forges = args.forge or [REPO]
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        roots = {forge: game(forge, Path(tmp) / str(i)) for i, forge in enumerate(forges)}
        for forge in forges:
            once(forge, roots[forge], False)  # warm: the validate record, the page cache
        runs: dict[Path, list] = {forge: [] for forge in forges}
        for _ in range(args.runs):
            for forge in forges:
                runs[forge].append(once(forge, roots[forge], args.stages and _boxed(forge)))
    print(f"load average {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    first = None
    for forge, results in runs.items():
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        first = first or (wall, cpu)
        print(f"{forge}: wall {wall:.2f} s (x{wall / first[0]:.2f}; {_spread(r[0] for r in results)}), "
              f"CPU {cpu:.2f} s (x{cpu / first[1]:.2f}; {_spread(r[1] for r in results)}), {len(results)} runs")
        if results[0][2]:
            for name in results[0][2]:
                col = [r[2][name] for r in results]
                print(f"    {name:9} {statistics.median(c['seconds'] for c in col):5.2f} s  "
                      f"CPU {statistics.median(c['cpu_seconds'] for c in col):5.2f} s  "
                      f"peak {max(c['peak_mib'] for c in col):6.1f} MiB")


def _spread(values) -> str:
    """The lowest and highest of a forge's runs: on a shared machine the median alone hides the noise."""
    values = sorted(values)
    return f"{values[0]:.2f}-{values[-1]:.2f}"


def _boxed(forge: Path) -> bool:
    """Whether this forge's `forge check --format json` reports each check's CPU and memory (the boxed one)."""
    return any((forge / "forge" / p).is_file() for p in ("core/box.py", "box.py"))


if __name__ == "__main__":
    main()
