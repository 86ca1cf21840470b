"""The last page of text is never left mostly blank: the closing block's leading takes up the slack.

A book ends where its text ends, and the notes pages and the back cover follow: a last page
holding three lines is waste a publisher would not print. After the layout, the last page's
blank share is read from WeasyPrint's box tree; when it is too large, the book's closing
blocks (the art credits, the credits: ``FILLABLE``), small print that may breathe, are set
with a looser or a tighter leading, computed from their measured height, so that they either
fill the last page or give it back, and the book is laid out once more. The new layout is kept
only when it is better. Books that need nothing (the shipped ones, by their CSS) cost nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

#: The last page of text may end this much blank (tests/books/test_layout.py allows 0.40, read from pixels).
MOST_BLANK = 0.38
#: What a loosened closing block aims at: this much of the last page left blank.
AIM_BLANK = 0.2
#: Classes of the closing blocks whose leading may change, and by how much at most (a factor).
FILLABLE = ("art-credits", "credits")
LOOSEST, TIGHTEST = 1.6, 0.85


@dataclass
class Shape:
    """What the balance reads of a layout: its pages, its last page's blank share, its closing blocks."""

    pages: int
    blank: float
    height: float  # the page's text area, in CSS px
    blocks: dict[str, tuple[float, float]]  # class -> (total height over the pages, line pitch), in CSS px


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    value = element.get("class") if element is not None and hasattr(element, "get") else None
    return set(value.split()) if value else set()


def shape(pages) -> Shape:
    from weasyprint.formatting_structure import boxes

    blocks: dict[str, list[float]] = {}
    pitches: dict[str, list[float]] = {}
    blank, height = 0.0, 1.0
    for number, page in enumerate(pages):
        root = page._page_box
        top, height = root.content_box_y(), root.height
        bottom = top
        todo = [(root, None)]
        while todo:
            box, inside = todo.pop()
            if isinstance(box, boxes.MarginBox):
                continue
            if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)):
                bottom = max(bottom, box.position_y + box.height)
                if inside is not None and isinstance(box, boxes.LineBox):
                    pitches.setdefault(inside, []).append(box.height)
                continue
            name = next((c for c in FILLABLE if c in _classes(box)), None) if isinstance(box, boxes.BlockBox) else None
            if name is not None:
                blocks.setdefault(name, []).append(box.margin_height())
                inside = name
            todo += [(child, inside) for child in getattr(box, "children", None) or []]
        if number == len(pages) - 1:
            blank = max(0.0, 1 - (bottom - top) / height)
    return Shape(len(pages), blank, height,
                 {name: (sum(hs), sorted(pitches.get(name) or [0.0])[len(pitches.get(name) or [0.0]) // 2])
                  for name, hs in blocks.items()})


def leading_css(s: Shape) -> str | None:
    """The CSS that sets the closing blocks' leading so the last page ends about ``AIM_BLANK`` blank
    (or, when only a few lines spill onto it, gives that page back), or None when nothing can help."""
    if s.blank <= MOST_BLANK:
        return None
    total = sum(h for h, pitch in s.blocks.values() if pitch > 0)
    if total <= 0:
        return None
    used = (1 - s.blank) * s.height
    shrink = 1 - (used + 0.02 * s.height) / total  # give the last page back
    grow = 1 + (s.blank - AIM_BLANK) * s.height / total  # or fill it
    factor = shrink if shrink >= TIGHTEST else min(grow, LOOSEST)
    return "".join(f".{name}, .{name} * {{ line-height: {pitch * factor:.2f}px !important; }}"
                   for name, (h, pitch) in sorted(s.blocks.items()) if pitch > 0)


def better(old: Shape, new: Shape) -> bool:
    """Whether a re-balanced layout is the one to keep: fewer pages, or as many and a fuller last page."""
    if new.pages != old.pages:
        return new.pages < old.pages and new.blank <= MOST_BLANK
    return new.blank < old.blank
