"""The card anatomy figure: real cards from the database, rendered by the card renderer, with callouts.

The cards are chosen, not named: the fewest cards that together show every part
the rulebook explains (cost, allegiance, ⟳, Demise, Soul dots…), so the figure
follows the database. Callouts sit where the renderer actually drew each part:
its recorded marks (``Painter.marks``) say where, in points on the card.
"""
from __future__ import annotations

import copy
import io
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..carddb.model import Card, CardDatabase
from ..core.memo import Memo

#: The parts the figure points at, in reading order (top of the card to the bottom).
PARTS: tuple[str, ...] = ("cost", "name", "allegiance", "type_line", "text_box", "activate", "soul", "demise", "number")
#: Parts whose callout comes from the right margin (to the end of their text); the others from the left.
RIGHT_PARTS = {"name", "type_line", "soul"}
#: Parts every card shows; the others depend on the card.
_ALWAYS = {"name", "type_line", "text_box", "number"}
#: Width of the rendered card images, in pixels (300 DPI at 63.5 mm).
IMAGE_WIDTH = 750


def card_parts(card: Card) -> set[str]:
    """The parts of the figure this card shows."""
    parts = set(_ALWAYS)
    if card.cost is not None:
        parts.add("cost")
    if card.allegiance:
        parts.add("allegiance")
    if card.activate or card.keywords.guard:
        parts.add("activate")
    if card.demise:
        parts.add("demise")
    if any(ln.verb == "essence" for _, ln in card.all_lines()):
        parts.add("soul")
    return parts


def choose_cards(db: CardDatabase) -> list[tuple[Card, set[str]]]:
    """The fewest cards (greedily) that show every part, each with the parts it is used for."""
    order = {c.id: i for i, c in enumerate(db.cards)}
    candidates = [c for c in db.cards if c.type == "creature"] or list(db.cards)
    missing = set(PARTS)
    chosen: list[tuple[Card, set[str]]] = []
    while missing and candidates:
        def score(c: Card, missing: set = missing) -> tuple:
            return (-len(card_parts(c) & missing), c.set != "recruit", len(c.all_lines()), order[c.id])

        best = min(candidates, key=score)
        gain = card_parts(best) & missing
        if not gain:
            break
        chosen.append((best, gain))
        missing -= gain
        candidates = [c for c in candidates if c.id != best.id]
    return chosen


@dataclass(frozen=True)
class Callout:
    """A part drawn on a card: its box in fractions of the trimmed card (x0, y0 top, x1, y1 bottom)."""

    part: str
    box: tuple[float, float, float, float]

    @property
    def side(self) -> str:
        """Which margin its badge goes to: names and lines read from the left, so their ends point right."""
        return "right" if self.part in RIGHT_PARTS else "left"


@dataclass(frozen=True)
class CardFigure:
    """One rendered card: its image (JPEG bytes), id and the parts found on it."""

    card_id: str
    image: bytes
    callouts: tuple[Callout, ...]


@dataclass(frozen=True)
class Placed:
    """A callout laid out in its figure cell, in millimetres from the cell's top-left."""

    part: str
    badge: tuple[float, float]
    anchor: tuple[float, float]


def place_callouts(callouts: tuple[Callout, ...], card_w: float, card_h: float, gutter: float,
                   spacing: float = 5.2) -> list[Placed]:
    """Badges in the margins beside the card, at the height of their part, never overlapping,
    in reading order (top to bottom) so their numbers run down the card."""
    out: list[Placed] = []
    for side in ("left", "right"):
        mine = [c for c in callouts if c.side == side]
        rows = []
        for c in mine:
            x0, y0, x1, y1 = c.box
            ax = gutter + (x0 if side == "left" else x1) * card_w + (-0.7 if side == "left" else 0.7)  # just off it
            ay = ((y0 + y1) / 2) * card_h
            rows.append([c.part, ax, ay, ay])
        rows.sort(key=lambda r: r[2])
        for i in range(1, len(rows)):
            rows[i][3] = max(rows[i][3], rows[i - 1][3] + spacing)
        overflow = (rows[-1][3] - (card_h - spacing / 2)) if rows else 0
        if overflow > 0:
            for row in rows:
                row[3] -= overflow
            for i in range(len(rows) - 2, -1, -1):
                rows[i][3] = min(rows[i][3], rows[i + 1][3] - spacing)
        bx = gutter / 2 if side == "left" else gutter + card_w + gutter / 2
        out += [Placed(part, (round(bx, 2), round(by, 2)), (round(ax, 2), round(ay, 2))) for part, ax, ay, by in rows]
    return sorted(out, key=lambda p: (p.badge[1], p.badge[0]))  # numbered from the top of the card down


