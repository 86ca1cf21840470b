"""The books' prose cut into the units a translator translates: headings, paragraphs, list items.

The cut is made on the source, before Jinja runs, so each unit keeps its line. Jinja
comments are masked (they are notes to the writer, not text); a line that holds only
Jinja statements (``{% set … %}``) is a unit of its own kind, so the two languages can
be compared block by block. ``:::`` fences open and close blocks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_HEADING = re.compile(r"^(#{1,6})\s+")
_ITEM = re.compile(r"^(?:\d+[.)]|[-•])\s+")
_FENCE = re.compile(r"^:::\s*(\S*)")
_NUMBERED = re.compile(r"^(\d+)[.)]")
_STATEMENT_LINE = re.compile(r"^\s*(?:\{%.*?%\}\s*)+$")


@dataclass(frozen=True)
class Unit:
    """One unit of prose: ``kind`` (heading, paragraph, item, open, close, jinja, meta), its text, where."""

    kind: str
    text: str
    line: int
    offset: int
    key: str = ""  # the heading level (``##``), the block's name, or the front-matter key
    marker: str = ""  # a list item's bullet or number

    @property
    def signature(self) -> str:
        """What must match between the two languages: the kind, its key, a numbered item's number."""
        if self.kind == "item":
            number = _NUMBERED.match(self.marker)
            return f"item:{number.group(1)}" if number else "item"
        return f"{self.kind}:{self.key}" if self.key else self.kind


def mask_comments(text: str) -> str:
    """Jinja comments blanked with spaces, newlines kept: offsets and lines stay the same."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def units(text: str) -> list[Unit]:
    """Every unit of a prose file, in order."""
    out: list[Unit] = []
    masked = mask_comments(text)
    lines = masked.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    i = 0
    if lines and lines[0].strip() == "---":
        i = 1
        while i < len(lines) and lines[i].strip() != "---":
            key, sep, value = lines[i].partition(":")
            if sep and value.strip():
                start = offsets[i] + len(key) + 1 + (len(value) - len(value.lstrip()))
                out.append(Unit("meta", value.strip(), i + 1, start, key.strip()))
            i += 1
        i += 1
    current: list[int] = []  # the lines of the paragraph or item being read

    def flush() -> None:
        if current:
            first = current[0]
            body = lines[first]
            kind, start = "paragraph", 0
            m = _ITEM.match(body)
            if m:
                kind, start = "item", m.end()
            joined = "\n".join([body[start:]] + [lines[k] for k in current[1:]])
            out.append(Unit(kind, joined, first + 1, offsets[first] + start, marker=body[:start].strip()))
            current.clear()

    for n in range(i, len(lines)):
        line = lines[n]
        stripped = line.strip()
        heading, fence = _HEADING.match(line), _FENCE.match(stripped)
        if not stripped:
            flush()
        elif fence:
            flush()
            name = fence.group(1)
            out.append(Unit("open" if name else "close", stripped, n + 1, offsets[n] + line.index(":::"), name))
        elif heading:
            flush()
            out.append(Unit("heading", line[heading.end():].rstrip(), n + 1, offsets[n] + heading.end(),
                            heading.group(1)))
        elif _STATEMENT_LINE.match(line):
            flush()
            out.append(Unit("jinja", stripped, n + 1, offsets[n] + len(line) - len(line.lstrip())))
        elif _ITEM.match(line) and current:
            flush()
            current.append(n)
        else:
            current.append(n)
    flush()
    return out


#: The longest run of same-kind units a gap is slid through (the cost is quadratic in it).
_MAX_SLIDE = 200


def align(a: list[Unit], b: list[Unit]) -> list[tuple[str, int, int, int, int]]:
    """The two languages' units aligned by kind (difflib opcodes), a one-sided gap slid to its likeliest place.

    difflib cannot tell which of five paragraphs in a row was dropped: it drops the last.
    A translation keeps each unit's length roughly (French runs ~15% longer), so the gap
    is moved, within the run of units of the same kinds around it, to where the pairs it
    leaves have the closest lengths.
    """
    import difflib

    ops = difflib.SequenceMatcher(None, [u.signature for u in a], [u.signature for u in b],
                                  autojunk=False).get_opcodes()
    out = [list(op) for op in ops]
    for k, op in enumerate(out):
        if op[0] in ("delete", "insert") and 0 < k < len(out) - 1 and out[k - 1][0] == out[k + 1][0] == "equal":
            _slide(out[k - 1], op, out[k + 1], a, b)
    return [tuple(op) for op in out if not (op[0] == "equal" and op[1] == op[2])]


def _slide(before: list, gap: list, after: list, a: list[Unit], b: list[Unit]) -> None:
    """Move a one-sided gap inside the equal runs around it to where the aligned lengths agree best."""
    import math

    deleting = gap[0] == "delete"
    size = (gap[2] - gap[1]) if deleting else (gap[4] - gap[3])
    longer, shorter = (a, b) if deleting else (b, a)
    lo_l, lo_s = (before[1], before[3]) if deleting else (before[3], before[1])
    hi_s = after[4] if deleting else after[2]
    kinds = lambda seq, i, j: [u.signature for u in seq[i:j]]  # noqa: E731

    def cost(g: int) -> float:
        """Pairs when the gap starts at ``lo_l + g`` in the longer side."""
        total = 0.0
        for s in range(lo_s, hi_s):
            l_index = lo_l + (s - lo_s) + (size if s - lo_s >= g else 0)
            total += abs(math.log((len(longer[l_index].text) + 20) / (len(shorter[s].text) + 20)))
        return total

    span = hi_s - lo_s
    if span > _MAX_SLIDE:
        return  # a run that long is not prose a person wrote; difflib's placement stands
    options = [g for g in range(span + 1)
               if kinds(longer, lo_l, lo_l + g) + kinds(longer, lo_l + g + size, lo_l + span + size)
               == kinds(shorter, lo_s, hi_s)]
    best = min(options, key=lambda g: (cost(g), -g)) if options else gap[1] - lo_l if deleting else gap[3] - lo_l
    l_gap = lo_l + best
    s_gap = lo_s + best
    if deleting:
        before[2], before[4] = l_gap, s_gap
        gap[1], gap[2], gap[3], gap[4] = l_gap, l_gap + size, s_gap, s_gap
        after[1], after[3] = l_gap + size, s_gap
    else:
        before[2], before[4] = s_gap, l_gap
        gap[1], gap[2], gap[3], gap[4] = s_gap, s_gap, l_gap, l_gap + size
        after[1], after[3] = s_gap, l_gap + size
