"""The render manifest (output/.cache/manifest.json) may come from a pull request: it deletes nothing outside output/.

Before: an entry `../../precious.txt` (or an absolute path, or a path through a link in output/)
in the scope of the run was deleted as "the output of a card removed since": any file forge could
write was deleted. A malformed `scope` was an internal error.

The attack is on the manifest, not on the cards: the small game (tests/redteam/small.py) is rendered.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.render.cards import manifest_record

from ..conftest import invoke
from .small import small_game


def render(root: Path):
    return invoke(["render", "cards", "--root", str(root), "--lang", "en",
                   "--profile", "tts", "--workers", "1"])


def plant(root: Path, files: dict) -> None:
    # sealed with this machine's key, so that the path checks behind the seal are what is tested
    manifest_record(root / "output").save({"files": files})


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return small_game(tmp_path / "game")


@pytest.fixture
def precious(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("home") / "precious.txt"
    path.write_text("keep me\n", encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_manifest_path_climbing_out_is_not_deleted(game: Path, precious: Path):
    climb = "/".join([".."] * (len((game / "output").resolve().parts) - 1)) + str(precious)
    plant(game, {climb: {"key": "x", "scope": ["tts", "en", ""], "check": {}}})
    result = render(game)
    assert result.exit_code == 0, (result.output, result.exception)
    assert precious.exists()


@pytest.mark.slow
def test_an_absolute_manifest_path_is_not_deleted(game: Path, precious: Path):
    plant(game, {str(precious): {"key": "x", "scope": ["tts", "en", ""], "check": {}}})
    assert render(game).exit_code == 0
    assert precious.exists()


@pytest.mark.slow
def test_a_manifest_path_through_a_link_is_not_deleted(game: Path, precious: Path):
    (game / "output").mkdir()
    (game / "output" / "old").symlink_to(precious.parent, target_is_directory=True)
    plant(game, {f"old/{precious.name}": {"key": "x", "scope": ["tts", "en", ""], "check": {}}})
    assert render(game).exit_code == 0
    assert precious.exists()


@pytest.mark.slow
@pytest.mark.parametrize("scope", [["tts", "en"], "tts", [1, 2, 3], {"a": 1}])
def test_a_malformed_scope_is_no_internal_error(game: Path, scope):
    (game / "output" / "tts" / "en").mkdir(parents=True)
    (game / "output" / "tts" / "en" / "gone.png").write_bytes(b"old")  # an output the entry names
    plant(game, {"tts/en/gone.png": {"key": "x", "scope": scope, "check": {}}})
    result = render(game)
    assert result.exit_code == 0, (result.output, result.exception)


@pytest.mark.slow
def test_an_output_of_a_removed_card_is_still_removed(game: Path):
    assert render(game).exit_code == 0
    stale = game / "output" / "tts" / "en" / "gone.png"
    stale.write_bytes(b"old")
    manifest = manifest_record(game / "output")
    data = manifest.load()  # as this machine's forge wrote it, an older card included
    data["files"]["tts/en/gone.png"] = {"key": "x", "scope": ["tts", "en", ""], "check": {}}
    manifest.save(data)
    assert render(game).exit_code == 0
    assert not stale.exists()
