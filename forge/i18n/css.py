"""Lengths read from the books' stylesheet, in points, for the rooms ``limits`` and ``booklabels`` measure.

Only absolute units have a size a limit can be measured from (CSS Values 4: 1in = 2.54cm =
96px = 72pt = 6pc, 1Q = 0.25mm), and a percentage of a known base. A font-relative unit
(em, rem, ex, ch…), a viewport unit (vw, vh…), a function (``calc()``, ``var()``), a
keyword or a number without a unit has no size here: ``Unreadable`` is raised, and the
caller claims no limit for that place rather than a wrong one. The stylesheet is
untrusted (a pull request may change it): nothing here raises anything else.
"""
from __future__ import annotations

import math
from functools import lru_cache

PT_PER_MM = 72 / 25.4
#: Below this, a font size prints nothing a reader sees: such a stylesheet gives no room to measure.
LEGIBLE_PT = 1.0
#: Points per absolute CSS unit.
UNITS = {"pt": 1.0, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "q": PT_PER_MM / 4, "in": 72.0, "pc": 12.0,
         "px": 0.75}


class Unreadable(ValueError):
    """A CSS value with no absolute length: the place it sizes gets no limit."""


@lru_cache(maxsize=4)
def stylesheet(css: str) -> dict[str, dict[str, str]]:
    """Each selector of ``css`` (outside at-rules) with its declarations (later ones win).

    Cached by the text (parity reads book.css for the limits and for the check): read it, never change it."""
    import tinycss2  # lazy: loads tinycss2 only when needed

    rules: dict[str, dict[str, str]] = {}
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        decls = {d.lower_name: tinycss2.serialize(d.value).strip()
                 for d in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
                 if d.type == "declaration"}
        for selector in tinycss2.serialize(rule.prelude).split(","):
            rules.setdefault(" ".join(selector.split()), {}).update(decls)
    return rules


def lengths(value: str, base: float = 0.0) -> list[float]:
    """A CSS value's lengths in points (``%`` of ``base``; a bare ``0`` is 0); ``Unreadable`` if any has no size."""
    import tinycss2  # lazy: loads tinycss2 only when needed

    out = []
    for token in tinycss2.parse_component_value_list(value, skip_comments=True):
        if token.type == "whitespace":
            continue
        if token.type == "dimension" and token.lower_unit in UNITS:
            out.append(token.value * UNITS[token.lower_unit])
        elif token.type == "percentage":
            out.append(token.value * base / 100)
        elif token.type == "number" and token.value == 0:
            out.append(0.0)
        else:
            raise Unreadable(f"`{value}` is not an absolute length (mm, cm, Q, in, pt, pc, px or %)")
    if not out or not all(math.isfinite(n) for n in out):
        raise Unreadable(f"`{value}` has no finite length")
    return out


def box(value: str, base: float) -> tuple[float, float]:
    """The left and right of a CSS box shorthand (one to four values: ``padding: 0 1.5mm 0.8mm``)."""
    v = lengths(value, base)
    if len(v) > 4:
        raise Unreadable(f"`{value}` has more than four lengths")
    top, right, bottom, left = {1: lambda: v * 4, 2: lambda: v + v, 3: lambda: v + [v[1]]}.get(len(v), lambda: v)()
    return left, right


class Css:
    """Lengths read from the books' stylesheet; a missing rule raises KeyError, a unit with no size ``Unreadable``."""

    def __init__(self, css: str, column: float):
        self.rules, self.column = stylesheet(css), column

    def get(self, selector: str, prop: str) -> str:
        return self.rules[selector][prop]

    def length(self, selector: str, prop: str) -> float:
        """The first length of a declaration (a percentage is of the page column)."""
        return lengths(self.get(selector, prop), self.column)[0]

    def size(self, selector: str) -> float:
        """A font size: an absolute length, legible (a percentage is of the parent's size, unknown here)."""
        value = self.get(selector, "font-size")
        found = lengths(value)[0] if "%" not in value else 0.0
        if found < LEGIBLE_PT:
            raise Unreadable(f"font-size `{value}` is not an absolute size of at least {LEGIBLE_PT:g} pt")
        return found

    def number(self, selector: str, prop: str) -> float:
        """A positive unitless number (``line-height: 1.2``)."""
        try:
            found = float(self.get(selector, prop))
        except ValueError:
            raise Unreadable(f"{prop} `{self.get(selector, prop)}` is not a number") from None
        if not math.isfinite(found) or found <= 0:
            raise Unreadable(f"{prop} `{self.get(selector, prop)}` is not a positive number")
        return found

    def padding_x(self, *selectors: str) -> float:
        """Left plus right padding, read through ``selectors`` from the least to the most specific."""
        left = right = 0.0
        for rule in (self.rules[s] for s in selectors if s in self.rules):
            if "padding" in rule:
                left, right = box(rule["padding"], self.column)
            left = lengths(rule["padding-left"], self.column)[0] if "padding-left" in rule else left
            right = lengths(rule["padding-right"], self.column)[0] if "padding-right" in rule else right
        return left + right

    def cell(self, selector: str) -> float:
        """A body cell's width with its padding (``tbody td``, then its table's ``tbody td``, then its own)."""
        table = selector.split(" ")[0] + " tbody td" if selector.startswith("table.") else ""
        return self.length(selector, "width") + self.padding_x("tbody td", table, selector)


__all__ = ["PT_PER_MM", "LEGIBLE_PT", "UNITS", "Unreadable", "stylesheet", "lengths", "box", "Css"]
