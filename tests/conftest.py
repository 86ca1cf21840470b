"""Shared fixtures: the repository root, throw-away game projects, a guard against hangs.

Hypothesis runs under the profile named by ``HYPOTHESIS_PROFILE``: ``ci`` (the default)
is derandomized and keeps no example database, so a run is the same on every machine
and a test never fails one run in sixteen; ``soak`` is the long random run for a local
hunt (see the top of tests/validate/test_fuzz.py).
"""
from __future__ import annotations

import functools
import os
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("soak", max_examples=20_000, derandomize=False, database=None, deadline=None,
                          print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parents[1]
#: Fixtures that lay out the books, render the whole kit, or start Chromium or a Ray cluster, each
#: where it is defined: every test that uses one is ``slow`` (the first pays 10-40 s for it, and all
#: of them are skipped together by ``pytest -m "not slow"``, so that none pays it alone).
SLOW_FIXTURES = {
    ("tests/books/conftest.py", "rendered"),
    ("tests/books/conftest.py", "web_edition"),
    ("tests/books/test_security.py", "hostile"),
    ("tests/books/test_incremental.py", "built"),
    ("tests/balance/test_report.py", "written"),
    ("tests/render/test_outputs.py", "rendered"),
    ("tests/render/test_tts.py", "two_folders"),
    ("tests/balance/test_cluster.py", "ray_cluster"),
    ("tests/browser.py", "launch"),
}
SCHEMA_LINE = "# yaml-language-server: $schema=../schema/cards.schema.json\n"


def cpu_seconds() -> float:
    """CPU time of this process and the children it waited for (user + system): what a "quickly" budget
    measures. Wall time is not: under xdist, on a machine shared with other jobs, a linear run of 3 s
    took over 20 s of wall time, and the huge-text budgets failed one run in a few."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def invoke(args, **kwargs):
    """forge's command line run in this process, the one way the tests run it (``cli`` is the fixture);
    ``kwargs`` go to Click's runner (``input``, ``env``); returns its Result (exit code, stdout, stderr)."""
    from typer.testing import CliRunner

    from forge.cli import app

    return CliRunner().invoke(app, [str(arg) for arg in args], **kwargs)


@pytest.fixture
def cli():
    """forge's command line: ``cli(["validate", "--root", root])`` returns Click's Result."""
    return invoke


@pytest.fixture
def project(tmp_path: Path):
    """A project folder with the real locales and the given card files; returns a writer.

    The French fingerprints (``locales/fr.fingerprints.yaml``) are left out: they record the shipped
    cards, not these, and a project without them does not track stale French."""
    shutil.copytree(REPO / "locales", tmp_path / "locales", ignore=shutil.ignore_patterns("*.fingerprints.yaml"))
    (tmp_path / "cards").mkdir()

    def write(name: str, text: str | bytes, header: bool = True) -> Path:
        path = tmp_path / "cards" / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text((SCHEMA_LINE if header else "") + text, encoding="utf-8")
        return path

    write.root = tmp_path
    return write


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A copy of the shipped game project, safe to modify."""
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    return tmp_path


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): one worker more than the cores. A worker waits for much of its time
    (Chromium, servers, the Pythons it starts, a build another worker is making for both): the whole suite took
    9 min 35 s with one worker per core on 2 cores (its cores busy 68 % of it), 8 min 15 s with three, 9 min 00 s
    with four (a run that also tried another change, since dropped)."""
    return len(os.sched_getaffinity(0)) + 1


#: A test timed over this in tests/durations.txt (scripts/test_durations.py) is ``slow``: the fast subset
#: (`pytest -m "not slow"`) must run in 2 minutes on 2 cores, and these tests would take half of it.
SLOW_SECONDS = 0.7


def _timed_slow() -> set[str]:
    durations = Path(__file__).resolve().parent / "durations.txt"
    slow = set()
    for line in durations.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            seconds, _, node = line.partition(" ")
            if float(seconds) > SLOW_SECONDS:
                slow.add(node)
    return slow


def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` every test that uses one of ``SLOW_FIXTURES``, however indirectly, or is timed over
    ``SLOW_SECONDS``."""
    timed = _timed_slow()
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if item.nodeid in timed and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
        if info is None or item.get_closest_marker("slow"):
            continue
        for name in item.fixturenames:
            for definition in info.name2fixturedefs.get(name, ()):
                if _where(definition.func) in SLOW_FIXTURES or _launches(definition.func):
                    item.add_marker(pytest.mark.slow)
                    break
            else:
                continue
            break


def _where(func) -> tuple[str, str]:
    code = getattr(func, "__code__", None)
    if code is None:
        return "", ""
    return _relative(code.co_filename), func.__name__


@functools.lru_cache(maxsize=None)
def _relative(filename: str) -> str:
    """A source file's path in the repository ("" outside it); cached: the marking above asks about 10,000 fixture
    definitions in 200 files, and resolving each path took 2.4 s of every worker's collection."""
    try:
        return Path(filename).resolve().relative_to(REPO).as_posix()
    except ValueError:
        return ""


def _launches(func) -> bool:
    """A fixture that starts Chromium (``yield from launch()``)."""
    code = getattr(func, "__code__", None)
    return code is not None and "launch" in code.co_names


class Hung(BaseException):
    """Raised by ``no_hang``'s alarm: a BaseException, so that no ``except OSError`` swallows it."""


@pytest.fixture
def no_hang():
    """Fail the test instead of hanging the suite or filling the memory when forge reads a special file.

    A FIFO read blocks: an alarm after 300 s (then every 5 s) interrupts it. The alarm is wall time,
    so it is set far above any honest run of these tests on a loaded machine (renders took over 20 s
    at load average 20): it only turns a hang into a failure, it never times anything. Reading /dev/zero never
    ends: the address space is capped 2 GB above its current size, so the read fails
    with MemoryError, and files written are capped at 256 MB, so copying it fails
    too (Linux; the caps are lifted afterwards).
    """
    import resource

    def expire(signum, frame):
        raise Hung("blocked for 300 s: something read a FIFO or a device")

    previous = signal.signal(signal.SIGALRM, expire)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    file_limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    if file_limits[1] == resource.RLIM_INFINITY or file_limits[1] > 256 << 20:
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 20, file_limits[1]))
    try:
        used = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
        cap = used + (2 << 30)
        if limits[1] == resource.RLIM_INFINITY or cap < limits[1]:
            resource.setrlimit(resource.RLIMIT_AS, (cap, limits[1]))
    except (OSError, ValueError):
        pass  # no /proc: the alarm alone guards
    signal.setitimer(signal.ITIMER_REAL, 300, 5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, limits)
        resource.setrlimit(resource.RLIMIT_FSIZE, file_limits)


@pytest.fixture
def wound_fails_after_turn_4(monkeypatch):
    """The engine's Wound handler, broken from turn 5 on: games fail there, as a bug would make them
    (the engine's record tests and the replay viewer's)."""
    from forge.engine import state as state_mod

    orig = state_mod.State._v_wound

    def broken(self, p, ln, ctx):
        if self.turn > 4:
            raise RuntimeError("boom")
        orig(self, p, ln, ctx)

    monkeypatch.setattr(state_mod.State, "_v_wound", broken)
    monkeypatch.setitem(state_mod._VERBS, "wound", broken)


@pytest.fixture(scope="session", autouse=True)
def temporary_files_inside_the_session(tmp_path_factory):
    """Every temporary file of the run (the tests', forge's, Chromium's profile) is made under pytest's own
    folder for the session, which is removed when every test passes (``tmp_path_retention_policy``): a run
    once left a Ray session folder in /tmp. forge's cache (``$XDG_CACHE_HOME``: the seal key, the text-fit
    record of every project a test made) lives there too, not in the home folder; each xdist worker has its
    own, holding the run's one seal key (``tests.shared.run_seal_key``: a record one worker wrote for a fixture
    the workers share is a record for the others). Ray's folder is a short one of its own in the system's temporary folder, removed here (its socket
    paths must stay under 107 bytes: ``.../pytest-N/popen-gw0/tmp0/ray/session_.../sockets/plasma_store``
    is longer), and Ray's token is given, not made in ``~/.ray/auth_token``."""
    import secrets
    import tempfile

    from .shared import run_seal_key

    folder = tmp_path_factory.mktemp("tmp")
    key = folder / "cache" / "forge" / "state.key"  # where forge.core.seal looks for it
    key.parent.mkdir(parents=True)
    key.write_bytes(run_seal_key(tmp_path_factory))
    key.chmod(0o600)
    ray = tempfile.mkdtemp(prefix="fr")  # in the system's temporary folder: a short path
    saved = {name: os.environ.get(name) for name in ("TMPDIR", "RAY_TMPDIR", "RAY_AUTH_TOKEN", "XDG_CACHE_HOME")}
    os.environ["TMPDIR"] = str(folder)
    os.environ["RAY_TMPDIR"] = ray
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)  # Ray made ~/.ray/auth_token without one
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")
    tempfile.tempdir = None  # read TMPDIR again
    try:
        yield folder
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        tempfile.tempdir = None
        shutil.rmtree(ray, ignore_errors=True)


@pytest.fixture(autouse=True)
def writes_unconfined():
    """A command run in this process (CliRunner) confines every later write to its output folder
    (``forge.core.atomic.confine``) and nothing lifts it: the next test's writes elsewhere were refused
    (tests/render/test_command.py then tests/i18n/test_template_labels.py failed, in that order only)."""
    yield
    from forge.core import atomic

    atomic.release()


@pytest.fixture(scope="session")
def playable():
    """The shipped project as forge play reads it, once per run (the play tests and their red-team ones)."""
    from forge.play.project import read

    project = read(REPO)
    assert project.game is not None, project.findings
    return project


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """The shipped game's translators' files (po, xliff), exported once a session for the parity and i18n tests
    (``Exports`` in tests/i18n/helpers.py). READ-ONLY: a test copies an export out (``exports.to(fmt, path)``)
    before it changes it."""
    from .i18n.helpers import Exports

    return Exports(tmp_path_factory.mktemp("exports"))
