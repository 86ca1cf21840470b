"""A pull request can commit `output/` (or `docs/`) as a symlink: forge must not write through it.

Git stores symlinks, so `output -> /home/ci/.ssh` in a stranger's branch would make `forge render`
or `forge simulate --save-replays` write files outside the project. The default output folder is
refused when it leads outside the project; a folder named with `--out` is the user's choice.

The tests that render write into the small game (tests/redteam/small.py): the links are the attack, not the
cards; its books render as a DRAFT (``--force``).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..conftest import invoke
from .small import small_game

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def elsewhere(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("elsewhere")  # beside the project, not in it
    return target


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return small_game(tmp_path / "game")


def refused(result, target: Path) -> None:
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert "leads outside the project" in result.stderr
    assert not any(target.rglob("*")), sorted(target.rglob("*"))


@pytest.mark.parametrize("command", [["render", "cards", "--lang", "en", "--profile", "tts", "--workers", "1"],
                                     ["render", "rulebook", "--lang", "en"],
                                     ["build", "--games", "1", "--jobs", "1", "--lang", "en"]])
def test_a_linked_output_folder_is_not_written_through(shipped: Path, elsewhere: Path, command):
    (shipped / "output").symlink_to(elsewhere, target_is_directory=True)
    refused(invoke([*command, "--root", str(shipped)]), elsewhere)


def test_simulate_does_not_write_replays_through_a_linked_output(shipped: Path, elsewhere: Path):
    (shipped / "output").symlink_to(elsewhere, target_is_directory=True)
    refused(invoke(["simulate", "--root", str(shipped), "-n", "1", "-j", "1", "--save-replays"]), elsewhere)


def test_docs_does_not_write_through_a_linked_docs_folder(shipped: Path, elsewhere: Path):
    (elsewhere / "design.md").write_text("# Design\n", encoding="utf-8")  # a file the link would overwrite
    shutil.copy(REPO / "docs" / "design.md", shipped / "design.md.orig")
    (shipped / "docs").symlink_to(elsewhere, target_is_directory=True)
    result = invoke(["docs", "--root", str(shipped)])
    assert result.exit_code == 2, result.output
    assert "leads outside the project" in result.stderr
    assert (elsewhere / "design.md").read_text(encoding="utf-8") == "# Design\n"


@pytest.mark.slow
def test_an_explicit_out_folder_outside_the_project_is_allowed(game: Path, elsewhere: Path):
    result = invoke(["simulate", "--root", str(game), "-n", "1", "-j", "1", "--force"])
    assert result.exit_code in (0, 1), result.output
    (game / "output").symlink_to(elsewhere, target_is_directory=True)
    out = elsewhere / "chosen"
    result = invoke(["render", "cards", "--root", str(game), "--lang", "en", "--profile", "tts",
                     "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert any(out.rglob("*.png"))


@pytest.mark.parametrize("link, command", [
    ("tts", ["render", "cards", "--lang", "en", "--profile", "tts", "--workers", "1"]),
    ("books", ["render", "rulebook", "--lang", "en", "--force"]),
], ids=["cards", "books"])
@pytest.mark.slow
def test_a_link_inside_the_output_folder_is_not_followed_out(game: Path, elsewhere: Path, link, command):
    (game / "output").mkdir()
    (game / "output" / link).symlink_to(elsewhere, target_is_directory=True)
    result = invoke([*command, "--root", str(game)])
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output
    assert "a link leads it outside the output folder" in result.stderr
    assert not any(elsewhere.rglob("*")), sorted(elsewhere.rglob("*"))


@pytest.mark.slow
def test_the_write_rule_ends_with_the_command(game: Path, elsewhere: Path):
    from forge.core import atomic

    invoke(["render", "rulebook", "--root", str(game), "--lang", "en", "--force"])
    assert (game / "output" / "books" / "rulebook-en.pdf").exists()  # the command wrote, confined
    atomic.write_text(elsewhere / "later.txt", "a later write of a library user")  # not confined any more
    assert (elsewhere / "later.txt").exists()
