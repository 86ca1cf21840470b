"""No word cut across a page turn: found in WeasyPrint's layout, prevented by laying out again.

CSS has no way to forbid hyphenation at the end of a page (``hyphenate-limit-last`` is not in
WeasyPrint), and widows and orphans move lines, not hyphens. So after the layout, each page's
last line is read from the box tree: when a paragraph goes on over the page turn and that line
ends in a hyphen (one WeasyPrint inserted, or a compound's own, "crossed-swords"), the word is
kept whole (``<span class="nw">``, no break and no hyphen inside) wherever it is written, and the
book is laid out again. A word kept whole moves to the next page, or pulls the line back: the
page then ends between two words. A few passes at most, and only for a book that needs them.
"""
from __future__ import annotations

import re

#: Layouts after the first one, at most, to settle a book whose kept words cause new page-turn hyphens.
MAX_PASSES = 3
_LAST_FRAGMENT = re.compile(r"([^\W\d_]+)-$")
_FIRST_FRAGMENT = re.compile(r"^([^\W\d_]+)")
_TAG = re.compile(r"(<[^>]*>)")
_RAW_TEXT = ("style", "script", "title", "textarea")


def _lines_by_block(page) -> dict[int, tuple[object, list[str]]]:
    """The text of each line of a page's flow (running heads and folios left out), by the block that
    holds it (keyed by the block's element, which stays the same on both sides of a page turn)."""
    from ..core.compat import weasyprint as weasyprint_internals  # lazy: loads forge.core only when needed

    boxes = weasyprint_internals.boxes()
    out: dict[int, tuple[object, list[str]]] = {}

    def text_of(line) -> str:
        parts, todo = [], [line]
        while todo:
            box = todo.pop(0)
            if hasattr(box, "text"):
                parts.append(box.text)
            todo[0:0] = list(getattr(box, "children", None) or [])
        return "".join(parts)

    def walk(box, block) -> None:
        if isinstance(box, boxes.MarginBox):
            return
        if isinstance(box, boxes.LineBox):
            element = getattr(block, "element", None)
            key = id(element) if element is not None else id(block)
            out.setdefault(key, (element, []))[1].append(text_of(box))
            return
        if isinstance(box, boxes.BlockContainerBox):
            block = box
        for child in getattr(box, "children", None) or []:
            walk(child, block)

    walk(weasyprint_internals.page_box(page), None)
    return out


def page_turn_words(pages) -> list[str]:
    """The words cut by a hyphen at the end of a page, in order: a soft hyphen's word whole
    ("incomprehensible"), a compound with its own hyphen ("crossed-swords")."""
    found: list[str] = []
    blocks = [_lines_by_block(page) for page in pages]
    for here, there in zip(blocks, blocks[1:]):
        for key, (element, lines) in here.items():
            if key not in there or element is None or not lines:
                continue  # the paragraph does not go on over this page turn
            end = _LAST_FRAGMENT.search(lines[-1].rstrip())
            start = _FIRST_FRAGMENT.match((there[key][1] or [""])[0].lstrip())
            if end and start:
                word = f"{end.group(1)}-{start.group(1)}"
                found.append(word if _is_written(element, word) else end.group(1) + start.group(1))
    return list(dict.fromkeys(found))


def _is_written(element, word: str) -> bool:
    """Whether the element's own text holds ``word`` with its hyphen (a compound, not a soft hyphen)."""
    try:
        text = "".join(element.itertext())
    except (AttributeError, TypeError):
        return False
    return word in text


def keep_whole(html: str, words: list[str]) -> str:
    """``html`` with every written occurrence of ``words`` (outside tags and style) kept whole."""
    if not words:
        return html
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
                         + r")(?![\w-])")
    out, raw = [], None
    for part in _TAG.split(html):
        if part.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", part)
            tag = name.group(1).lower() if name else ""
            if raw is None and tag in _RAW_TEXT and not part.startswith("</") and not part.endswith("/>"):
                raw = tag
            elif raw == tag and part.startswith("</"):
                raw = None
            out.append(part)
        elif raw is None:
            out.append(pattern.sub(r'<span class="nw">\1</span>', part))
        else:
            out.append(part)
    return "".join(out)
