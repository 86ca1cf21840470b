"""CI formats name each file by its path in the repository, not in --root (the Action's `root:` input).

GitHub places an annotation or a SARIF result by its path from the top of the checkout. A game kept
in a subfolder (`--root game`) gave `file=cards/black.yaml`, which lands on no file of the pull request.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from forge.commands.common import repository_prefix
from tests.cli.test_ci_formats import _break
from ..conftest import invoke


@pytest.fixture
def repo(shipped: Path, tmp_path_factory) -> Path:
    """A checkout whose game sits in `game/`, with one error at cards/black.yaml."""
    top = tmp_path_factory.mktemp("checkout")
    (top / ".git").mkdir()
    shutil.copytree(shipped, top / "game")
    _break(top / "game")
    return top


def _run(root: Path, fmt: str, monkeypatch, workspace: Path | None = None):
    if workspace is None:
        monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    else:
        monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    return invoke(["validate", "--root", str(root), "--format", fmt, "--quick"])


def test_github_annotations_name_the_file_from_the_top_of_the_checkout(repo, monkeypatch):
    result = _run(repo / "game", "github", monkeypatch)
    assert result.exit_code == 1
    assert f"::error file=game/cards/black.yaml,line={_break.line}," in result.output, result.output


def test_sarif_uris_are_relative_to_the_checkout(repo, monkeypatch):
    result = _run(repo / "game", "sarif", monkeypatch)
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(result.output)["runs"][0]["results"] for loc in r["locations"]}
    assert "game/cards/black.yaml" in uris, uris


def test_the_runner_s_workspace_wins_over_a_nested_git_folder(repo, monkeypatch):
    (repo / "game" / ".git").mkdir()  # a game that is a repository of its own, checked out inside the workspace
    result = _run(repo / "game", "github", monkeypatch, workspace=repo)
    assert "::error file=game/cards/black.yaml," in result.output, result.output


def test_text_output_keeps_paths_relative_to_the_root(repo, monkeypatch):
    result = _run(repo / "game", "text", monkeypatch)
    assert result.output.startswith("cards/black.yaml:"), result.output


def test_the_prefix_is_empty_at_the_top_and_outside_any_repository(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    assert repository_prefix(tmp_path) == ""
    (tmp_path / ".git").mkdir()
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert repository_prefix(tmp_path) == ""
    assert repository_prefix(tmp_path / "a" / "b") == "a/b"
