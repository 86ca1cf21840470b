"""The last page of text is never left mostly blank: the closing block's leading takes up the slack.

A book ends where its text ends, and the notes pages and the back cover follow: a last page
holding three lines is waste a publisher would not print. After the layout, the last page's
blank share is read from WeasyPrint's box tree; when it is too large, the book's closing
blocks (the art credits, the credits: ``FILLABLE``), small print that may breathe, are set
with a looser or a tighter leading, computed from their measured height, so that they either
fill the last page or give it back, and the book is laid out once more. The new layout is kept
only when it is better. Books that need nothing (the shipped ones, by their CSS) cost nothing.

The closing blocks alone hold too little to fill a page or give most of one back. The rulebook's
worked example is where the length of a book changes from build to build (it is a game the
engine plays with the current cards), and each of its events is a short paragraph of its own:
the space after those paragraphs (``ELASTIC``) takes what the closing blocks cannot, between
none and ``GAP_MOST``, the way a typesetter spaces out or closes up a list to make a page.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The last page of text may end this much blank (tests/books/test_layout.py allows 0.40, read from pixels).
MOST_BLANK = 0.38
#: What a loosened closing block aims at: this much of the last page left blank.
AIM_BLANK = 0.2
#: Classes of the closing blocks whose leading may change, and by how much at most (a factor).
FILLABLE = ("art-credits", "credits")
LOOSEST, TIGHTEST = 1.15, 0.85  # no looser: at 1.8 the credits read double-spaced (issue 24 §4)
#: Classes of paragraphs whose space after may change (the worked example's events), and its most, in CSS px
#: (3.5 mm, about one line of the text: a list spaced out, not a gap a reader takes for a section's end;
#: 2.5 mm left the English rulebook's last page 47 % blank once the soul sources listed every card).
ELASTIC = ("play-step",)
GAP_MOST = 3.5 * 96 / 25.4


@dataclass
class Shape:
    """What the balance reads of a layout: its pages, its last page's blank share, its closing blocks."""

    pages: int
    blank: float
    height: float  # the page's text area, in CSS px
    blocks: dict[str, tuple[float, float]]  # class -> (total height over the pages, line pitch), in CSS px
    gaps: dict[str, tuple[int, float]] = field(default_factory=dict)  # class -> (paragraphs, space after), CSS px


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    value = element.get("class") if element is not None and hasattr(element, "get") else None
    return set(value.split()) if value else set()


def shape(pages) -> Shape:
    from ..core.compat import weasyprint as weasyprint_internals  # lazy: loads forge.core only when needed

    boxes = weasyprint_internals.boxes()
    blocks: dict[str, list[float]] = {}
    gaps: dict[str, list[float]] = {}
    pitches: dict[str, list[float]] = {}
    blank, height = 0.0, 1.0
    for number, page in enumerate(pages):
        root = weasyprint_internals.page_box(page)
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
            classes = _classes(box) if isinstance(box, boxes.BlockBox) else set()
            name = next((c for c in FILLABLE if c in classes), None)
            elastic = next((c for c in ELASTIC if c in classes), None)
            if elastic is not None:
                gaps.setdefault(elastic, []).append(box.margin_bottom)
            if name is not None:
                blocks.setdefault(name, []).append(box.margin_height())
                inside = name
            todo += [(child, inside) for child in getattr(box, "children", None) or []]
        if number == len(pages) - 1:
            blank = max(0.0, 1 - (bottom - top) / height)
    return Shape(len(pages), blank, height,
                 {name: (sum(hs), sorted(pitches.get(name) or [0.0])[len(pitches.get(name) or [0.0]) // 2])
                  for name, hs in blocks.items()},
                 {name: (len(ms), sorted(ms)[len(ms) // 2]) for name, ms in gaps.items()})


def leading_css(s: Shape) -> str | None:
    """The CSS that sets the closing blocks' leading, and when they cannot do it alone the elastic
    paragraphs' space after, so the last page ends about ``AIM_BLANK`` blank (or, when the lines that
    spill onto it can be taken back, gives that page back), or None when nothing can help."""
    if s.blank <= MOST_BLANK:
        return None
    total = sum(h for h, pitch in s.blocks.values() if pitch > 0)
    spaces = sum(n for n, _ in s.gaps.values())
    if total <= 0 and spaces == 0:
        return None
    used = (1 - s.blank) * s.height
    back = used + 0.02 * s.height  # the height to take back to give the last page back
    if back <= total * (1 - TIGHTEST) + sum(n * gap for n, gap in s.gaps.values()):
        factor = max(TIGHTEST, 1 - back / total) if total > 0 else 1.0
        gap_change = -(back - total * (1 - factor)) / spaces if spaces else 0.0
    else:  # fill the last page: the leading first, then the space between paragraphs
        need = (s.blank - AIM_BLANK) * s.height
        factor = min(1 + need / total, LOOSEST) if total > 0 else 1.0
        gap_change = (need - total * (factor - 1)) / spaces if spaces else 0.0
    css = "".join(f".{name}, .{name} * {{ line-height: {pitch * factor:.2f}px !important; }}"
                  for name, (h, pitch) in sorted(s.blocks.items()) if pitch > 0 and factor != 1.0)
    css += "".join(f".{name} {{ margin-bottom: {min(GAP_MOST, max(0.0, gap + gap_change)):.2f}px !important; }}"
                   for name, (n, gap) in sorted(s.gaps.items()) if abs(gap_change) > 0.005)
    return css or None


def better(old: Shape, new: Shape) -> bool:
    """Whether a re-balanced layout is the one to keep: fewer pages, or as many and a fuller last page."""
    if new.pages != old.pages:
        return new.pages < old.pages and new.blank <= MOST_BLANK
    return new.blank < old.blank
