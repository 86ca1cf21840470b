"""A card face in one language: everything that gets printed, as plain data with a stable hash.

Built once from the database and a phrasebook in the parent process, then shipped
to worker processes; its ``key`` (with the template's and the assets' hashes) is
what the incremental cache compares.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from typing import TYPE_CHECKING

from ..carddb.model import Card, CardDatabase, IconArt, ImageArt
from .assets import assets_hash
from .fitmemo import FitMemo
from .textclass import TextClass, TextStyle, class_align, class_of
from ..carddb.art import ArtError, art_bytes, decode_art, is_svg, read_svg

if TYPE_CHECKING:
    from .fit import TextLayout

#: Bump when the drawing code changes what a face looks like, to invalidate every cache.
RENDERER_VERSION = "2"

#: The back each set wears: recruitment and starter cards share one (they mix in every deck and hand, whose
#: contents are secret); the Rites, always face up, never hidden, keep theirs (docs/rulings.md).
DECK_BACK = "deck"
BACK_OF_SET = {"recruit": DECK_BACK, "starter": DECK_BACK, "rite": "rite"}
BACK_DESIGNS: tuple[str, ...] = tuple(dict.fromkeys(BACK_OF_SET.values()))  # every back printed


# -- the measures, imported when a text is measured: reportlab's font machinery is the larger part of a
# re-validate's start, and when the text-fit record knows every text, nothing is measured -----------------
def text_fill(*args):
    from .fit import text_fill as measure  # lazy: loads reportlab only when needed
    return measure(*args)


def best_size(*args):
    from .fit import best_size as measure  # lazy: loads reportlab only when needed
    return measure(*args)


def layout_fixed(*args, **kwargs):
    from .fit import layout_fixed as measure  # lazy: loads reportlab only when needed
    return measure(*args, **kwargs)


def fit_text(*args):
    from .fit import fit_text as measure  # lazy: loads reportlab only when needed
    return measure(*args)


def fit_line(*args):
    from .fit import fit_line as measure  # lazy: loads reportlab only when needed
    return measure(*args)


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
    art: str | None = None  # a picture's path (``ImageArt``), when forge can print it
    art_digest: str | None = None
    art_focus: tuple[float, float] = (0.5, 0.5)
    art_fit: str = "cover"
    art_icon: str | None = None  # an icon composition (``IconArt``)
    art_accents: tuple[str, ...] = ()
    art_layout: str = "behind"
    art_flip: bool = False
    number: int = 0  # collector number, 1..total (``CardDatabase.collector_numbers``)
    total: int = 0
    copies: int = 1  # physical copies in the box (``CardDatabase.box_count``)
    deck_copies: int = 1  # copies in one deck (``Card.copies``): a starter deck's share of a neutral card
    back: str = DECK_BACK
    #: The card's text-length class and its alignment, the same in every language, and the largest size its
    #: text fits at in this language (``with_text_classes``); a size of 0 fits the text alone (a face built
    #: on its own).
    text_class: str = ""
    text_size: float = 0.0
    text_align: str = ""

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
    image: see ``forge.carddb.art``), so the face gets the default art and the renderer warns."""
    try:
        data = art_bytes(Path(root), rel)
        if is_svg(rel):
            read_svg(data)
        else:
            decode_art(data).close()
    except ArtError:
        return None
    return hashlib.sha256(data).hexdigest()


