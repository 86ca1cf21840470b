"""Record how long each test takes, so the fast subset (`pytest -m "not slow"`) stays within its 2 minutes (issue 26 §4).

Pipe a run's ``--durations=0`` report in: each test's setup, call and teardown are added up, and
tests/durations.txt is updated (tests seen are re-timed, others kept). tests/conftest.py marks
``slow`` every test the file times over ``SLOW_SECONDS``: a test that a fast loop cannot afford, on a
quiet 2-core machine with pytest-xdist, joins the whole suite's run instead.

    .venv/bin/pytest -m "not slow" --durations=0 | .venv/bin/python scripts/test_durations.py
"""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

FILE = Path(__file__).resolve().parents[1] / "tests" / "durations.txt"
LINE = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S.*)$")
HEADER = ("# Seconds each test took (setup + call + teardown), measured by scripts/test_durations.py on a quiet\n"
          "# 2-core machine with pytest-xdist; tests/conftest.py marks slow those over SLOW_SECONDS.\n")


def read(path: Path | None = None) -> dict[str, float]:
    """The recorded times: ``{node id: seconds}``."""
    path = path or FILE
    times: dict[str, float] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                seconds, _, node = line.partition(" ")
                times[node] = float(seconds)
    return times


def parse(report: str) -> dict[str, float]:
    times: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        match = LINE.match(line.strip())
        if match:
            times[match.group(2)] += float(match.group(1))
    return {node: round(seconds, 2) for node, seconds in times.items()}


def main() -> int:
    measured = parse(sys.stdin.read())
    if not measured:
        print("no durations in the input: run pytest with --durations=0", file=sys.stderr)
        return 2
    times = {**read(), **measured}
    kept = {node: s for node, s in times.items() if s >= 0.1}
    FILE.write_text(HEADER + "".join(f"{s:.2f} {node}\n" for node, s in sorted(kept.items())), encoding="utf-8")
    print(f"{len(measured)} tests timed, {len(kept)} recorded in {FILE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
