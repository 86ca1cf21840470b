"""Text classes and text styles as plain data: what the fitter's callers decide without measuring.

Kept apart from ``forge.render.fit`` (which imports reportlab for its font metrics) so that a
check whose texts the text-fit record already knows (``forge validate`` run again) decides the
classes without loading the font machinery at all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class TextStyle:
    """Fonts and spacing of a text box, from the template's ``text:`` settings."""

    text_font: str
    keyword_font: str
    flavor_font: str
    min_size: float
    max_size: float
    step: float
    leading: float
    paragraph_gap: float
    icon_scale: float
    flavor_scale: float
    flavor_gap: float
    align: str
    hyphenate: bool
    icon_line_scale: float = 1.0  # a line of icons only (a Soul card's essence) is drawn this much larger

    @classmethod
    def from_template(cls, tpl, card_type: str) -> "TextStyle":
        t = tpl.text_settings(card_type)
        return cls(tpl.font("text"), tpl.font("keyword"), tpl.font("flavor"),
                   float(t["min_size"]), float(t["max_size"]), float(t["step"]), float(t["leading"]),
                   float(t["paragraph_gap"]), float(t["icon_scale"]), float(t["flavor_scale"]),
                   float(t["flavor_gap"]), str(t.get("align", "auto")), bool(t.get("hyphenate", True)),
                   float(t.get("icon_line_scale", 1.0)))


@dataclass(frozen=True)
class TextClass:
    """A card's text-length class and its alignment (every card of its type and class has it), and the size
    the card prints at in one language (the largest its text fits at)."""

    name: str
    size: float
    align: str


def class_of(fill: float, classes: dict) -> str:
    """The first class (by its ``up_to``) whose limit the fill does not pass; the fullest class past all.

    A class without a numeric ``up_to`` takes what no other class does.
    """
    ordered = sorted(((name, _limit(spec)) for name, spec in classes.items()), key=lambda kv: kv[1])
    for name, limit in ordered:
        if fill <= limit + 1e-9:
            return name
    return ordered[-1][0]


def _limit(spec) -> float:
    value = spec.get("up_to") if isinstance(spec, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.inf


def class_align(classes: dict, name: str) -> str:
    """A class's alignment: center or left (anything else reads as left)."""
    spec = classes.get(name)
    align = spec.get("align") if isinstance(spec, dict) else None
    return align if align in ("left", "center") else "left"