def build_face(card: Card, db: CardDatabase, book, lang: str, root: Path,
               numbers: dict[str, int] | None = None) -> CardFace:
    """The printed face of ``card`` in ``lang``; ``book`` is that language's Phrasebook.

    ``numbers`` are the collector numbers (computed from ``db`` when not given).
    """
    factions = {f.id: f for f in db.factions}
    main = factions.get(card.faction) if card.faction else None
    lines = tuple(book.card_text(card))
    plain = tuple(book.plain(ln) for ln in lines) if hasattr(book, "plain") else lines
    image = card.art if isinstance(card.art, ImageArt) else None
    icons = card.art if isinstance(card.art, IconArt) else None
    art_digest = _digest_art(Path(root), image.image) if image else None
    numbers = numbers if numbers is not None else db.collector_numbers()
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
        art=image.image if art_digest else None,
        art_digest=art_digest,
        art_focus=image.focus if image else (0.5, 0.5),
        art_fit=image.fit if image else "cover",
        art_icon=icons.icon if icons else None,
        art_accents=icons.accents if icons else (),
        art_layout=icons.layout if icons else "behind",
        art_flip=icons.flip if icons else False,
        number=numbers.get(card.id, 0),
        total=len(numbers),
        copies=db.box_count(card),
        deck_copies=card.copies,
        back=BACK_OF_SET.get(card.set, DECK_BACK),
    )


def build_faces(db: CardDatabase, books: dict, langs: list[str], root: Path,
                out: Path | None = None) -> dict[str, list[CardFace]]:
    """Every card's face in every language asked for, in database order, with its text class.

    A text class's size depends on every card of the class in every language, so the faces of
    all the languages the books hold are built to decide it, whichever are asked for. With
    ``out`` (the render's output folder) what was measured is kept there for the next run.
    """
    from .template import TemplateError, load_template  # lazy: loads reportlab, yaml only when needed

    numbers = db.collector_numbers()
    every = {lang: [build_face(c, db, books[lang], lang, root, numbers) for c in db.cards]
             for lang in sorted(set(langs) | set(books))}
    try:
        tpl = load_template(Path(root))
    except TemplateError:  # reported where the renderer loads the template
        return {lang: every[lang] for lang in langs}
    memo = FitMemo(out)
    every = with_text_classes(every, tpl, memo)
    memo.save()
    return {lang: every[lang] for lang in langs}


def with_text_classes(faces: dict[str, list[CardFace]], tpl, memo: FitMemo | None = None) -> dict[str, list[CardFace]]:
    """The faces with their text class, size and alignment (``templates/cards/card.yaml`` ``text.classes``).

    A card's class is decided by how full its text box is at the type's max_size in its fuller
    language (``_fill``), and gives its alignment, the same in every language. Its size is the largest
    at which its text fits in that language (``best_size``): a class's smallest size is no floor for
    its other cards (seven long creatures printed at 7 pt because one French text needs 7 pt, Ashborn
    Phoenix's English text leaving a fifth of its box empty). Every card of the short and medium
    classes fits at max_size, so they still print at one size. A card that fits at no size is
    reported, and drawn at min_size.
    """
    classes = text_classes(faces, tpl, memo or FitMemo())
    return {lang: [replace(f, text_class=c.name, text_size=c.size, text_align=c.align)
                   if (c := classes.get((f.lang, f.id))) else f for f in fs]
            for lang, fs in faces.items()}


def _text_args(face: "CardFace", tpl) -> tuple:
    """What the fitter needs of a face: (lines, flavour, width, height, style, language)."""
    _, _, w, h, style, _ = _type_text(tpl, face.type)
    return tuple(face.lines), face.flavor, w, h, style, face.lang


_TYPE_TEXT: dict[tuple[str, str], tuple] = {}


def _type_text(tpl, card_type: str) -> tuple:
    """The text area (x, y, w, h), the TextStyle of a card type and that style as a dict (for the text-fit
    record's keys), kept per template."""
    key = (tpl.digest, card_type)
    if key not in _TYPE_TEXT:
        if len(_TYPE_TEXT) > 64:
            _TYPE_TEXT.clear()
        style = TextStyle.from_template(tpl, card_type)
        _TYPE_TEXT[key] = (*text_area(tpl, card_type), style, asdict(style))
    return _TYPE_TEXT[key]


def _fill(face: CardFace, tpl, facts: dict) -> float:
    """How full a face's text box is at the type's max_size: the text's height over the box's when it
    fits there, else the area it needs, (max_size / the largest size it fits at)², infinite if none."""
    args = _text_args(face, tpl)
    if "fill" not in facts:
        facts["fill"] = text_fill(*args)
    if facts["fill"] <= 1.0:
        return facts["fill"]
    size = _best(face, tpl, facts)
    return (args[4].max_size / size) ** 2 if size else math.inf


