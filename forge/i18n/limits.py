"""How long each printed string may be: the room its layout gives it, at the size it prints at.

Every limit is measured with the renderer's and the books' own numbers (the card template's
bars and text box, the book stylesheet's column and heading sizes, the vendored fonts'
glyph widths), at the smallest size the text may shrink to:

- a card name: the name bar of its type, in the title font at the name's minimum size;
- a card type, trap kind or faction name: the type bar, less the widest rest of any type
  line that prints it ("Créature — Rouge · Noir" less "Rouge"), in the type-line font;
- a keyword: one line of the rules text box, in bold, at the text's minimum size;
- a rules line (a card's wording) or its flavour: the lines of its card's text box that the
  card's other lines and flavour leave free, in its language (an estimate: the box is
  shared, and the fitter that lays it out is parity's ``length`` check);
- a phrase template, frame or event: a whole text box (an upper bound);
- a book heading: one line of the page column at the heading's size (## less its chapter number);
- a book label (``templates/books/strings.yaml``) in a bounded place, a table header, a diagram's
  label, a legend's: ``booklabels``;
- a card template label (``templates/cards/card.yaml``): the box the aids print it in
  (``templatelabels``).

``chars`` turns the width into characters of average French prose in that font, for the
translator's tools (``max-length:`` in the .po, ``slr:sizeRestriction`` in XLIFF). A string
printed on one line is checked by parity against the width itself (``check``), never the
character count: "iiii" and "MMMM" differ by a factor of three.
"""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from ..core.findings import Finding
from . import booklabels, templatelabels
from .inventory import Inventory
from .room import SAMPLE, Limit, _book_layout, _limit, _per_char, _plain, width
from ..carddb.database import load_database
from ..text.cardtext import Phrasebook
from .checks import at, label

#: Locale tables printed on the type line.
TYPE_LINE_TABLES = ("types", "trap_kinds", "factions")
#: Locale tables whose strings are composed into rules text.
RULES_TABLES = ("phrases", "frames", "events")


def compute(root: Path | str, inv: Inventory, load=None, books: dict | None = None,
            sets: dict | None = None) -> dict[str, Limit]:
    """A limit per pair id, for every string whose printed space is bounded (none when the layout cannot be read).

    ``sets``: the aids' words per language (``templatelabels.aid_sets``), when the caller has them.
    """
    from ..render.assets import register_fonts  # lazy: loads forge.render only when needed
    root = Path(root)
    tpl = templatelabels.template(root, inv.sources)
    if tpl is None:
        return {}  # validate reports the template
    register_fonts()
    if load is None or books is None:
        load, books = _cards(root, inv)
    out: dict[str, Limit] = {}
    if load is not None and books:
        out.update(_card_limits(tpl, inv, load, books))
    out.update(_heading_limits(root, inv))
    if sets is None and load is not None and books:
        sets = templatelabels.aid_sets(tpl, books, load.db.factions)
    out.update(templatelabels.template_limits(tpl, inv, sets))
    out.update(booklabels.label_limits(root, inv))
    return out


def _cards(root: Path, inv: Inventory):
    load = load_database(root)
    docs = {lang: inv.sources.docs.get(f"locales/{lang}.yaml") for lang in ("en", "fr")}
    if load.io_error or any(d is None for d in docs.values()):
        return None, None
    return load, {lang: Phrasebook(lang, d.data, d.rel) for lang, d in docs.items()}


