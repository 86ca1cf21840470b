"""scripts/test_durations.py: a test's time is its setup, call and teardown added up; tests not re-run keep theirs."""
from __future__ import annotations

import importlib.util
import io
import sys

from ..conftest import REPO


def _script():
    spec = importlib.util.spec_from_file_location("test_durations_script", REPO / "scripts" / "test_durations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPORT = """============================= slowest durations =============================
1.50s setup    tests/a.py::test_one[x y]
0.40s call     tests/a.py::test_one[x y]
0.20s call     tests/b.py::test_two
0.01s teardown tests/b.py::test_two
(4 durations < 0.005s hidden.)
"""


def test_a_report_is_added_up_per_test():
    assert _script().parse(REPORT) == {"tests/a.py::test_one[x y]": 1.9, "tests/b.py::test_two": 0.21}


def test_the_file_is_updated_and_tests_not_rerun_keep_their_time(tmp_path, monkeypatch):
    script = _script()
    recorded = tmp_path / "durations.txt"
    recorded.write_text("# header\n3.00 tests/c.py::test_kept\n0.90 tests/b.py::test_two\n", encoding="utf-8")
    monkeypatch.setattr(script, "FILE", recorded)
    monkeypatch.setattr(sys, "stdin", io.StringIO(REPORT))

    assert script.main() == 0
    assert script.read(recorded) == {"tests/a.py::test_one[x y]": 1.9, "tests/b.py::test_two": 0.21,
                                     "tests/c.py::test_kept": 3.0}


def test_every_timed_slow_test_still_exists_in_the_shipped_file():
    """A renamed test would silently leave the fast subset's budget: its line must go with it."""
    times = _script().read()
    files = {node.split("::")[0] for node in times}
    assert all((REPO / f).is_file() for f in files), sorted(f for f in files if not (REPO / f).is_file())
