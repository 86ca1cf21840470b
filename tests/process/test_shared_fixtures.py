"""tests/shared.py: a fixture the xdist workers share is built once for the run, and a failed build is built again."""
from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from tests.shared import once, run_seal_key


class Factory:
    """What ``once`` uses of pytest's tmp_path_factory: the worker's own folder, ``pytest-N/popen-gwK``."""

    def __init__(self, base: Path):
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def _build(folder: Path) -> dict:
    with open(folder.parent / "builds.log", "a") as log:  # who built, in order
        log.write(f"{os.getpid()}\n")
    time.sleep(0.5)  # long enough for the other worker to ask meanwhile
    (folder / "made.txt").write_text("made", encoding="utf-8")
    return {"folder": folder, "pid": os.getpid()}


def _worker(run: str, name: str, queue) -> None:
    os.environ["PYTEST_XDIST_WORKER"] = name
    base = Path(run) / f"popen-{name}"
    base.mkdir()
    queue.put(once(Factory(base), "books", _build))


def test_two_workers_build_once_and_read_the_same_result(tmp_path):
    context = multiprocessing.get_context("spawn")  # nothing inherited: two processes as xdist starts them
    queue = context.Queue()
    workers = [context.Process(target=_worker, args=(str(tmp_path), f"gw{i}", queue)) for i in range(2)]
    for worker in workers:
        worker.start()
    results = [queue.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(60)
    assert (tmp_path / "shared" / "builds.log").read_text().split() == [str(results[0]["pid"])]
    assert results[0] == results[1] and (results[0]["folder"] / "made.txt").read_text() == "made"


def test_a_failed_build_leaves_no_result_and_the_next_caller_builds_anew(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    factory = Factory(tmp_path / "popen-gw0")
    factory.base.mkdir()

    def broken(folder: Path):
        (folder / "half.txt").write_text("half", encoding="utf-8")
        raise RuntimeError("the build failed")

    with pytest.raises(RuntimeError):
        once(factory, "books", broken)
    result = once(factory, "books", _build)
    assert not (result["folder"] / "half.txt").exists() and (result["folder"] / "made.txt").exists()
    assert once(factory, "books", broken) == result  # built: the build is not called again


def test_the_run_has_one_seal_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    first, second = Factory(tmp_path / "popen-gw0"), Factory(tmp_path / "popen-gw1")
    assert len(run_seal_key(first)) == 32 and run_seal_key(first) == run_seal_key(second)
