"""A pull request can commit `output/` (or `docs/`) as a symlink: forge must not write through it.

Git stores symlinks, so `output -> /home/ci/.ssh` in a stranger's branch would make `forge render`
or `forge simulate --save-replays` write files outside the project. The default output folder is
refused when it leads outside the project; a folder named with `--out` is the user's choice.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..conftest import invoke

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def elsewhere(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("elsewhere")  # beside the project, not in it
    return target


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
def test_an_explicit_out_folder_outside_the_project_is_allowed(shipped: Path, elsewhere: Path):
    result = invoke(["simulate", "--root", str(shipped), "-n", "1", "-j", "1"])
    assert result.exit_code in (0, 1), result.output
    (shipped / "output").symlink_to(elsewhere, target_is_directory=True)
    out = elsewhere / "chosen"
    result = invoke(["render", "cards", "--root", str(shipped), "--lang", "en", "--profile", "tts",
                     "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert any(out.rglob("*.png"))


@pytest.mark.parametrize("link, command", [
    ("tts", ["render", "cards", "--lang", "en", "--profile", "tts", "--workers", "1"]),
    ("books", ["render", "rulebook", "--lang", "en"]),
], ids=["cards", "books"])
@pytest.mark.slow
def test_a_link_inside_the_output_folder_is_not_followed_out(shipped: Path, elsewhere: Path, link, command):
    (shipped / "output").mkdir()
    (shipped / "output" / link).symlink_to(elsewhere, target_is_directory=True)
    result = invoke([*command, "--root", str(shipped)])
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output
    assert "a link leads it outside the output folder" in result.stderr
    assert not any(elsewhere.rglob("*")), sorted(elsewhere.rglob("*"))


@pytest.mark.slow
def test_the_write_rule_ends_with_the_command(shipped: Path, elsewhere: Path):
    from forge.core import atomic

    invoke(["render", "rulebook", "--root", str(shipped), "--lang", "en"])
    atomic.write_text(elsewhere / "later.txt", "a later write of a library user")  # not confined any more
    assert (elsewhere / "later.txt").exists()
