"""The room a printed string has (``Limit``) and how wide a string prints: what ``limits`` and the
label modules (``booklabels``, ``templatelabels``) all measure with, below all three.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..core import safeio
from .css import LEGIBLE_PT, PT_PER_MM, Unreadable, box, lengths

#: Average French prose: what "about N characters" means (accents, capitals, spaces and punctuation in
#: their usual share). A fixed text, so a limit moves only when the layout or its fonts do.
SAMPLE = ("Quand cette créature est détruite, piochez une carte. Chaque joueur épuise une Âme : "
          "la zone de recrutement s’ouvre à nouveau.")
_MARKUP = re.compile(r"\*\*|`|\[\[[a-z_-]+\]\]|\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")  # ` : a code span prints without it


@dataclass(frozen=True)
class Limit:
    """The room one string has: its width in points, the font and size it prints at, about how many characters."""

    chars: int
    width: float
    font: str
    size: float
    where: str
    one_line: bool  # printed on one line: parity measures the string against ``width``
    #: A type-line word: the type lines too long for their bar that it is the widest word of,
    #: (language, card, line, its width, the bar's), which parity reports instead of measuring the word alone.
    overflow: tuple = ()
    upper: bool = False  # printed upper-cased (the player aid's back label): measured so

    def note(self, text: str = "", which: str = "French") -> str:
        """For the translator: the room, about how many characters, and how much of it ``text`` fills."""
        mm = self.width * 25.4 / 72
        if not self.one_line:
            return (f"Room: about {self.chars} characters at most ({self.where}, at {self.size:g} pt, the smallest "
                    "size it prints at; an estimate: the text box is shared, `forge parity` checks the real fit).")
        fill = ""
        if text.strip() and self.width > 0:
            shown = text.upper() if self.upper else text
            fill = f"; the {which} fills {100 * width(shown, self.font, self.size) / self.width:.0f} % of it"
        return (f"Room: {self.where} is {mm:.0f} mm wide at {self.size:g} pt, the smallest size it prints at "
                f"(about {self.chars} characters){fill}.")


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split())


def width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: loads reportlab only when needed

    return stringWidth(_plain(text), font, size)


def _per_char(font: str, size: float) -> float:
    return width(SAMPLE, font, size) / len(SAMPLE)


def _limit(room: float, font: str, size: float, where: str, one_line: bool = True) -> Limit:
    room = max(room, 0.0)
    return Limit(int(room / _per_char(font, size)), room, font, size, where, one_line)


# -- books ------------------------------------------------------------------------------------
_PAGE_SIZES_MM = {"A4": (210.0, 297.0), "A5": (148.0, 210.0), "A6": (105.0, 148.0), "LETTER": (215.9, 279.4)}


def _book_layout(root: Path) -> tuple[float | None, dict[int, float]]:
    """The page column's width (points) and the heading sizes, read from the books' stylesheet.

    Lengths in any absolute unit (``css.lengths``); a margin or a size in a unit with no
    absolute size (em, vw, calc()…) gives no column, or no size for that heading level: no limit.
    """
    try:
        css = safeio.read_text(root / "templates/books/book.css", root)
    except (safeio.UnsafeInput, UnicodeDecodeError):
        return None, {}
    page = re.search(r"@page\s*\{[^}]*?size:\s*([A-Za-z0-9]+)\s*;[^}]*?margin:\s*([^;}]+)[;}]", css)
    if not page or page.group(1).upper() not in _PAGE_SIZES_MM:
        return None, {}
    paper = _PAGE_SIZES_MM[page.group(1).upper()][0] * PT_PER_MM
    try:
        left, right = box(page.group(2), paper)
    except Unreadable:
        return None, {}
    column = paper - left - right
    if not math.isfinite(column) or column <= 0:
        return None, {}
    sizes = {}
    for level in (2, 3):
        rule = re.search(rf"(?m)^h{level}\s*\{{[^}}]*?font-size:\s*([^;}}]+)", css)
        try:
            size = lengths(rule.group(1))[0] if rule and "%" not in rule.group(1) else 0.0
        except Unreadable:
            continue
        if size >= LEGIBLE_PT:
            sizes[level] = size
    return column, sizes
