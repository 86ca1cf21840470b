"""templates/cards/card.yaml comes from the pull request too: every value is checked before use.

Before: `width: abc`, a colour that is not a colour, a font or icon name that forge does not have
were internal errors; `max_size: 1e9`, `step: 1e-10` or `step: -1` hung validate and render (the
text fitter tried sizes forever); NaN went through. Now each is a `template` finding at its line.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest


TEMPLATE = Path("templates") / "cards" / "card.yaml"

EDITS = {
    "not a number": ("  width: 63.5", "  width: abc", "card.width"),
    "NaN": ("  width: 63.5", "  width: .nan", "card.width"),
    "infinite": ("  height: 88.9", "  height: .inf", "card.height"),
    "not a colour": ('  ink: "#1f1b16"', '  ink: "notacolor"', "colors.ink"),
    "a font path": ("  text: Lato\n", "  text: ../../../etc/passwd\n", "fonts.text"),
    "an icon path": ("    watermark: trap", "    watermark: ../../../../etc/passwd", "layouts.trap.watermark"),
    "a huge font": ("  max_size: 9.0", "  max_size: 1000000000", "text.max_size"),
    "a tiny step": ("  step: 0.25", "  step: 0.0000000001", "text.step"),
    "a negative step": ("  step: 0.25", "  step: -1", "text.step"),
    "a fractional count": ("max_pips: 6", "max_pips: 6.5", "layouts.default.allegiance.max_pips"),
    "a section that is a number": ("\ncard:\n", "\ncard: 5\nunused:\n", "card"),
    "an unknown art shape": ("    art_shape: arch", "    art_shape: blob", "layouts.spell.art_shape"),
    "a box of three numbers": ("art: [4.4, 12.9, 54.7, 34.6]", "art: [4.4, 12.9, 54.7]", "layouts.default.art"),
    "a missing key": ("  safe: 3.175", "  unused: 3.175", "card.safe"),
}


@pytest.fixture(params=sorted(EDITS))
def hostile(request, shipped: Path):
    old, new, key = EDITS[request.param]
    path = shipped / TEMPLATE
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return shipped, key


def test_validate_reports_the_value_at_its_line(hostile, no_hang, cli):
    root, key = hostile
    result = cli(["validate", "--root", str(root)])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    assert re.search(rf"templates/cards/card\.yaml:\d+:\d+: \[template\] `{re.escape(key)}` ", result.output), result.output


def test_render_refuses_the_template_without_an_internal_error(hostile, no_hang, cli):
    root, key = hostile
    result = cli(["render", "cards", "--root", str(root), "--lang", "en", "--profile", "tts",
                  "--workers", "1"])
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and f"`{key}`" in result.output
    assert not (root / "output" / "tts").exists()


def test_the_shipped_template_passes(shipped: Path):
    from forge.render.template import load_template

    assert load_template(shipped).data["card"]["width"] == 63.5
