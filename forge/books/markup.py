"""A small Markdown-like converter for the books' prose: blocks, inline emphasis and card icons.

Designers write the rulebook and the reference as plain text (``templates/books/*.md``)
with Jinja2 for the generated parts. This module turns the text Jinja produced
into HTML. It knows only what the books use:

- ``# Title``, ``## Section``, ``### Subsection`` (an optional ``{#anchor}`` at the end);
- paragraphs (consecutive lines), numbered lists (``1. ``), bullet lists (``- `` or ``• ``),
  an indented line continues the item above;
- ``::: name args`` … ``:::`` blocks, nested, handed to a handler by name (default: a ``div``);
- raw HTML: a block whose first line starts with a block tag (``<table``, ``<div``, ``<figure``…)
  is copied as is (the generated tables);
- inline: ``**strong**``, ``*emphasis*``, and the card markup icons ``[[red]]`` ``[[activate]]``…

Errors are data: an unclosed or stray ``:::`` becomes a ``MarkupProblem`` with its line.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Callable

#: A block handler gets the block's arguments and its converted inner HTML, returns HTML.
Handler = Callable[["Block", str], str]

_HEADING = re.compile(r"^(#{1,4})\s+(.*?)(?:\s+\{#([\w-]+)\})?\s*$")
_ORDERED = re.compile(r"^(\d+)[.)]\s+(.*)$")
_BULLET = re.compile(r"^[-•]\s+(.*)$")
_FENCE = re.compile(r"^:::\s*(.*?)\s*$")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_ICON = re.compile(r"\[\[([a-z_]+)\]\]")
_BARE_AMP = re.compile(r"&(?!#?\w+;)")
#: A chunk starting with one of these tags is raw HTML (generated tables and figures), copied as is.
_RAW_HTML = re.compile(r"^<(?:!--|/?(?:table|div|figure|section|aside|ul|ol|dl|p|h[1-6]|hr|nav|header|footer)\b)")


@dataclass
class Block:
    """An opened ``::: name args`` block: its name, its words after the name, and where it opened."""

    name: str
    args: list[str]
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True)
class MarkupProblem:
    """Something the converter could not make sense of, at a line of the Jinja output."""

    line: int
    message: str
    block: str = ""  # the name and arguments of the block it is about, to find it in the source


@dataclass
class Converter:
    """Turns book text into HTML; ``icon(name)`` draws ``[[name]]``, ``handlers`` render ``:::`` blocks."""

    icon: Callable[[str], str]
    handlers: dict[str, Handler] = field(default_factory=dict)
    problems: list[MarkupProblem] = field(default_factory=list)
    slug: Callable[[str], str] = lambda text: ""

    # -- blocks ----------------------------------------------------------------
    def convert(self, text: str) -> str:
        """The HTML of a whole document."""
        root = Block("", [], 0)
        stack = [root]
        for number, raw in enumerate(text.splitlines(), start=1):
            fence = _FENCE.match(raw.strip()) if raw.strip().startswith(":::") else None
            if fence and fence.group(1):
                words = fence.group(1).split()
                stack.append(Block(words[0], words[1:], number))
                continue
            if fence:
                if len(stack) == 1:
                    self.problems.append(MarkupProblem(number, "`:::` closes a block that was never opened"))
                    continue
                block = stack.pop()
                stack[-1].lines.append((number, self._close(block)))
                continue
            stack[-1].lines.append((number, raw))
        while len(stack) > 1:
            block = stack.pop()
            self.problems.append(MarkupProblem(block.line, f"the block `::: {block.name}` is never closed",
                                               block.name))
            stack[-1].lines.append((block.line, self._close(block)))
        return self.blocks(root.lines)

    def _close(self, block: Block) -> str:
        inner = self.blocks(block.lines)
        handler = self.handlers.get(block.name)
        if handler is None:
            return f'\x00<div class="{html.escape(block.name)}">{inner}</div>'
        return "\x00" + handler(block, inner)

    def blocks(self, lines: list[tuple[int, str]]) -> str:
        """Group lines into paragraphs, lists, headings and raw HTML."""
        out: list[str] = []
        chunk: list[str] = []
        for _, raw in lines + [(0, "")]:
            if raw.startswith("\x00"):  # an already converted ::: block
                out.append(self._chunk(chunk))
                chunk = []
                out.append(raw[1:])
            elif raw.strip():
                chunk.append(raw.rstrip())
            else:
                out.append(self._chunk(chunk))
                chunk = []
        return "\n".join(part for part in out if part)

    def _chunk(self, lines: list[str]) -> str:
        if not lines:
            return ""
        first = lines[0].lstrip()
        if _RAW_HTML.match(first):
            return "\n".join(lines)
        out: list[str] = []
        para: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            heading = _HEADING.match(line)
            if heading:
                out.append(self._para(para))
                para = []
                out.append(self._heading(heading))
                i += 1
                continue
            if _ORDERED.match(line) or _BULLET.match(line):
                out.append(self._para(para))
                para = []
                end = i
                while end < len(lines) and (_ORDERED.match(lines[end]) or _BULLET.match(lines[end])
                                            or lines[end].startswith((" ", "\t"))):
                    end += 1
                out.append(self._list(lines[i:end]))
                i = end
                continue
            para.append(line.strip())
            i += 1
        out.append(self._para(para))
        return "\n".join(part for part in out if part)

    def _heading(self, m: re.Match) -> str:
        level = len(m.group(1))
        text = self.inline(m.group(2))
        anchor = m.group(3) or self.slug(m.group(2))
        ident = f' id="{anchor}"' if anchor else ""
        return f"<h{level}{ident}>{text}</h{level}>"

    def _para(self, lines: list[str]) -> str:
        return f"<p>{self.inline(' '.join(lines))}</p>" if lines else ""

    def _list(self, lines: list[str]) -> str:
        items: list[tuple[str, str | None, list[str]]] = []  # (kind, number, text lines)
        for line in lines:
            ordered, bullet = _ORDERED.match(line), _BULLET.match(line)
            if ordered and not line.startswith((" ", "\t")):
                items.append(("ol", ordered.group(1), [ordered.group(2)]))
            elif bullet and not line.startswith((" ", "\t")):
                items.append(("ul", None, [bullet.group(1)]))
            elif items:
                items[-1][2].append(line.strip())
        out: list[str] = []
        kind = None
        for item_kind, number, text in items:
            if item_kind != kind:
                if kind:
                    out.append(f"</{kind}>")
                start = f' start="{number}"' if item_kind == "ol" and number not in (None, "1") else ""
                out.append(f"<{item_kind}{start}>")
                kind = item_kind
            out.append(f"<li>{self.inline(' '.join(text))}</li>")
        if kind:
            out.append(f"</{kind}>")
        return "".join(out)

    # -- inline ----------------------------------------------------------------
    def inline(self, text: str) -> str:
        """Emphasis and icons; a bare ``&`` is escaped, HTML tags are kept."""
        text = _BARE_AMP.sub("&amp;", text)
        text = _STRONG.sub(r"<strong>\1</strong>", text)
        text = _EM.sub(r"<em>\1</em>", text)
        return _ICON.sub(lambda m: self.icon(m.group(1)), text)


def slugify(text: str) -> str:
    """An anchor from a heading: lower-case ASCII words joined by dashes."""
    import unicodedata

    text = re.sub(r"<[^>]+>", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