def _box(part: str, marks, text_box) -> tuple[float, float, float, float] | None:
    """Where a part was drawn, in points from the bleed's bottom-left (x0, y0, x1, y1)."""

    def first(test):
        return next((m.box for m in marks if test(m.label)), None)

    if part == "text_box":  # its lower left edge, below the lines the other callouts point at
        x, y, w, h = text_box
        return (x, y + h * 0.16, x + w * 0.2, y + h * 0.2)
    return {
        "cost": first(lambda label: label == "cost"),
        "name": first(lambda label: label == "name"),
        "allegiance": first(lambda label: label.startswith("allegiance ")),
        "type_line": first(lambda label: label == "type line"),
        "activate": first(lambda label: label == "icon activate"),
        "soul": first(lambda label: label == "soul"),
        "demise": first(lambda label: label == "icon demise"),
        "number": first(lambda label: label == "collector number"),
    }.get(part)


def classed_face(card: Card, db: CardDatabase, books: dict, lang: str, root: Path):
    """``card``'s face in ``lang`` as the printed card has it: at its text class's size and alignment,
    which depend on every card of the class in every language (computed once per database)."""
    from ..render.face import build_faces  # lazy: loads forge.render only when needed

    key = (id(db), tuple(sorted(books)), str(root))
    if _CLASSED.get("key") != key:
        faces = build_faces(db, books, sorted(books), Path(root))
        _CLASSED.update(key=key, faces={(f.id, f.lang): f for fs in faces.values() for f in fs}, db=db)
    return _CLASSED["faces"][(card.id, lang)]


_CLASSED: dict = {}  # the last database's faces (its object kept alive, so its id is not reused)


#: Whether the books' card pictures are drawn. `forge check` composes every book without them: laying out,
#: drawing and rasterising a card is the card renderer's work (validate measures each card's fit), and it
#: would triple the gate's time. A context variable, so only the code inside ``without_pictures()`` sees it.
_PICTURES: ContextVar[bool] = ContextVar("forge_book_pictures", default=True)


@contextmanager
def without_pictures() -> Iterator[None]:
    """Compose the books with every card picture left empty (no face built, drawn or rasterised)."""
    token = _PICTURES.set(False)
    try:
        yield
    finally:
        _PICTURES.reset(token)


def render_card(card: Card, db: CardDatabase, book, lang: str, root: Path, width: int = IMAGE_WIDTH,
                books: dict | None = None, face=None, quality: int = 90, image_format: str = "JPEG"):
    """Draw ``card`` with the card renderer: (trimmed JPEG bytes, the marks it drew, the template).

    With ``books`` (every language's phrasebook) the text is set at its class's size, as printed;
    ``face`` gives the face already built; ``image_format`` another Pillow format (WEBP for the web pages)."""
    from ..render.template import load_template  # lazy: loads reportlab, yaml ... only when needed

    tpl = load_template(root)
    if not _PICTURES.get():
        return b"", [], tpl
    # imported only to draw: `forge check` composes the books without pictures and need not load the
    # renderer's modules (reportlab's canvas, the text fit), a tenth of its books check
    from ..render.draw import draw_face  # lazy: loads reportlab, yaml ... only when needed
    from ..render.face import build_face  # lazy: loads forge.render only when needed
    from ..render.paint import Painter  # lazy: loads reportlab, forge.render only when needed
    from ..render.pdf import PdfBuffer  # lazy: loads reportlab, forge.render only when needed

    if face is None:
        face = classed_face(card, db, books, lang, root) if books else build_face(card, db, book, lang, root)
    key = (face.key(tpl.digest), width, quality, image_format)
    drawn = _DRAWN.get(key)
    if drawn is None:
        doc = PdfBuffer((tpl.full_w, tpl.full_h), face.name, lang)
        painter = Painter(doc.canvas)
        draw_face(painter, tpl, face, root)
        drawn = _DRAWN.put(key, (_trimmed_jpeg(doc, tpl, width, quality, image_format), painter.marks))
    image, marks = drawn
    return image, [copy.copy(mark) for mark in marks], tpl


