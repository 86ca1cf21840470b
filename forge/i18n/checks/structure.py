"""The books' prose has the same structure in both languages: headings, paragraphs, list items, blocks.

Each book's units (``prose.units``) are compared in order by kind and key (the heading
level, the ``:::`` block's name); a difference is reported at the French line, with the
English line it stands for.
"""
from __future__ import annotations

import os

from ...core.findings import Finding
from ...carddb.model import Position
from ..inventory import BOOKS_DIR, Inventory
from ..prose import Unit, align

_NAMES = {"heading": "a heading", "paragraph": "a paragraph", "item": "a list item", "open": "a `:::` block",
          "close": "the end of a `:::` block", "meta": "a front-matter field"}


def check(inv: Inventory) -> list[Finding]:
    found: list[Finding] = []
    folder = inv.sources.root / BOOKS_DIR
    for book, sides in sorted(inv.prose.items()):
        for lang, other in (("en", "fr"), ("fr", "en")):
            rel = f"{BOOKS_DIR}/{book}.{other}.md"
            if lang in sides and other not in sides and not os.path.lexists(folder / f"{book}.{other}.md"):
                found.append(Finding(Position(f"{BOOKS_DIR}/{book}.{lang}.md"), "parity-book",
                                     f"the book `{book}` has no `{other}` prose", f"write {rel}"))
        if "en" in sides and "fr" in sides:
            found += compare(sides["en"][0].rel, sides["en"][1], sides["fr"][0].rel, sides["fr"][1])
    return found


def _show(u: Unit) -> str:
    name = _NAMES[u.kind]
    if u.kind == "heading":
        return f"{name} {u.key}"
    if u.kind in ("open", "meta"):
        return f"{name} `{u.key}`"
    return name


def compare(en_rel: str, a: list[Unit], fr_rel: str, b: list[Unit]) -> list[Finding]:
    """One finding per run of differences, at the French side."""
    found = []
    for op, i1, i2, j1, j2 in align(a, b):
        if op == "equal":
            continue
        # a gap in the French: at the unit after which the missing one goes (a merged paragraph, too)
        anchor = b[j1] if j1 < j2 else (b[j1 - 1] if j1 else (b[0] if b else None))
        line = anchor.line if anchor else 1
        en_part = ", ".join(_show(u) for u in a[i1:i2]) or "nothing"
        fr_part = ", ".join(_show(u) for u in b[j1:j2]) or "nothing"
        en_at = f" at {en_rel}:{a[i1].line}" if i1 < i2 else ""
        found.append(Finding(Position(fr_rel, line, 1), "parity-structure",
                             f"the French has {fr_part} where the English has {en_part}{en_at}",
                             f"give {fr_rel} the same headings, paragraphs, list items and blocks, in the same "
                             f"order, as {en_rel}"))
    return found
