"""SVG card art is measured before svglib draws it: `<use>` amplification is a finding, not a hang.

Before: svglib copied the element a `<use>` names for every `<use>`, so a 3 KB file with
ten nested levels of ten `<use>` each (10^10 elements) hung `forge validate` (killed after
300 s at 1.1 GB), and six files of a few thousand elements each took minutes. Now
``forge.core.svgsafe`` counts what the file would draw, following every reference once, and
refuses it past the budget (``forge.core.limits``), in well under a second.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.core import limits

from .boxed import forge

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="100" viewBox="0 0 100 100">')


def use_chain(depth: int, fan: int) -> bytes:
    """``fan`` ** ``depth`` copies of one rectangle, in a file of about 30 × depth × fan bytes."""
    levels = [f'<g id="l{i}">' + f'<use xlink:href="#l{i - 1}"/>' * fan + "</g>" for i in range(1, depth + 1)]
    return (HEAD + '<defs><rect id="l0" width="1" height="1"/>' + "".join(levels)
            + f'</defs><use xlink:href="#l{depth}"/></svg>').encode()


def with_art(root: Path, data: bytes) -> Path:
    """The first red card drawn from ``art/attack.svg`` holding ``data``."""
    (root / "art").mkdir(exist_ok=True)
    (root / "art" / "attack.svg").write_bytes(data)
    cards = root / "cards" / "red.yaml"
    text = cards.read_text(encoding="utf-8")
    old = "    art: {icon: flint-spark, accents: [small-fire], layout: corner}"
    assert old in text
    cards.write_text(text.replace(old, "    art: {image: art/attack.svg, fit: contain}", 1), encoding="utf-8")
    return cards


ATTACKS = {
    "use chain 10 deep, fan-out 10 (10^10 elements)": (use_chain(10, 10), "would draw"),
    "use chain 4 deep, fan-out 12 (20,736 elements)": (use_chain(4, 12), "would draw"),
    "use chain 12 deep, fan-out 1": (use_chain(12, 1), "deep, more than the budget of 8"),
    "a use of its own ancestor": (HEAD.encode() + b'<g id="g"><rect width="1" height="1"/><use href="#g"/></g></svg>',
                                  "reference cycle"),
    "20,001 flat elements": (HEAD.encode() + b'<rect width="1" height="1"/>' * 20_001 + b"</svg>", "elements"),
    "clip-path copies": (HEAD.encode() + b'<clipPath id="c">' + b'<rect width="1" height="1"/>' * 200
                         + b"</clipPath>" + b'<rect width="9" height="9" clip-path="url(#c)"/>' * 200 + b"</svg>",
                         "would draw"),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_amplifying_svg_is_a_finding_at_the_art_line(shipped: Path, name: str):
    data, words = ATTACKS[name]
    assert len(data) < 700_000
    cards = with_art(shipped, data)
    code, output = forge("validate", "--root", str(shipped), "--quick")
    assert code == 1, output
    line = cards.read_text(encoding="utf-8").split("\n").index("    art: {image: art/attack.svg, fit: contain}") + 1
    assert f"cards/red.yaml:{line}:" in output and "[art] art `art/attack.svg`" in output, output
    assert words in output and ("budget" in output or "cycle" in output), output
    assert "internal error" not in output and "Traceback" not in output


def test_a_drawing_within_the_budget_still_passes(shipped: Path):
    """A use chain of 3 × 10 (1,111 rectangles) is an honest drawing: validate accepts it."""
    assert 10 ** 3 < limits.MAX_SVG_EXPANDED
    with_art(shipped, use_chain(3, 10))
    code, output = forge("validate", "--root", str(shipped), "--quick")
    assert code == 0 and "attack.svg" not in output, output


def test_scripts_and_event_handlers_never_reach_svglib():
    from forge.core.svgsafe import sanitise

    data = (HEAD + '<script>alert(1)</script><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p>'
            '</foreignObject><rect width="5" height="5" onclick="alert(2)" onload="alert(3)"/></svg>').encode()
    safe, rasters = sanitise(data)
    assert b"script" not in safe and b"foreignObject" not in safe and b"alert" not in safe and rasters == []
    assert b"<rect" in safe
