"""Text that does not fit its card in one language, reported at the string to shorten.

The renderer's own fit (``render.fitcheck.check_text_fit``) measures each face as it prints; a
name that overflows is reported at the name, a rules text at the card's French (or
English) wording or flavour, the strings a translator can shorten. A type line too long
is ``limits.check``'s: it knows which word of the line has too little room.
"""
from __future__ import annotations

from ...carddb.database import LoadResult
from ...core.findings import Finding
from ..inventory import Inventory


def check(inv: Inventory, load: LoadResult, books: dict) -> list[Finding]:
    from ...render.fitcheck import check_text_fit  # lazy: loads reportlab, forge.render only when needed

    pairs = {}
    for pair in inv.pairs:
        if "card" in pair.meta:
            pairs.setdefault(pair.meta["card"], {})[pair.kind] = pair
    by_position = {(c.position.file, c.position.line): c.id for c in load.db.cards}
    found = []
    for f in check_text_fit(load.db, books, load.root):
        if f.rule != "text-overflow" or f.severity != "error":
            found.append(f)
            continue
        if "the type line " in f.message:
            continue  # ``limits.check`` reports it at the type-line word a translator can shorten
        cid = by_position.get((f.position.file, f.position.line))
        lang = f.message.split(":", 1)[0]
        strings = pairs.get(cid, {})
        kinds = ("card-name",) if "name" in f.message.split(":", 1)[-1][:40] else ("card-wording", "card-flavor")
        target = next((strings[k].side(lang) for k in kinds if k in strings and strings[k].side(lang)), None)
        where = target.position() if target else f.position
        found.append(Finding(where, "length", f"`{cid}` {f.message}", f.hint))
    return found
