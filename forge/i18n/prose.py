"""The books' prose cut into the units a translator translates: headings, paragraphs, list items.

The cut is the books' own grammar (``forge.prose``): the same markdown-it parse that
prints the books gives each unit its kind and its line, so i18n and the books cannot
read the dialect differently. ``:::`` fences are units of their own (``open``/``close``),
so the two languages can be compared block by block; front-matter fields are ``meta``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
import difflib
import math

from ..prose import grammar

_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*+•])\s+")
_NUMBERED = re.compile(r"^(\d+)[.)]")


@dataclass(frozen=True)
class Unit:
    """One unit of prose: ``kind`` (heading, paragraph, item, open, close, meta), its text, where."""

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


def units(text: str) -> list[Unit]:
    """Every unit of a prose file, in order (none past the grammar's budget: such a file is the books' finding)."""
    try:
        grammar.check_budget(text)
    except grammar.BudgetExceeded:
        return []
    lines = text.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    out: list[Unit] = []
    head, body, _ = grammar.split_front_matter(text)
    if head is not None:
        for i in range(1, head.count("\n") + 1):
            key, sep, value = lines[i].partition(":")
            if sep and value.strip() and not key.startswith((" ", "#", "-")):
                start = offsets[i] + len(key) + 1 + (len(value) - len(value.lstrip()))
                out.append(Unit("meta", value.strip(), i + 1, start, key.strip()))
    items: list[bool] = []  # per open list item: has its first paragraph been read
    closes: list[int | None] = []  # the closing line of each open ``:::`` block
    for token in grammar.block_tokens(body):
        kind = token.type
        if kind == "heading_open":
            n = token.map[0]
            m = re.match(r"^\s*#{1,6}\s+", lines[n])
            out.append(Unit("heading", lines[n][m.end():].rstrip(), n + 1, offsets[n] + m.end(), token.markup))
        elif kind == "list_item_open":
            items.append(False)
        elif kind == "list_item_close":
            items.pop()
        elif kind == "paragraph_open":
            first, end = token.map
            if items and not items[-1]:
                items[-1] = True
                m = _ITEM.match(lines[first])
                start = m.end() if m else 0
                joined = "\n".join([lines[first][start:]] + lines[first + 1:end])
                out.append(Unit("item", joined, first + 1, offsets[first] + start,
                                marker=lines[first][:start].strip()))
            else:
                out.append(Unit("paragraph", "\n".join(lines[first:end]), first + 1, offsets[first]))
        elif kind == "container_open":
            n = token.map[0]
            out.append(Unit("open", lines[n].strip(), n + 1, offsets[n] + lines[n].index(":::"), token.meta["name"]))
            closes.append(token.map[1] - 1 if token.meta["closed"] else None)
        elif kind == "container_close":
            n = closes.pop()
            if n is not None:
                out.append(Unit("close", ":::", n + 1, offsets[n] + lines[n].index(":::")))
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
    ops = difflib.SequenceMatcher(None, [u.signature for u in a], [u.signature for u in b],
                                  autojunk=False).get_opcodes()
    out = [list(op) for op in ops]
    for k, op in enumerate(out):
        if op[0] in ("delete", "insert") and 0 < k < len(out) - 1 and out[k - 1][0] == out[k + 1][0] == "equal":
            _slide(out[k - 1], op, out[k + 1], a, b)
    return [tuple(op) for op in out if not (op[0] == "equal" and op[1] == op[2])]


def _slide(before: list, gap: list, after: list, a: list[Unit], b: list[Unit]) -> None:
    """Move a one-sided gap inside the equal runs around it to where the aligned lengths agree best."""
    deleting = gap[0] == "delete"
    size = (gap[2] - gap[1]) if deleting else (gap[4] - gap[3])
    longer, shorter = (a, b) if deleting else (b, a)
    lo_l, lo_s = (before[1], before[3]) if deleting else (before[3], before[1])
    hi_s = after[4] if deleting else after[2]
    kinds = lambda seq, i, j: [u.signature for u in seq[i:j]]

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
