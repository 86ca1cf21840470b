"""A card file may carry a huge text (up to the 10 MB input limit): validate and render stay quick.

Before: a 2 MB flavour text made `forge validate` run for minutes (the line breaker popped words
off the front of a list, the text was re-split at every size tried, and laid out to the end even
after it had overflowed), and a text of zero-width words, all on one line, was quadratic too.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.render.fit import TextStyle, fit_text

from ..conftest import cpu_seconds

FLAVOR = 'flavor: {en: "Every wildfire'


def with_flavor(root: Path, words: str) -> None:
    path = root / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    assert FLAVOR in text
    path.write_text(text.replace(FLAVOR, f'flavor: {{en: "{words} Every wildfire', 1), encoding="utf-8")


@pytest.mark.parametrize("words", ["burn " * 400_000, "\u200b " * 300_000], ids=["words", "zero-width words"])
def test_validate_reports_a_huge_flavour_text_quickly(shipped: Path, no_hang, words, cli):
    with_flavor(shipped, words)
    start = cpu_seconds()
    result = cli(["validate", "--root", str(shipped)])
    assert cpu_seconds() - start < 20
    assert "internal error" not in result.output
    if words.startswith("burn"):
        assert result.exit_code == 1 and "[text-overflow]" in result.output, result.output


def test_a_text_that_overflows_is_laid_out_only_past_its_box():
    style = TextStyle("Lato", "Lato-Bold", "Lato-Italic", 6.5, 9.0, 0.25, 1.18, 0.32, 1.2, 0.92, 0.7, "auto", True, 1.0)
    layout = fit_text(["Wound 1."], "burn " * 50_000, 150.0, 70.0, style, "en")
    assert not layout.fits
    assert 70.0 < layout.height <= 4 * 70.0  # drawn a little past the box, not 50,000 words down the page


def test_a_text_that_fits_is_laid_out_whole():
    style = TextStyle("Lato", "Lato-Bold", "Lato-Italic", 6.5, 9.0, 0.25, 1.18, 0.32, 1.2, 0.92, 0.7, "auto", True, 1.0)
    layout = fit_text(["Wound 1.", "Draw a card."], "Short flavour.", 150.0, 70.0, style, "en")
    assert layout.fits and layout.size == 9.0
    assert sum(1 for line in layout.lines if line.flavor) == 1 and len(layout.lines) == 3
