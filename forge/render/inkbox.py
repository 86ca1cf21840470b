"""Where a drawing puts ink: a small interpreter of the PDF operators a card was drawn with.

The safe-zone check must see every drawn element (lines, rectangles, panels,
medallions, icons, gradients, images), whatever drawing call made it, so it reads
the content stream reportlab accumulated for the card instead of trusting each
drawing function to report itself. For each painting operator it gives the box
the ink can cover: the path's box in page space (through the current
transformation), widened by half the line width when stroked, and cut to the
current clipping box. Text (``BT … ET``) is skipped: ``Painter.text`` records
text boxes from the font's metrics.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Matrix = tuple[float, float, float, float, float, float]

_TOKEN = re.compile(r"/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[A-Za-z'\"*]+|\[|\]")
_PAINT = {"S": "stroke", "s": "stroke", "f": "fill", "F": "fill", "f*": "fill",
          "B": "both", "B*": "both", "b": "both", "b*": "both"}
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Ink:
    """One painted element: what painted it (stroke, fill, both, shading, image, form), where, at which code entry."""

    op: str
    box: Box
    index: int


def _ops(entry: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """The operators of one content-stream entry with their numeric operands (names kept as the last operand)."""
    out: list[tuple[str, tuple]] = []
    operands: list = []
    for tok in _TOKEN.findall(entry):
        c = tok[0]
        if c == "/" or c in "[]":
            operands.append(tok)
        elif c.isdigit() or c in "+-.":
            operands.append(float(tok))
        else:
            out.append((tok, tuple(operands)))
            operands = []
    return tuple(out)


_BUILD = {"m", "l", "c", "v", "y", "re", "h"}


def _compiled(entry: str) -> tuple[tuple[str, tuple], ...]:
    """``_ops``; a long entry (an icon's path, drawn on many cards) is read once per process."""
    if len(entry) <= 2:  # q, Q, S, f, f*, n...: most entries
        return ((entry, ()),)
    return _compiled_long(entry) if len(entry) > 160 else _ops(entry)


@lru_cache(maxsize=1024)
def _compiled_long(entry: str) -> tuple[tuple[str, tuple], ...]:
    """``_ops``, with an entry that only builds a path (an icon's hundreds of curves) folded into
    one ``box`` operator: its points' bounding box, whose corners are transformed instead."""
    ops = _ops(entry)
    lead = ops[:1] if ops[:1] == (("n", ()),) else ()  # reportlab starts each path with a no-op "n"
    if len(ops) < 4 or any(op not in _BUILD for op, _ in ops[len(lead):]):
        return ops
    xs: list[float] = []
    ys: list[float] = []
    for op, args in ops[len(lead):]:
        if op == "re" and len(args) == 4:
            xs += [args[0], args[0] + args[2]]
            ys += [args[1], args[1] + args[3]]
        elif op != "h":
            xs += args[0::2]
            ys += args[1::2]
    return lead + (("box", (min(xs), min(ys), max(xs), max(ys))),) if xs else ops


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m applied after n's space: the CTM after ``m cm`` when the CTM was ``n``."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _box_of(points: list[tuple[float, float]]) -> Box | None:
    if not points:
        return None
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _cut(a: Box | None, b: Box | None) -> Box | None:
    """The intersection of two boxes (None: nothing)."""
    if a is None or b is None:
        return None
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def inked(code: list[str], page: Box, form_box=lambda name: None) -> list[Ink]:
    """Every painted element of ``code`` (a canvas's content operators, ``core.compat.reportlab.code``), its box cut to ``page``.

    ``form_box(name)`` gives the bounding box of a form XObject; for any other XObject
    (an image) it gives None, and the image covers the unit square of the current
    transformation, as PDF draws images.
    """
    ctm, width, clip = IDENTITY, 1.0, page
    stack: list[tuple[Matrix, float, Box | None]] = []
    path: list[tuple[float, float]] = []
    clipping = False
    found: list[Ink] = []
    for index, entry in enumerate(code):
        if entry.startswith("BT"):
            continue
        if entry.startswith("BI"):  # an inline image fills the unit square, like an image XObject
            shown = _cut(_box_of([_apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]), clip)
            if shown:
                found.append(Ink("image", shown, index))
            continue
        for op, args in _compiled(entry):
            if op == "box":
                x0, y0, x1, y1 = args
                path.extend(_apply(ctm, px, py) for px, py in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))
            elif op == "q":
                stack.append((ctm, width, clip))
            elif op == "Q":
                if stack:
                    ctm, width, clip = stack.pop()
            elif op == "cm" and len(args) == 6:
                ctm = _mul(tuple(args), ctm)  # type: ignore[arg-type]
            elif op == "w" and args:
                width = float(args[0])
            elif op in ("m", "l") and len(args) >= 2:
                path.append(_apply(ctm, args[0], args[1]))
            elif op in ("c", "v", "y"):
                path.extend(_apply(ctm, args[i], args[i + 1]) for i in range(0, len(args) - 1, 2))
            elif op == "re" and len(args) == 4:
                x, y, w, h = args
                path.extend(_apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)))
            elif op in ("W", "W*"):
                clipping = True
            elif op in _PAINT or op == "n":
                box = _box_of(path)
                if op in _PAINT and box is not None:
                    if _PAINT[op] != "fill":
                        scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
                        box = _grow(box, width * scale / 2)
                    shown = _cut(box, clip)
                    if shown:
                        found.append(Ink(_PAINT[op], shown, index))
                if clipping:
                    clip = _cut(clip, _box_of(path))
                    clipping = False
                path = []
            elif op == "sh":
                if clip:
                    found.append(Ink("shading", clip, index))
            elif op == "Do" and args:
                bbox = form_box(str(args[-1]).lstrip("/"))
                x0, y0, x1, y1 = bbox or (0.0, 0.0, 1.0, 1.0)
                box = _box_of([_apply(ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))])
                shown = _cut(box, clip)
                if shown:
                    found.append(Ink("image" if bbox is None else "form", shown, index))
    return found
