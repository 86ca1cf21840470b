"""Every file forge reads from its own package is package data: CI users install forge as a wheel.

A wheel holds only the ``forge/`` files that pyproject's ``package-data`` globs name. A file
under ``forge/`` that they miss is there in the checkout and absent after ``pip install .``,
which is how the built-in card template once went missing from the GitHub Action.
"""
from __future__ import annotations

import fnmatch
import subprocess
import tomllib

from tests.conftest import REPO


def _globs() -> list[str]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["setuptools"]["package-data"]["forge"]


def _packaged(rel: str, globs: list[str]) -> bool:
    """setuptools' reading: ``*`` stays inside a folder, ``**/`` spans folders."""
    for glob in globs:
        if "**" in glob:
            head, _, tail = glob.partition("**/")
            if rel.startswith(head) and fnmatch.fnmatch(rel[len(head):].rsplit("/", 1)[-1], tail):
                return True
        elif fnmatch.fnmatch(rel, glob) and rel.count("/") == glob.count("/"):
            return True
    return False


def test_every_file_of_the_package_is_package_data():
    tracked = subprocess.run(["git", "ls-files", "forge"], cwd=REPO, capture_output=True, text=True, check=True)
    files = [line[len("forge/"):] for line in tracked.stdout.splitlines()
             if not line.endswith(".py") and "__pycache__" not in line]
    assert files, "git ls-files found no data files under forge/"
    missing = [rel for rel in files if not _packaged(rel, _globs())]
    assert not missing, f"not in pyproject's package-data, so not in a wheel: {missing}"


def test_the_package_s_defaults_are_the_shipped_game_s_files_not_copies():
    """In the checkout, forge's defaults link to the game's files: one copy to edit, no drift."""
    defaults = [p for d in ("forge/books/defaults", "forge/render/defaults") for p in (REPO / d).rglob("*")
                if not p.is_dir()]
    assert len(defaults) >= 10
    for path in defaults:
        assert path.is_symlink(), f"{path.relative_to(REPO)} is a copy; link it to the game's file"
        assert path.resolve().is_relative_to(REPO) and path.resolve().is_file()
