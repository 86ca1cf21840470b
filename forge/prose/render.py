"""Parsed prose to HTML: every word of the prose escaped, every directive printed by a resolver.

The resolver is forge's book code; what it returns for a directive, an icon or a
container is forge's own HTML (its contributor strings already escaped). The text the
prose itself writes never becomes markup: only headings, paragraphs, lists, emphasis
and the ``:::`` blocks do.
"""
from __future__ import annotations

import html
from typing import Protocol
import re
import unicodedata

from markdown_it.token import Token

from .directives import DIRECTIVES
from .grammar import Container, Directive, Parsed


class Resolver(Protocol):
    def directive(self, d: Directive) -> str: ...

    def icon(self, name: str, line: int, col: int) -> str: ...

    def container(self, c: Container, inner: str) -> str: ...

    def slug(self, heading_html: str) -> str: ...


def render(parsed: Parsed, resolver: Resolver) -> str:
    """The HTML of a parsed prose body."""
    out, _ = _blocks(parsed.tokens, 0, resolver, in_item=False)
    return "\n".join(part for part in out if part)


def _blocks(tokens: list[Token], i: int, r: Resolver, in_item: bool, stop: str = "") -> tuple[list[str], int]:
    out: list[str] = []
    while i < len(tokens):
        t = tokens[i]
        if stop and t.type == stop:
            return out, i + 1
        if t.type == "heading_open":
            level = int(t.tag[1])
            inner = inline(tokens[i + 1], r)
            anchor = r.slug(inner)
            ident = f' id="{anchor}"' if anchor else ""
            out.append(f"<h{level}{ident}>{inner}</h{level}>")
            i += 3
        elif t.type == "paragraph_open":
            content = tokens[i + 1]
            alone = _lone_block(content)
            if alone is not None:
                out.append(r.directive(alone))
            else:
                inner = inline(content, r)
                out.append(inner if in_item else f"<p>{inner}</p>")
            i += 3
        elif t.type in ("bullet_list_open", "ordered_list_open"):
            tag = "ul" if t.type == "bullet_list_open" else "ol"
            start = t.attrGet("start")
            attrs = f' start="{start}"' if tag == "ol" and start not in (None, 1, "1") else ""
            items, i = _blocks(tokens, i + 1, r, in_item, stop=t.type.replace("_open", "_close"))
            out.append(f"<{tag}{attrs}>" + "".join(items) + f"</{tag}>")
        elif t.type == "list_item_open":
            parts, i = _blocks(tokens, i + 1, r, in_item=True, stop="list_item_close")
            out.append("<li>" + " ".join(p for p in parts if p) + "</li>")
        elif t.type == "container_open":
            container = Container(t.meta["name"], t.meta["args"], t.map[0] + 1)
            parts, i = _blocks(tokens, i + 1, r, in_item=False, stop="container_close")
            out.append(r.container(container, "\n".join(p for p in parts if p)))
        else:
            i += 1
    return out, i


def _lone_block(token: Token) -> Directive | None:
    """The block directive a paragraph holds alone (``{block:factions}``), else None."""
    children = [c for c in token.children or () if not (c.type in ("text", "softbreak") and not c.content.strip())]
    if len(children) == 1 and children[0].type == "directive" and not children[0].meta.get("refused"):
        d = children[0].meta.get("directive")
        if d is not None and DIRECTIVES[d.name].block:
            return d
    return None


def inline(token: Token, r: Resolver) -> str:
    """An inline token's HTML: text escaped, emphasis, icons and directives."""
    out: list[str] = []
    for child in token.children or ():
        kind = child.type
        if kind == "text":
            out.append(html.escape(child.content, quote=False))
        elif kind in ("softbreak", "hardbreak"):
            out.append(" ")
        elif kind == "strong_open":
            out.append("<strong>")
        elif kind == "strong_close":
            out.append("</strong>")
        elif kind == "em_open":
            out.append("<em>")
        elif kind == "em_close":
            out.append("</em>")
        elif kind == "icon":
            out.append(r.icon(child.meta["name"], child.meta.get("line", 0), child.meta.get("col", 0)))
        elif kind == "directive":
            d = child.meta.get("directive")
            if child.meta.get("refused") or d is None:
                out.append(html.escape(child.meta["raw"], quote=False))
            else:
                out.append(r.directive(d))
        elif kind == "bad_brace":
            out.append(html.escape(child.content, quote=False))
        else:
            out.append(html.escape(child.content, quote=False))
    return "".join(out)


def slugify(text: str) -> str:
    """An anchor from a heading's HTML: lower-case ASCII words joined by dashes."""
    text = re.sub(r"<[^>]+>", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
