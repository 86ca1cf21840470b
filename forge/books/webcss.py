"""Every class the printed books style is styled on the web too, or said to be print-only.

The web edition shows the books' composed HTML with its own style sheet (``web/web.css``),
not ``book.css``: a class a designer adds to ``book.css`` for the PDF would reach the web page
unstyled without anyone noticing. So each class that ``book.css`` names and a page uses must
be named in ``web.css`` too, or listed there as print-only (page breaks, hyphenation):

    /* print-only classes (...): keep traps cards */

The web build reports the others as findings at ``web.css``.
"""
from __future__ import annotations

import re

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_PRINT_ONLY = re.compile(r"/\*\s*print-only classes\s*(?:\([^)]*\))?\s*:([^*]*)\*/")
_SELECTORS = re.compile(r"([^{}]*)\{")
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_USED = re.compile(r'class="([^"]*)"')


def styled(css: str) -> set[str]:
    """The classes a style sheet's selectors name (in @media blocks too; not in declarations or comments)."""
    plain = _COMMENT.sub("", css)
    names: set[str] = set()
    for selector in _SELECTORS.findall(plain):
        if selector.strip().startswith("@") and "(" in selector and "." not in selector.split(")")[-1]:
            continue
        names |= set(_CLASS.findall(re.sub(r"\([^)]*\)", "", selector)))  # not "(max-width: 36rem)"
    return names


def print_only(web_css: str) -> set[str]:
    """The classes ``web.css`` declares print-only, in its ``/* print-only classes …: a b c */`` comment."""
    return {name for m in _PRINT_ONLY.finditer(web_css) for name in m.group(1).split()}


def unstyled(book_css: str, web_css: str, page: str) -> list[str]:
    """The classes ``book.css`` styles that ``page`` uses and ``web.css`` neither styles nor declares print-only."""
    used = {name for value in _USED.findall(page) for name in value.split()}
    return sorted((styled(book_css) & used) - styled(web_css) - print_only(web_css))
