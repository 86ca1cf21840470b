"""Benchmark: a whole `forge validate` process against check-jsonschema on the same files and schema.

Usage: python benchmarks/validate_vs_jsonschema.py [--runs 15] [--root .] [--check-jsonschema PATH]

Issue 9 (Fast to start) asks for a full `forge validate` no slower than check-jsonschema
checking cards/*.yaml against schema/cards.schema.json. Each round runs the three commands
once, in turn (so a load spike on this shared machine touches all three alike), as whole
processes started the way a user starts them; the medians over the rounds are printed with
the load average. One warm-up round comes first (it writes Python's bytecode and forge's
text-fit record, as any second run on a machine finds them). ``--cold`` deletes validate's
text-fit record (``forge.render.fitmemo.validate_memo``) before every full run: the cost of a
validate whose texts all changed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _forge() -> list[str]:
    script = Path(sys.executable).with_name("forge")
    return [str(script)] if script.exists() else [sys.executable, "-m", "forge.cli"]


def _check_jsonschema(given: str | None) -> str:
    for candidate in (given, shutil.which("check-jsonschema"), "/tmp/cj/bin/check-jsonschema"):
        if candidate and Path(candidate).exists():
            return candidate
    sys.exit("check-jsonschema not found: install it (pipx install check-jsonschema) or pass --check-jsonschema")


#: As on a user's machine, Python keeps the bytecode it compiles (the warm-up round writes it).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _run(cmd: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-400:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--root", type=Path, default=REPO)
    parser.add_argument("--check-jsonschema", dest="cj")
    parser.add_argument("--cold", action="store_true", help="delete validate's text-fit record before each full run")
    args = parser.parse_args()
    root = args.root.resolve()
    files = sorted(str(p.relative_to(root)) for p in (root / "cards").glob("*.yaml"))
    commands = {
        "forge validate": _forge() + ["validate", "--root", "."],
        "forge validate --quick": _forge() + ["validate", "--quick", "--root", "."],
        "check-jsonschema": [_check_jsonschema(args.cj), "--schemafile", "schema/cards.schema.json", *files],
    }
    from forge.render.fitmemo import validate_memo

    memo = validate_memo(root)
    record = memo.out / memo.record
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(args.runs + 1):
        for name, cmd in commands.items():
            if args.cold and name == "forge validate":
                record.unlink(missing_ok=True)
            seconds = _run(cmd, root)
            if round_:
                times[name].append(seconds)
    load = os.getloadavg()
    print(f"{args.runs} runs each, interleaved; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
          + (" (text-fit record deleted before each full run)" if args.cold else ""))
    base = statistics.median(times["check-jsonschema"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<24} median {median:.3f} s  (min {min(values):.3f}, max {max(values):.3f})  "
              f"{median / base:.2f}× check-jsonschema")


if __name__ == "__main__":
    main()
