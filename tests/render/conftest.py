"""Fixtures of the render tests: the small game's print files, rendered once for the run (``tests.shared.once``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.render.cards import RenderOptions, render_cards

from ..shared import once
from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def mini_print(tmp_path_factory):
    """The small game's print-and-play and print-on-demand files, both languages and papers: (output folder,
    result). Read, never written: the aid tests and the preflight memo tests share it."""
    def build(folder: Path):
        out = folder / "output"
        return out, render_cards(mini_db(), books(), REPO, RenderOptions(out=out, workers=2, profiles=("pnp", "pod")))

    return once(tmp_path_factory, "mini-print", build)
