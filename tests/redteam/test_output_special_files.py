"""Files under output/ are forge's own, but a pull request can commit them: never follow or read a link there.

Before: `output/gamecrafter/en/quantities.csv -> /dev/zero` (git stores symlinks) made
`forge render cards` read /dev/zero to compare it with the new list, until the memory ran out;
the render cache's manifest, hashes and check records were read the same way.

The links are the attack, not the cards: the small game (tests/redteam/small.py) is rendered.
"""
from __future__ import annotations

import pytest

from pathlib import Path
from ..conftest import invoke
from .small import small_game


def render(root: Path, profile: str):
    return invoke(["render", "cards", "--root", str(root), "--lang", "en",
                   "--profile", profile, "--workers", "1"])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return small_game(tmp_path / "game")


@pytest.mark.slow
def test_a_small_output_linked_to_dev_zero_is_replaced_not_read(game: Path, no_hang):
    target = game / "output" / "gamecrafter" / "en" / "quantities.csv"
    target.parent.mkdir(parents=True)
    target.symlink_to("/dev/zero")
    result = render(game, "gamecrafter")
    assert result.exit_code == 0, (result.output, result.exception)
    assert not target.is_symlink() and target.read_text(encoding="utf-8").startswith("file,id,name")


@pytest.mark.slow
def test_cache_records_linked_to_dev_zero_are_rendered_again(game: Path, no_hang):
    assert render(game, "tts").exit_code == 0
    out = game / "output"
    linked = [out / ".cache" / "manifest.json", out / "tts" / "preflight.json"]
    for d in sorted((out / ".cache" / "faces").glob("*/*"))[:4]:
        linked += [d / "hashes.json", d / "check.json"]
    for path in linked:
        path.unlink(missing_ok=True)
        path.symlink_to("/dev/zero")
    result = render(game, "tts")
    assert result.exit_code == 0, (result.output, result.exception)
    assert "internal error" not in result.output
    assert not (out / "tts" / "preflight.json").is_symlink()