def _best(face: CardFace, tpl, facts: dict) -> float | None:
    """The largest size the face's text fits at alone (``best_size``), remembered in ``facts``."""
    if "best" not in facts:
        facts["best"] = _type_text(tpl, face.type)[4].max_size if facts.get("fill", 2.0) <= 1.0 \
            else best_size(*_text_args(face, tpl))
    return facts["best"]


def _fits_at(face: CardFace, tpl, facts: dict, size: float) -> bool:
    """Whether the face's text fits its box at ``size`` (its class's size), remembered in ``facts``."""
    if size == _best(face, tpl, facts):
        return True
    at = facts.get("fits") or {}
    if str(size) not in at:
        args = _text_args(face, tpl)
        at = {**at, str(size): layout_fixed(list(face.lines), *args[1:4], size, args[4], face.lang, place=False).fits}
        facts["fits"] = at
    return at[str(size)]


def _memo_key(face: CardFace, tpl) -> str:
    _, _, w, h, _, style = _type_text(tpl, face.type)
    return FitMemo.key(RENDERER_VERSION, assets_hash(), list(face.lines), face.flavor, face.lang, w, h, style)


class _Facts(dict):
    """One text's facts: read from the memo's entry, every new fact written back to it."""

    def __init__(self, known: dict, memo: FitMemo, key: str):
        super().__init__({k: v for k, v in known.items() if _sound(k, v)})
        self.memo, self.key = memo, key

    def __setitem__(self, name, value):
        super().__setitem__(name, value)
        self.memo.put(self.key, name, value)


def _sound(name: str, value) -> bool:
    """Whether a remembered fact has the shape this code writes (another version's record may not)."""
    def number(v) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if name == "fill":
        return number(value)
    if name == "best":
        return value is None or number(value)
    if name == "fits":
        return isinstance(value, dict) and all(isinstance(v, bool) for v in value.values())
    if name == "lines":
        return isinstance(value, list) and len(value) == 2 and all(isinstance(v, bool) for v in value)
    return False


def text_classes(faces: dict[str, list[CardFace]], tpl, memo: FitMemo) -> dict[tuple[str, str], TextClass]:
    """Each face's text class, size and alignment by (language, card id) (see ``with_text_classes``)."""
    by_card: dict[str, list[CardFace]] = defaultdict(list)
    for lang_faces in faces.values():
        for face in lang_faces:
            by_card[face.id].append(face)
    facts = {}
    for card_faces in by_card.values():
        for f in card_faces:
            key = _memo_key(f, tpl)
            known = memo.entry(key)
            facts[f] = _Facts(known, memo, key)
    members: dict[tuple[str, str], list[CardFace]] = defaultdict(list)
    settings = {kind: tpl.text_settings(kind) for kind in {f.type for fs in by_card.values() for f in fs}}
    for card_faces in by_card.values():
        kind = card_faces[0].type
        fill = max(_fill(f, tpl, facts[f]) for f in card_faces)
        members[(kind, class_of(fill, settings[kind]["classes"]))] += card_faces
    out: dict[tuple[str, str], TextClass] = {}
    for (kind, name), group in members.items():
        style = _type_text(tpl, kind)[4]
        align = settings[kind].get("align", "auto")
        if align not in ("left", "center"):
            align = class_align(settings[kind]["classes"], name)
        for f in group:
            best = _best(f, tpl, facts[f])
            out[(f.lang, f.id)] = TextClass(name, style.min_size if best is None else best, align)
    return out


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
    name_size, type_size, problems = _line_sizes(face, tpl)
    rect = text_area(tpl, face.type)
    style = TextStyle.from_template(tpl, face.type)
    if face.text_size:
        layout = layout_fixed(list(face.lines), face.flavor, rect[2], rect[3], face.text_size, style, face.lang,
                              face.text_align)
    else:  # a face built on its own: its text alone decides its size, and its class its alignment
        layout = fit_text(list(face.lines), face.flavor, rect[2], rect[3], style, face.lang, _own_align(face, tpl))
    if not layout.fits:
        problems.append(_overflow(face, style))
    return FaceMeasure(name_size, type_size, layout, rect, tuple(problems))


