"""The test suite itself (issue 26 §4): the fast subset covers every package, and a run leaves no file behind.

Both run pytest in a child process, so both are slow: they guard the suite, not forge.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO


def _pytest(*args: str, env: dict | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=1800)


def _packages() -> set[str]:
    return {p.parent.name for p in (REPO / "forge").glob("*/__init__.py")}


def _imported(path: Path) -> set[str]:
    """The forge packages a test file imports, at its top or inside its functions (``forge.cli`` counts as
    ``commands``: the ``cli`` fixture runs forge's commands)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "forge" and len(parts) > 1:
                found.add("commands" if parts[1] == "cli" else parts[1])
    return found


@pytest.mark.slow
def test_the_fast_subset_covers_every_package():
    """``pytest -m "not slow"`` keeps, for every package of forge, a test that imports it.

    Collecting the whole suite took 12 s; this collects only files that import a package not yet
    covered, a few at a time (a greedy cover), until every package has a fast test or no file importing
    it is left. The answer is the whole collection's: a test is marked slow or not from its own node id
    and fixtures (tests/conftest.py), whichever other files are collected with it."""
    imports = {f.relative_to(REPO).as_posix(): _imported(f) for f in sorted((REPO / "tests").rglob("test_*.py"))}
    missing, tried = _packages(), set()
    while batch := _cover(missing, imports, tried):
        tried |= batch
        done = _pytest("--collect-only", "-qq", "-n", "0", "-m", "not slow", *sorted(batch))
        assert done.returncode in (0, 5), done.stdout[-3000:] + done.stderr[-3000:]  # 5: every test deselected
        fast = {line.rsplit(":", 1)[0] for line in done.stdout.splitlines() if re.fullmatch(r"tests/\S+\.py: \d+", line)}
        assert fast <= batch, fast - batch
        missing -= set().union(*(imports[f] for f in fast))
    assert missing == set(), f"no fast test imports {sorted(missing)}"


def _cover(missing: set[str], imports: dict[str, set[str]], tried: set[str]) -> set[str]:
    """Untried test files that together import every package of ``missing`` any untried file imports,
    each picked for the most packages still uncovered (the smaller file on a tie: quicker to collect)."""
    left, batch = set(missing), set()
    while True:
        best = max((f for f in imports if f not in tried | batch and imports[f] & left),
                   key=lambda f: (len(imports[f] & left), -(REPO / f).stat().st_size), default=None)
        if best is None:
            return batch
        batch.add(best)
        left -= imports[best]


def test_the_package_reader_sees_imports_inside_functions(tmp_path):
    """The coverage check above can fail: a file that imports nothing of forge covers nothing, and the cover
    offers every file that imports a package still missing, until none is left."""
    sample = tmp_path / "t.py"
    sample.write_text("from forge.cli import app\ndef f():\n    from forge.render import face\n    import forge.sim.run\n")
    assert _imported(sample) == {"commands", "render", "sim"}
    sample.write_text("import os\n")
    assert _imported(sample) == set()
    assert {"core", "render", "books", "engine"} <= _packages()
    files = {"tests/conftest.py": {"core", "sim", "play"}, "tests/__init__.py": {"core"},
             "tests/browser.py": {"play", "books"}}
    assert _cover({"core", "sim", "play"}, files, set()) == {"tests/conftest.py"}
    assert _cover({"core", "sim", "play"}, files, {"tests/conftest.py"}) == {"tests/__init__.py", "tests/browser.py"}
    assert _cover({"engine"}, files, set()) == set()


@pytest.mark.slow
def test_a_run_leaves_no_file_in_the_temporary_folder_or_the_home_folder():
    """A run once left a Ray session folder in /tmp, and forge's text-fit record of every project a test made
    piled up in ~/.cache/forge/validate. A run of tests that start Ray, fork workers and validate copies of
    the game, with an empty temporary folder and an empty home, leaves both empty (pytest's own folder for
    the session is removed when every test passes). The folders are short ones in the system's temporary
    folder, beside this run's Ray folder: Ray's socket paths must stay under 107 bytes."""
    import shutil
    import tempfile

    tmp_path = Path(tempfile.mkdtemp(prefix="fl", dir=Path(os.environ["RAY_TMPDIR"]).parent))
    try:
        _leaves_nothing(tmp_path)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _leaves_nothing(tmp_path: Path) -> None:
    temp, home = tmp_path / "t", tmp_path / "h"
    temp.mkdir()
    home.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "HOME": str(home), "PYTHONPATH": str(REPO)}
    for name in ("XDG_CACHE_HOME", "RAY_TMPDIR", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT"):
        env.pop(name, None)
    done = _pytest("-n", "2", "tests/balance/test_cluster.py::test_a_local_cluster_listens_on_loopback_only",
                   "tests/process/test_workers.py::test_a_huge_jobs_value_for_simulate_forks_no_more_than_useful",
                   "tests/validate/test_full_checks.py", env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    left = sorted(p.relative_to(tmp_path).as_posix() for folder in (temp, home) for p in folder.rglob("*")
                  if p.is_file() or p.is_symlink() or (p.is_dir() and not any(p.iterdir())))
    # pytest keeps its per-user root folder (an empty one, once the session's folder is removed)
    assert [p for p in left if not p.startswith(f"t/pytest-of-{_user()}")] == []
    assert not any((temp / f"pytest-of-{_user()}").glob("pytest-[0-9]*")), left


def _user() -> str:
    import getpass

    return getpass.getuser()