#: The card pictures this process drew, by what they show (the face's cache key: its data, art included, the
#: template, the vendored assets and the renderer) and how they are encoded, up to 64 MB: a book, its web
#: edition, the gallery and `forge watch`'s pages draw the same faces again and again (a picture takes 50 ms
#: to draw, rasterise and encode).
_DRAWN: Memo[tuple[bytes, list]] = Memo(items=4096, size_limit=64 * 1024 * 1024, size=lambda drawn: len(drawn[0]))


def _trimmed_jpeg(doc, tpl, width: int, quality: int = 90, image_format: str = "JPEG") -> bytes:
    """The one page drawn on ``doc``, rasterised ``width`` pixels wide, its bleed cut off, as JPEG
    (or ``image_format``)."""
    from ..render.raster import render_pages  # lazy: loads forge.render only when needed

    doc.canvas.setPageCompression(0)  # only rasterised here, never written: Flate would be work for nothing
    doc.canvas.showPage()
    scale = width / tpl.trim_w
    full = (round(tpl.full_w * scale), round(tpl.full_h * scale))
    bleed = round(tpl.bleed * scale)
    image = render_pages(doc.finish(), full)[0].crop((bleed, bleed, full[0] - bleed, full[1] - bleed))
    buffer = io.BytesIO()
    if image_format == "JPEG":
        image.save(buffer, "JPEG", quality=quality, optimize=True)
    else:
        image.save(buffer, image_format, quality=quality, method=6)
    return buffer.getvalue()


def render_back(kind: str, lang: str, root: Path, width: int = IMAGE_WIDTH) -> bytes:
    """Draw a card back (recruit, starter or rite) with the card renderer: trimmed JPEG bytes."""
    from ..render.template import load_template  # lazy: loads reportlab, yaml ... only when needed

    tpl = load_template(root)
    if not _PICTURES.get():
        return b""
    # lazy: loads reportlab, yaml ... only when needed
    from ..render.draw import draw_back  # imported only to draw (see render_card)
    from ..render.paint import Painter  # lazy: loads reportlab, forge.render only when needed
    from ..render.pdf import PdfBuffer  # lazy: loads reportlab, forge.render only when needed
    from ..render.assets import assets_hash  # lazy: loads forge.render only when needed

    key = ("back", tpl.digest, assets_hash(), kind, lang, width)
    drawn = _DRAWN.get(key)
    if drawn is None:
        doc = PdfBuffer((tpl.full_w, tpl.full_h), kind, lang)
        draw_back(Painter(doc.canvas), tpl, kind, lang)
        drawn = _DRAWN.put(key, (_trimmed_jpeg(doc, tpl, width), []))
    return drawn[0]


def render_figure(card: Card, parts: set[str], db: CardDatabase, book, lang: str, root: Path,
                  books: dict | None = None) -> CardFigure:
    """Draw ``card`` with the card renderer, as a trimmed JPEG, and place its callouts."""
    image, marks, tpl = render_card(card, db, book, lang, root, books=books)
    text_box = tpl.box(tpl.layout(card.type)["text_box"])
    callouts = []
    for part in PARTS:
        box = _box(part, marks, text_box) if part in parts else None
        if box is None:
            continue
        x0, y0, x1, y1 = box

        def fx(x: float) -> float:
            return round(min(max((x - tpl.bleed) / tpl.trim_w, 0.0), 1.0), 4)

        def fy(y: float) -> float:
            return round(min(max(1 - (y - tpl.bleed) / tpl.trim_h, 0.0), 1.0), 4)

        callouts.append(Callout(part, (fx(x0), fy(y1), fx(x1), fy(y0))))
    return CardFigure(card.id, image, tuple(callouts))


def cover_cards(db: CardDatabase) -> list[Card]:
    """One card per faction for the cover: its most expensive creature of that faction alone."""
    out = []
    for faction in db.factions:
        mine = [c for c in db.of_set("recruit") if c.factions == (faction.id,)]
        creatures = [c for c in mine if c.type == "creature"] or mine
        if creatures:
            out.append(max(creatures, key=lambda c: (c.cost or 0, -db.cards.index(c))))
    return out
