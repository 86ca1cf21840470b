"""Short tables are never split over a page turn (nor over a column's end).

A table of a few rows cut after its first row, or in two halves (the traps: 1 row, then 7;
4 | 4 in French), reads as two tables, and the reader looks for the rest. A table of
``WHOLE_MOST`` body rows or fewer gets the class ``whole`` (``book.css``: ``break-inside:
avoid``); a longer one may go on over a page turn between its rows, as before.
"""
from __future__ import annotations

import re

#: The most body rows a table may have to be kept whole.
WHOLE_MOST = 8
_TABLE = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.DOTALL)
_HEAD_FOOT = re.compile(r"<(thead|tfoot)\b.*?</\1>", re.DOTALL)
_CLASS = re.compile(r"""\bclass\s*=\s*(["'])(.*?)\1""", re.DOTALL)


def body_rows(table: str) -> int:
    """The rows of a table's HTML outside its head and foot."""
    return len(re.findall(r"<tr\b", _HEAD_FOOT.sub("", table)))


def mark_whole(markup: str) -> str:
    """The HTML with each table of ``WHOLE_MOST`` body rows or fewer classed ``whole``."""
    def mark(m: re.Match) -> str:
        attrs, inner = m.group(1), m.group(2)
        if body_rows(inner) > WHOLE_MOST or "<table" in inner:
            return m.group(0)
        cls = _CLASS.search(attrs)
        if cls is None:
            attrs += ' class="whole"'
        elif "whole" not in cls.group(2).split():
            attrs = attrs[:cls.start(2)] + cls.group(2) + " whole" + attrs[cls.end(2):]
        return f"<table{attrs}>{inner}</table>"

    return _TABLE.sub(mark, markup)
