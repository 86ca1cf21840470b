"""Code spans: the part of a translated label copied character for character, in every language.

A label may hold technical text that is not language: a file path (``~/Library/…``), a
command line (``forge render cards --back-offset -1.5,0.5``), a menu of an English-only
program, or the spaces that indent a line of a plain-text file. Written between
backticks (`` `~/Library/Tabletop Simulator/` ``), it is verbatim: the translators' checks
require the same spans in both languages and read no words, numbers, spaces or
typography inside them; the renderer prints the text without the backticks.
"""
from __future__ import annotations

import re

#: A code span: backticks around text on one line (no backtick inside).
SPAN = re.compile(r"`[^`\n]*`")


def spans(text: str) -> list[str]:
    """The code spans of ``text``, backticks included, in order."""
    return SPAN.findall(text)


def plain(value: object) -> object:
    """``value`` (a string, or lists and mappings of strings) with each code span's backticks removed."""
    if isinstance(value, str):
        return SPAN.sub(lambda m: m.group(0)[1:-1], value) if "`" in value else value
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
