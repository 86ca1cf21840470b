"""A record under output/.cache may come from a pull request: one of 100 000 nested brackets is no record.

Before: the render manifest was parsed with ``json.loads`` guarded against ``ValueError`` only; a
committed ``output/.cache/manifest.json`` of nested brackets raised ``RecursionError`` out of
``forge render`` (an internal error, nothing rendered). Now every sealed record (``forge.core.seal``)
that cannot be parsed is no record: the outputs are rendered again.

The attack is the record, not the cards: the small game (tests/redteam/small.py) is rendered.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import invoke
from .small import small_game


@pytest.mark.slow
def test_a_deeply_nested_manifest_is_no_record(tmp_path: Path):
    game = small_game(tmp_path / "game")
    manifest = game / "output" / ".cache" / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_bytes(b'{"data": ' + b"[" * 200_000 + b"}")
    result = invoke(["render", "cards", "--root", str(game), "--lang", "en",
                                      "--profile", "tts", "--workers", "1"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "internal error" not in result.output.lower() and "Traceback" not in result.output
    assert any((game / "output" / "tts").rglob("*.png"))