# -- cards ------------------------------------------------------------------------------------
def _card_limits(tpl, inv: Inventory, load, books: dict) -> dict[str, Limit]:
    from ..render.face import _line_specs, text_area  # lazy: loads forge.render only when needed
    from ..render.textclass import TextStyle  # lazy: loads forge.render only when needed

    types = sorted({c.type for c in load.db.cards})
    try:
        specs = {t: _line_specs(tpl, t) for t in types}
        boxes = {t: (text_area(tpl, t), TextStyle.from_template(tpl, t)) for t in types}
    except (KeyError, TypeError, ValueError):
        return {}
    out: dict[str, Limit] = {}
    for pair in inv.by_kind("card-name"):
        lay = specs.get(str(pair.meta.get("type")))
        if lay:
            out[pair.id] = _limit(lay["name_width"], lay["name_font"], lay["name_min"], "the name bar")
    out.update(_type_words(load, books, specs))
    if boxes:
        narrowest = min(boxes, key=lambda t: boxes[t][0][2])
        (_, _, w, h), style = boxes[narrowest]
        lines = int(h // (style.min_size * style.leading))
        for pair in inv.by_kind("locale"):
            table = str(pair.meta["path"][0])
            if table == "keywords":
                out[pair.id] = _limit(w, style.keyword_font, style.min_size, "one line of the rules text box")
            elif table in RULES_TABLES:
                box = _limit(w, style.text_font, style.min_size, "")
                out[pair.id] = Limit(box.chars * lines, w * lines, style.text_font, style.min_size,
                                     f"a whole rules text box ({lines} lines of {w * 25.4 / 72:.0f} mm)", False)
        out.update(_rules_room(inv, load, books, boxes))
    return out


def _type_words(load, books: dict, specs: dict) -> dict[str, Limit]:
    """Each type-line word: the type bar less the widest rest of a type line that prints it, in either language.

    A type line too long for its bar is blamed on its widest word (``Limit.overflow``): that is
    the one to shorten, and the other words of the line are not reported for the room it took.
    """
    room: dict[str, tuple[float, str, float]] = {}  # pid -> (room, font, size)
    overflow: dict[str, dict[str, tuple[str, str, float, float]]] = {}  # pid -> lang -> (card, line, width, bar)
    for card in load.db.cards:
        lay = specs[card.type]
        font, size, bar = lay["type_font"], lay["type_min"], lay["type_width"]
        parts = [("types", card.type)] + ([("trap_kinds", card.trap.kind)] if card.type == "trap" and card.trap else [])
        parts += [("factions", f) for f in card.factions]
        for lang, book in books.items():
            try:
                line = book.type_line(card)
                words = [(f"locales/{table}.{key}", book.label(table, key)) for table, key in parts]
            except Exception:  # a locale problem is the text compiler's finding
                continue
            whole = width(line, font, size)
            sizes = [(width(word, font, size), pid) for pid, word in words]
            for used, pid in sizes:
                left = bar - (whole - used)
                if pid not in room or left < room[pid][0]:
                    room[pid] = (left, font, size)
            if whole > bar + 0.01:
                widest = max(sizes)[1]
                known = overflow.setdefault(widest, {}).get(lang)
                if known is None or whole > known[2]:
                    overflow[widest][lang] = (card.id, line, whole, bar)
    return {pid: replace(_limit(left, font, size, "the type bar, less the rest of its type line"),
                         overflow=tuple(sorted((lang, *v) for lang, v in overflow.get(pid, {}).items())))
            for pid, (left, font, size) in room.items()}


def _rules_room(inv: Inventory, load, books: dict, boxes: dict) -> dict[str, Limit]:
    """A card's wording or flavour: its own lines plus the lines its card's other texts leave free (French)."""
    cards = {c.id: c for c in load.db.cards}
    book = books.get("fr")
    out: dict[str, Limit] = {}
    used: dict[str, tuple[float, float, float]] = {}  # card -> (free height, line height, box width)
    for pair in inv.by_kind("card-wording", "card-flavor"):
        card = cards.get(str(pair.meta.get("card")))
        if card is None or card.type not in boxes or book is None:
            continue
        (_, _, w, h), style = boxes[card.type]
        if card.id not in used:
            try:
                lines = [book.plain(ln) for ln in book.card_text(card)]
            except Exception:  # the text compiler reports it
                continue
            used[card.id] = (h - _height(lines, card.flavor.get("fr", ""), w, style), w, h)
        free, w, _ = used[card.id]
        flavour = pair.kind == "card-flavor"
        font = style.flavor_font if flavour else style.text_font
        size = style.min_size * (style.flavor_scale if flavour else 1.0)
        line_h = size * style.leading
        text = (pair.fr.text if pair.fr and pair.fr.text.strip() else pair.en.text) if pair.en else ""
        own = _lines(_plain(text), font, size, w) if text.strip() else 0
        rows = max(own + int(max(free, 0.0) // line_h), 1)
        per_line = _limit(w, font, size, "")
        out[pair.id] = Limit(per_line.chars * rows, w * rows, font, size,
                             f"{rows} lines of the text box, what the card's other texts leave", False)
    return out


def _lines(text: str, font: str, size: float, w: float) -> int:
    return max(1, math.ceil(width(text, font, size) / w)) if text else 0


def _height(lines: list[str], flavour: str, w: float, style) -> float:
    """About how tall a card's rules lines and flavour are at the minimum size."""
    size = style.min_size
    h = sum(_lines(ln, style.text_font, size, w) for ln in lines) * size * style.leading
    h += max(len(lines) - 1, 0) * style.paragraph_gap * size
    if flavour.strip():
        fsize = size * style.flavor_scale
        h += 2 * style.flavor_gap * size + _lines(_plain(flavour), style.flavor_font, fsize, w) * fsize * style.leading
    return h


# -- books ------------------------------------------------------------------------------------
_HEADING_FONT = "IMFellEnglishSC"  # book.css: h1, h2, h3, h4 { font-family: "IM FELL English SC" }


def _heading_limits(root: Path, inv: Inventory) -> dict[str, Limit]:
    """A heading fits one line of the page's column at its size; a ## heading also carries its chapter number."""
    column, sizes = _book_layout(root)
    if column is None:
        return {}
    out: dict[str, Limit] = {}
    for pair in inv.by_kind("prose-heading"):
        level = pair.meta.get("level")
        size = sizes.get(level)
        if not size:
            continue
        room = column - (width("12", _HEADING_FONT, size) + 2.5 * 72 / 25.4 if level == 2 else 0.0)
        code = "{" in (pair.en.text if pair.en else "") or "{" in (pair.fr.text if pair.fr else "")  # a directive
        out[pair.id] = _limit(room, _HEADING_FONT, size, f"one line of the page column (a level-{level} heading)",
                              one_line=not code)
    return out


def _fits(room: float, limit: Limit) -> int:
    return max(int(room / _per_char(limit.font, limit.size)), 0)


# -- parity -----------------------------------------------------------------------------------
def check(inv: Inventory, limits: dict[str, Limit]) -> list[Finding]:
    """A one-line string wider than its room, in either language, at the string to shorten.

    Card names are the renderer's own fit check's (``checks.length``), the books' labels
    ``booklabels.check``'s (``label-length``), so neither is measured twice.
    """
    found = []
    names = {"en": "English", "fr": "French"}
    for pair in inv.pairs:
        limit = limits.get(pair.id)
        if limit is None or not limit.one_line or pair.kind in ("card-name", "label"):
            continue
        if pair.kind == "locale" and str(pair.meta["path"][0]) in TYPE_LINE_TABLES:
            for lang, card, line, used, bar in limit.overflow:
                entry = pair.side(lang)
                if entry is not None:
                    found.append(at(entry, "length", f"{label(pair)}: the type line \"{line}\" of `{card}` is "
                                    f"{used * 25.4 / 72:.1f} mm wide at {limit.size:g} pt; the type bar holds "
                                    f"{bar * 25.4 / 72:.1f} mm, and \"{entry.text}\" is its widest word",
                                    f"shorten it (about {_fits(bar - used + width(entry.text, limit.font, limit.size), limit)}"
                                    " characters would fit), or change the layout"))
            continue
        for lang in ("en", "fr"):
            entry = pair.side(lang)
            if entry is None or not entry.text.strip():
                continue
            used = width(entry.text.upper() if limit.upper else entry.text, limit.font, limit.size)
            if used > limit.width + 0.01:
                found.append(at(entry, "length", f"{label(pair)}: the {names[lang]} \"{_plain(entry.text)}\" is "
                                f"{used * 25.4 / 72:.1f} mm wide at {limit.size:g} pt; {limit.where} holds "
                                f"{limit.width * 25.4 / 72:.1f} mm (about {limit.chars} characters)",
                                "shorten it (or the longest other part of its line), or change the layout"))
    return found


__all__ = ["Limit", "compute", "check", "width", "SAMPLE"]
