"""`forge check` shows which check runs (issue 9 §3: one progress display on every step that can take more than
a second): a spinner naming it on a terminal, a line per check with --verbose, nothing in a CI log otherwise."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from forge.checks.check import check

from ..conftest import REPO


@pytest.fixture
def game(shipped):
    shutil.copytree(REPO / "docs", shipped / "docs")  # the design tables `forge check` compares
    return shipped


def run(*args: str, root) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "forge.cli", *args, "--root", str(root), "--games", "2"],
                          capture_output=True, text=True, timeout=300)


def test_check_names_each_check_as_it_starts(game):
    steps = []
    report = check(game, games=2, progress=steps.append)
    assert steps == ["books", "validate", "parity", "schema", "docs", "simulate: 2 games"]  # the longest first
    assert [c.name for c in report.checks] == ["validate", "parity", "schema", "books", "docs", "simulate"] and report.ok


@pytest.mark.slow
def test_verbose_prints_the_steps_and_a_ci_log_gets_none(game):
    verbose = run("-v", "check", root=game)
    assert verbose.returncode == 0, verbose.stderr
    assert [line for line in verbose.stderr.splitlines() if line.startswith("… ")] == [
        "… books", "… validate", "… parity", "… schema", "… docs", "… simulate: 2 games"]
    plain = run("check", root=game)  # stderr is a pipe here, as in CI: no spinner, no step lines
    assert plain.returncode == 0 and plain.stderr == ""
