"""A card face in one language: everything that gets printed, as plain data with a stable hash.

Built once from the database and a phrasebook in the parent process, then shipped
to worker processes; its ``key`` (with the template's and the assets' hashes) is
what the incremental cache compares.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..model import Card, CardDatabase
from .assets import assets_hash
from .fit import TextLayout, TextStyle, fit_line, fit_text

#: Bump when the drawing code changes what a face looks like, to invalidate every cache.
RENDERER_VERSION = "1"

BACK_OF_SET = {"recruit": "recruit", "starter": "starter", "rite": "rite"}


@dataclass(frozen=True)
class CardFace:
    """What one card prints in one language."""

    id: str
    type: str
    set: str
    lang: str
    name: str
    type_line: str
    lines: tuple[str, ...]
    plain_lines: tuple[str, ...]
    flavor: str
    cost: int | None
    allegiance: tuple[tuple[str, int], ...]
    faction: str | None
    card_factions: tuple[str, ...]  # every faction of the card, frame faction first
    frame_color: str | None  # None: the template's neutral frame
    faction_icon: str | None
    factions: tuple[tuple[str, str, str], ...]  # every faction: (id, colour, icon), for inline icons
    art: str | None = None
    art_digest: str | None = None
    copies: int = 1  # physical copies in the box (``CardDatabase.box_count``)
    deck_copies: int = 1  # copies in one deck (``Card.copies``): a starter deck's share of a neutral card
    back: str = "recruit"

    def faction_style(self, fid: str) -> tuple[str, str] | None:
        """(colour, icon) of a faction, for pips and inline icons."""
        for f, color, icon in self.factions:
            if f == fid:
                return color, icon
        return None

    def key(self, template_digest: str) -> str:
        """The cache key: this face's data, the template and the vendored assets."""
        payload = json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(f"{RENDERER_VERSION}|{template_digest}|{assets_hash()}|{payload}".encode()).hexdigest()


def _digest_art(root: Path, rel: str) -> str | None:
    """The art file's hash; None when forge will not print it (missing, outside the project, not a sound
    image: see ``forge.art``), so the face gets the default art and the renderer warns."""
    from ..art import ArtError, art_bytes, decode_art

    try:
        data = art_bytes(Path(root), rel)
        decode_art(data).close()
    except ArtError:
        return None
    return hashlib.sha256(data).hexdigest()


def build_face(card: Card, db: CardDatabase, book, lang: str, root: Path) -> CardFace:
    """The printed face of ``card`` in ``lang``; ``book`` is that language's Phrasebook."""
    factions = {f.id: f for f in db.factions}
    main = factions.get(card.faction) if card.faction else None
    lines = tuple(book.card_text(card))
    plain = tuple(book.plain(ln) for ln in lines) if hasattr(book, "plain") else lines
    art_digest = _digest_art(Path(root), card.art) if card.art else None
    return CardFace(
        id=card.id, type=card.type, set=card.set, lang=lang,
        name=card.name.get(lang) or card.name.get("en") or card.id,
        type_line=book.type_line(card),
        lines=lines, plain_lines=plain,
        flavor=card.flavor.get(lang, ""),
        cost=card.cost,
        allegiance=tuple((f, int(n)) for f, n in card.allegiance.items()),
        faction=card.faction,
        card_factions=tuple(card.factions),
        frame_color=main.color if main else None,
        faction_icon=main.icon if main else None,
        factions=tuple((f.id, f.color, f.icon) for f in db.factions),
        art=card.art if art_digest else None,
        art_digest=art_digest,
        copies=db.box_count(card),
        deck_copies=card.copies,
        back=BACK_OF_SET.get(card.set, "recruit"),
    )


def build_faces(db: CardDatabase, books: dict, langs: list[str], root: Path) -> dict[str, list[CardFace]]:
    """Every card's face in every language asked for, in database order."""
    return {lang: [build_face(c, db, books[lang], lang, root) for c in db.cards] for lang in langs}


@dataclass(frozen=True)
class FaceMeasure:
    """Sizes chosen for a face's name, type line and text, and what did not fit."""

    name_size: float
    type_size: float
    text: TextLayout
    text_rect: tuple[float, float, float, float]
    problems: tuple[str, ...] = field(default=())


def text_area(tpl, card_type: str) -> tuple[float, float, float, float]:
    """The text box minus its padding, in points."""
    lay = tpl.layout(card_type)
    x, y, w, h = tpl.box(lay["text_box"])
    pad = float(lay["text_padding"]) * 72 / 25.4
    return (x + pad, y + pad, w - 2 * pad, h - 2 * pad)


def name_width(tpl, face: CardFace) -> float:
    lay = tpl.layout(face.type)
    return tpl.box(lay["name"]["box"])[2] - 4.0


_MEASURES: dict[tuple[CardFace, str], FaceMeasure] = {}


def measure_face(face: CardFace, tpl) -> FaceMeasure:
    """Fit the name, the type line and the rules text of a face into its layout (memoised per template)."""
    key = (face, tpl.digest)
    if key not in _MEASURES:
        if len(_MEASURES) > 4096:
            _MEASURES.clear()
        _MEASURES[key] = _measure(face, tpl)
    return _MEASURES[key]


def _measure(face: CardFace, tpl) -> FaceMeasure:
    lay = tpl.layout(face.type)
    problems = []
    name_spec = lay["name"]
    name_size, name_ok = fit_line(face.name, tpl.font("title"), name_width(tpl, face),
                                  float(name_spec["max_size"]), float(name_spec["min_size"]))
    if not name_ok:
        problems.append(f"the name {face.name!r} of `{face.id}` is too long for the title bar "
                        f"even at {name_spec['min_size']} pt")
    tl = lay["type_line"]
    type_w = tpl.box(lay["type_bar"])[2] - 2 * 7.0 - 14.0
    type_size, type_ok = fit_line(face.type_line, tpl.font("type_line"), type_w, float(tl["size"]), float(tl["min_size"]))
    if not type_ok:
        problems.append(f"the type line {face.type_line!r} of `{face.id}` is too long even at {tl['min_size']} pt")
    rect = text_area(tpl, face.type)
    style = TextStyle.from_template(tpl, face.type)
    layout = fit_text(list(face.lines), face.flavor, rect[2], rect[3], style, face.lang)
    if not layout.fits:
        problems.append(f"the rules text of `{face.id}` does not fit its text box even at {style.min_size} pt")
    return FaceMeasure(name_size, type_size, layout, rect, tuple(problems))
