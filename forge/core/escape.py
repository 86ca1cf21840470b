"""Contributor text in the formats forge writes: HTML, JSON inside a page, GitHub Markdown, one line of a report.

Card names, flavour, locale words and translations may come from a stranger's pull
request. They are data: each function here is the one way such text enters its
format, so that no name can open a tag, close a ``<script>``, run a link, notify
a GitHub user or forge a line of a report.
"""
from __future__ import annotations

import json
import re
import unicodedata

from markupsafe import Markup, escape

def html_text(text: object) -> Markup:
    """Text for HTML, every ``<``, ``&`` and quote escaped (for an element's text or an attribute)."""
    return escape(str(text))


_JSON_IN_HTML = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_in_html(data) -> Markup:
    """JSON for a ``<script type="application/json">``: sorted keys, and no ``<``, ``>`` or ``&`` as written,
    so no ``</script>`` or ``<!--`` in a card's name can end the element (``JSON.parse`` reads it unchanged)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return Markup(re.sub("[<>&\u2028\u2029]", lambda m: _JSON_IN_HTML[m.group(0)], text))


#: Characters that would break a line of a report or reorder it on screen: controls, line and paragraph
#: separators, and the bidi embeddings, overrides and isolates (shown as U+FFFD, so they are seen).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def one_line(text: object) -> str:
    """``text`` on one line: a control character or a line break is a space, a bidi control U+FFFD, so a
    name cannot start a line of its own (``+ forged``, ``::error``) or read backwards."""
    return "".join("\ufffd" if ch in _BIDI else " " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
                   for ch in str(text))


#: Joined to what GitHub would make a link, a mention or a reference, to break it (an invisible character).
ZWJ = "\u200d"
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#!|~$&])")
_MD_LINE_START = re.compile(r"^(\s*)([-+=]|\d+[.)])")
_MD_LINKISH = re.compile(r"(?<=[@#])|(?<=://)|(?<=\bwww)(?=\.)", re.I)


def markdown_text(text: object) -> str:
    """Text for GitHub Markdown (a list item, a heading, a table cell): one line; what could be markup
    backslash-escaped (emphasis, code, links, images, HTML, entities, math, ``|`` so a table cell holds,
    a leading list or heading marker); and an invisible joiner after each ``@`` and ``#`` and inside
    ``://`` and ``www.``, so no user is notified, no issue referenced and no URL made a link."""
    flat = _MD_SPECIAL.sub(r"\\\1", _MD_LINKISH.sub(ZWJ, one_line(text)))
    return _MD_LINE_START.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], flat)


def code_fence(lines: list[str], info: str = "") -> tuple[str, str]:
    """The opening and closing lines of a fenced code block that none of ``lines`` can close: more
    backticks than the longest run in them (inside, Markdown, mentions and links are not read)."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return fence + info, fence


#: A cell a spreadsheet program would run as a formula (OWASP), after any quotes forge added.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def neutralise(cell):
    """A CSV cell a spreadsheet program will show as text: ``'`` before a would-be formula (OWASP)."""
    return "'" + cell if isinstance(cell, str) and _FORMULA.match(cell) else cell


def restore(cell):
    """The cell ``neutralise`` was given: the ``'`` it added is taken off (only before a would-be formula)."""
    return cell[1:] if isinstance(cell, str) and cell.startswith("'") and _FORMULA.match(cell) else cell
