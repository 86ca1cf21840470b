"""Outputs that cannot be written: exit 2, one line with the path and the reason, previous outputs kept.

As root, chmod does not stop a write, so a read-only folder and a full disk are
simulated where forge.core.atomic writes (forked workers inherit the patch); an
`output/` that is a file is real.
"""
from __future__ import annotations

import errno
import os
import pickle
import re
import shutil
from pathlib import Path

import pytest

from forge.core import atomic

from ..conftest import SCHEMA_LINE, invoke
from .test_command import CARDS

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]


def render(root: Path, *args: str):
    return invoke(["render", "cards", "--root", str(root), "--profile", "gamecrafter,pnp",
                                    "--lang", "en", "--paper", "a4", *args])


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the cache, the manifest and any temporary file included)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def one_error_line(result, path_prefix: str, reason: str) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert re.fullmatch(rf"forge: error: {re.escape(path_prefix)}\S*: cannot write \({re.escape(reason)}\)",
                        lines[0]), lines[0]
    return lines[0]


@pytest.fixture(scope="session")
def first_render(tmp_path_factory) -> Path:
    """A project of ``CARDS`` rendered once per session (per xdist worker); the tests change copies of it."""
    root = tmp_path_factory.mktemp("first-render")
    shutil.copytree(REPO / "locales", root / "locales", ignore=shutil.ignore_patterns("*.fingerprints.yaml"))
    (root / "cards").mkdir()
    (root / "cards/game.yaml").write_text(SCHEMA_LINE + CARDS, encoding="utf-8")
    assert render(root).exit_code == 0
    atomic.release()  # the command confined writes to its output folder; the tests write elsewhere
    return root


@pytest.fixture
def rendered(first_render, tmp_path):
    """A copy of ``first_render`` (its output's cache and sealed records too, which name files relative to
    the output folder), then changed so that every output must be rendered again."""
    root = tmp_path / "game"
    shutil.copytree(first_render, root, symlinks=True)
    before = contents(root / "output")
    path = root / "cards/game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("{en: Spark,", "{en: Bright Spark,"), encoding="utf-8")
    return root, before


def no_space(fd, data):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_is_one_line_and_keeps_the_previous_outputs(rendered, monkeypatch, workers):
    root, before = rendered
    monkeypatch.setattr(atomic, "_write_all", no_space)
    result = render(root, "--workers", workers)
    one_error_line(result, f"{root / 'output'}/", "No space left on device")
    assert contents(root / "output") == before  # nothing lost, no temporary file left


def test_a_read_only_output_folder_is_one_line(rendered, monkeypatch):
    root, before = rendered

    def read_only(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path.parent))

    monkeypatch.setattr(atomic, "_create", read_only)
    one_error_line(render(root), f"{root / 'output'}/", "Read-only file system")
    assert contents(root / "output") == before


def test_a_refused_rename_removes_the_temporary_file(rendered, monkeypatch):
    root, before = rendered

    def denied(src, dst):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), src, None, dst)

    monkeypatch.setattr(atomic.os, "replace", denied)
    one_error_line(render(root, "--workers", "1"), f"{root / 'output'}/", "Permission denied")
    assert contents(root / "output") == before


def test_an_output_folder_that_is_a_file_is_one_line(project):
    project("game.yaml", CARDS)
    out = project.root / "output"
    out.write_text("not a folder")
    one_error_line(render(project.root), f"{out}/", f"{out} is not a folder")
    assert out.read_text() == "not a folder"


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640)])
def test_outputs_get_the_mode_the_umask_gives(project, mask, mode):
    project("game.yaml", CARDS)
    old = os.umask(mask)
    try:
        assert render(project.root).exit_code == 0
    finally:
        os.umask(old)
    files = [p for p in (project.root / "output").rglob("*") if p.is_file()]
    assert len(files) > 5
    assert {p.relative_to(project.root).as_posix(): oct(p.stat().st_mode & 0o777) for p in files} == \
        {p.relative_to(project.root).as_posix(): oct(mode) for p in files}


def test_write_error_says_path_and_reason_and_crosses_processes(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    with pytest.raises(atomic.WriteError) as caught:
        atomic.write_bytes(blocker / "sub" / "a.pdf", b"data")
    assert str(caught.value) == f"{blocker}/sub/a.pdf: cannot write ({blocker} is not a folder)"
    again = pickle.loads(pickle.dumps(caught.value))  # raised in a worker, re-raised in the parent
    assert str(again) == str(caught.value) and isinstance(again, OSError)
