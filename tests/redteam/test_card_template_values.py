"""templates/cards/card.yaml values stay in the ranges a card can take: a finding at their line, never a crash.

Before: `bleed: 1000` (within the old 0-1000 check for every number) passed `forge check` and
ended `forge render` in "internal error: ValueError: box can't be empty"; a zero-width art box,
a 40 mm safe margin, a 500 pt font or min_size above max_size passed too.
Now each is a `template` finding at its line and column, in validate and in render.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .boxed import forge

TEMPLATE = Path("templates") / "cards" / "card.yaml"

EDITS = {
    "a bleed of 1000 mm": ("  bleed: 3.175 ", "  bleed: 1000 ", "card.bleed"),
    "a card 5 mm wide": ("  width: 63.5", "  width: 5", "card.width"),
    "a safe margin of 40 mm": ("  safe: 3.175 ", "  safe: 40 ", "card.safe"),
    "a 500 pt font": ("  max_size: 9.0", "  max_size: 500", "text.max_size"),
    "a scale of 900": ("  icon_scale: 1.2", "  icon_scale: 900", "text.icon_scale"),
    "an art box of no width": ("art: [4.4, 12.9, 54.7, 34.6]", "art: [4.4, 12.9, 0, 34.6]", "layouts.default.art"),
    "an art box off the card": ("art: [4.4, 12.9, 54.7, 34.6]", "art: [400, 12.9, 54.7, 34.6]",
                                "layouts.default.art"),
    "min_size above max_size": ("  min_size: 6.5 ", "  min_size: 9.5 ", "text"),
    # the backs are checked against the built-in's first back (a reference to a back that no longer
    # existed once the deck cards shared one back let any value through, to crash the render)
    "a back colour that is no colour": ('deck: {color: "#2a2340"', 'deck: {color: "nope"', "backs.deck.color"),
    "a Rite back colour that is no colour": ('rite: {color: "#3b2c14"', 'rite: {color: "nope"', "backs.rite.color"),
}


@pytest.fixture(params=sorted(EDITS))
def hostile(request, shipped: Path):
    old, new, key = EDITS[request.param]
    path = shipped / TEMPLATE
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = text[:text.index(old)].count("\n") + 1
    return shipped, key, line


def test_validate_reports_the_value_at_its_line(hostile):
    root, key, line = hostile
    code, output = forge("validate", "--root", str(root))
    assert code == 1, output
    assert "internal error" not in output and "Traceback" not in output
    found = re.search(rf"templates/cards/card\.yaml:(\d+):\d+: \[template\] `{re.escape(key)}[`.]", output)
    assert found, output
    if key != "text":  # min_size above max_size is reported at the text section
        assert int(found.group(1)) == line, output


def test_render_refuses_a_bleed_of_1000_without_an_internal_error(shipped: Path):
    path = shipped / TEMPLATE
    path.write_text(path.read_text(encoding="utf-8").replace("  bleed: 3.175 ", "  bleed: 1000 ", 1),
                    encoding="utf-8")
    code, output = forge("render", "cards", "--root", str(shipped), "--lang", "en", "--profile", "tts",
                         "--workers", "1")
    assert code == 2, output
    assert "internal error" not in output and "`card.bleed` must be a number from 0 to 10" in output