def _line_sizes(face: CardFace, tpl) -> tuple[float, float, list[str]]:
    """The sizes of the name and of the type line, and the problem of each that fits at no size."""
    lay = _line_specs(tpl, face.type)
    name_size, name_ok = fit_line(face.name, lay["name_font"], lay["name_width"], lay["name_max"], lay["name_min"])
    type_size, type_ok = fit_line(face.type_line, lay["type_font"], lay["type_width"], lay["type_max"],
                                  lay["type_min"])
    return name_size, type_size, _line_problems(face, lay, name_ok, type_ok)


def _line_problems(face: CardFace, lay: dict, name_ok: bool, type_ok: bool) -> list[str]:
    problems = []
    if not name_ok:
        problems.append(f"the name {face.name!r} of `{face.id}` is too long for the title bar "
                        f"even at {lay['name_spec_min']} pt")
    if not type_ok:
        problems.append(f"the type line {face.type_line!r} of `{face.id}` is too long even at {lay['type_spec_min']} pt")
    return problems


_LINE_SPECS: dict[tuple[str, str], dict] = {}


def _line_specs(tpl, card_type: str) -> dict:
    """Fonts, widths and sizes of a card type's name and type line (as written and as numbers), per template."""
    key = (tpl.digest, card_type)
    if key not in _LINE_SPECS:
        if len(_LINE_SPECS) > 64:
            _LINE_SPECS.clear()
        lay = tpl.layout(card_type)
        name, tl = lay["name"], lay["type_line"]
        _LINE_SPECS[key] = {
            "name_font": tpl.font("title"), "name_width": tpl.box(name["box"])[2] - 4.0,
            "name_max": float(name["max_size"]), "name_min": float(name["min_size"]), "name_spec_min": name["min_size"],
            "type_font": tpl.font("type_line"), "type_width": tpl.box(lay["type_bar"])[2] - 2 * 7.0 - 14.0,
            "type_max": float(tl["size"]), "type_min": float(tl["min_size"]), "type_spec_min": tl["min_size"],
        }
    return _LINE_SPECS[key]


def _overflow(face: CardFace, style: TextStyle) -> str:
    return f"the rules text of `{face.id}` does not fit its text box even at {style.min_size} pt"


def face_problems(face: CardFace, tpl, memo: FitMemo) -> tuple[str, ...]:
    """``measure_face(face, tpl).problems``, from what the memo (the text-fit record) knows when it can:
    whether the name and the type line fit their bars, and whether the text fits at its class's size.
    Nothing is laid out for a face whose texts the record knows."""
    if not face.text_size:
        return measure_face(face, tpl).problems
    lay = _line_specs(tpl, face.type)
    key = FitMemo.key(RENDERER_VERSION, assets_hash(), "name and type line", face.name, face.type_line,
                      {k: v for k, v in lay.items() if not k.endswith("_spec_min")})
    facts = _Facts(memo.entry(key), memo, key)
    if "lines" not in facts:
        facts["lines"] = [fit_line(face.name, lay["name_font"], lay["name_width"], lay["name_max"], lay["name_min"])[1],
                          fit_line(face.type_line, lay["type_font"], lay["type_width"], lay["type_max"],
                                   lay["type_min"])[1]]
    problems = _line_problems(face, lay, *facts["lines"])
    key = _memo_key(face, tpl)
    if not _fits_at(face, tpl, _Facts(memo.entry(key), memo, key), face.text_size):
        problems.append(_overflow(face, _type_text(tpl, face.type)[4]))
    return tuple(problems)


def _own_align(face: CardFace, tpl) -> str:
    settings = tpl.text_settings(face.type)
    if settings.get("align") in ("left", "center"):
        return settings["align"]
    return class_align(settings["classes"], class_of(text_fill(*_text_args(face, tpl)), settings["classes"]))
