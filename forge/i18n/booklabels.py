"""How long the books' labels may be (``templates/books/strings.yaml``): the room of the place each prints in.

A label that sits in a bounded place gets a limit measured from the books' own numbers: the
stylesheet (``book.css``: the page column, the tables' column shares and paddings, the font
sizes), the setup diagram's geometry (``forge.books.table``: its scale and boxes) and the
vendored fonts' glyph widths, as ``limits`` does for cards and headings:

- a table header: one line of its column (``Faction · Colour`` spans the medal and name columns);
- a label of the setup diagram: one line of its box (they are set ``nowrap``), or, for the
  discard and exile slots, the lines of the slot below its 7 mm top;
- the poison counter's word: one line of the counters box, with its count after it;
- a label of the card anatomy's legend: run in, one line of a legend column after its callout;
- the quick reference's title and headings: one line of the back cover's panel.

Left unlimited on purpose: labels that flow in a paragraph or a table cell (captions, the
example's sentences, the box contents, "Cards that use it"), and running heads, which repeat
the chapter headings, already held to one line of the column at 15 pt (``limits``), a stricter
room than the 8.5 pt head. Parity's ``label-length`` check reports a translation past its room
at the label's line and column.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from ..core.findings import Finding
from .css import PT_PER_MM, Css
from .inventory import Inventory, Pair, dotted
from .room import _PAGE_SIZES_MM, SAMPLE, Limit, _book_layout, width
from ..core import safeio
from .checks import at, label

TITLE_FONT, TEXT_FONT, BOLD_FONT = "IMFellEnglishSC", "Lato", "Lato-Bold"  # book.css: "IM FELL English SC", Lato
#: What a number placeholder (``{n:row}``) prints as, at its widest: two digits.
NUMBER = "88"
_PLACEHOLDER = re.compile(r"\{(kw|type|n):(\w+)\}")


@dataclass(frozen=True)
class Place:
    """A bounded place of the books, the labels printed there, and its room (points) and font."""

    keys: tuple[str, ...]  # dotted keys of strings.yaml (``*`` stands for one key)
    where: str
    font: str
    size: float
    room: float
    lines: int = 1
    around: str = "{}"  # how the label prints with its neighbours: "{} 0" (a count after it)
    joined: str = ""  # several keys printed together, joined by this (a header over two columns)


# -- the places, measured from the stylesheet -----------------------------------------------------
def places(css: Css) -> list[Place]:
    """Every bounded place of the books that prints a label of strings.yaml, with the room book.css gives it.

    Each place is measured on its own: one whose rules are missing, or set in a unit with no
    absolute size (``em``, ``vw``, ``calc()``…: ``css.Unreadable``), is left out (no limit for its
    labels) and the others keep theirs.
    """
    out = []
    for build in _PLACES:
        try:
            place = build(css)
        except (KeyError, ValueError):  # a missing rule, or a length that cannot be read (Unreadable)
            continue
        if math.isfinite(place.room) and place.room > 0:
            out.append(place)
    return out


def _header(keys: tuple[str, ...], where: str, *cells: str, joined: str = ""):
    """A table's column header: one line of the body cells under it, less the header's own padding."""
    return lambda css: Place(keys, where, TITLE_FONT, css.size("thead th"),
                             sum(css.cell(c) for c in cells) - css.padding_x("thead th"), joined=joined)


_SLOT, _LABEL, _COUNTERS = ".table-top .table-slot", ".table-top .table-label", ".table-top .table-counters"


def _diagram() -> float:
    """Points per millimetre of the setup diagram (drawn at full size: ``forge.books.table``)."""
    return PT_PER_MM


def _table():
    """The setup diagram's module (imported when measured: the books import the i18n package)."""
    from ..books import table  # lazy: loads pyphen, forge.books ... only when needed

    return table


def _slot(css: Css) -> Place:
    """A card slot of the setup diagram: the lines of the slot below its padding-top."""
    from ..books import table as diagram  # lazy: loads pyphen, forge.books ... only when needed

    size = css.size(_SLOT)
    lines = int((diagram.CARD_H * _diagram() - css.length(_SLOT, "padding-top")) // (size * css.number(_SLOT, "line-height")))
    return Place(("setup.discard", "setup.exile", "setup.battlefield", "setup.rite_slot"), "a card slot of the setup diagram", TEXT_FONT, size,
                 diagram.CARD_W * _diagram(), lines=max(lines, 1))


def _legend(css: Css) -> Place:
    """A label of the card anatomy's legend: a legend column after its callout."""
    room = (css.column - css.length("ol.legend", "column-gap")) / 2 \
        - css.length(".callout", "width") - css.length("ol.legend .callout", "margin-right")
    return Place(("anatomy.*.label",), "a label of the card anatomy's legend (one line of its column)", BOLD_FONT,
                 css.size("ol.legend"), room)


_PLACES = (
    _header(("faction", "colour"), "the factions table's first header (over the medal and name columns)",
            "table.factions td.medal-cell", "table.factions td.fname", joined=" · "),
    _header(("trap",), "the traps table's first column header", "td.name"),
    _header(("rite",), "the Rites table's first column header", "td.name"),
    _header(("card",), "the starter cards table's name column header", "td.name"),
    _header(("kind",), "the traps table's kind column header", "td.kind"),
    _header(("term", "other_language.*"), "a column header of the glossary (a quarter of the page)",
            "table.glossary td:nth-child(odd)"),
    _slot,
    lambda css: Place(("setup.recruitment",), "the recruitment zone's label under the setup diagram (one line)",
                      TEXT_FONT, css.size(_LABEL), _table().RECRUITMENT_LABEL_W * _diagram()),
    lambda css: Place(("setup.rites",), "the Rites' label under the setup diagram (one line)", TEXT_FONT,
                      css.size(_LABEL), _table().RITES_LABEL_W * _diagram()),
    lambda css: Place(("setup.poison",), "the poison counter's line in the setup diagram's counters box", TEXT_FONT,
                      css.size(_COUNTERS), (_table().FIGURE_W - _table().COUNTERS_X) * _diagram()
                      - css.padding_x(_COUNTERS), around="{}\u00a00"),
    _legend,
    lambda css: Place(("quick.title",), "the quick reference's title on the back cover", TITLE_FONT,
                      css.size(".quick .quick-title"), _back_cover_panel(css)),
    lambda css: Place(("quick.turn", "quick.steps_title", "quick.wound_title"), "a heading of the quick reference",
                      TITLE_FONT, css.size(".quick .quick-head"), _back_cover_panel(css)),
)


def _back_cover_panel(css: Css) -> float:
    """The quick reference panel's text width: the A5 page less the cover frame, its padding and the panel's."""
    page = _PAGE_SIZES_MM["A5"][0] * PT_PER_MM
    frame = css.length(".cover-frame", "left") + css.length(".cover-frame", "right")
    return page - frame - css.padding_x(".cover-frame", ".back-cover .cover-frame") - css.padding_x(".quick")


# -- where each label prints -----------------------------------------------------------------------
def placed(root: Path, inv: Inventory) -> list[tuple[Place, list[Pair]]]:
    """Each bounded place with the labels it prints (none when the stylesheet cannot be read)."""
    from ..render.assets import register_fonts  # lazy: loads forge.render only when needed

    register_fonts()
    column, _ = _book_layout(root)
    if column is None:
        return []
    try:
        found = places(Css(safeio.read_text(root / "templates/books/book.css", root), column))
    except (safeio.UnsafeInput, UnicodeDecodeError):
        return []  # validate reports an unreadable stylesheet
    labels = [(dotted(p.meta["path"]), p) for p in inv.by_kind("label")]
    return [(place, [p for key, p in labels if any(fnmatchcase(key, k) for k in place.keys)]) for place in found]


def words(inv: Inventory) -> dict[str, dict]:
    """The locales' tables per language, for ``{kw:…}`` and ``{type:…}`` in labels."""
    out = {}
    for lang in ("en", "fr"):
        doc = inv.sources.docs.get(f"locales/{lang}.yaml")
        out[lang] = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    return out


def printed(text: str, lang: str, locale: dict[str, dict]) -> str:
    """A label as it prints: locale words for ``{kw:…}``/``{type:…}``, two digits for ``{n:…}``, no markup."""
    def sub(m: re.Match) -> str:
        if m.group(1) == "n":
            return NUMBER
        table = (locale.get(lang) or {}).get("keywords" if m.group(1) == "kw" else "types") or {}
        return str(table.get(m.group(2), m.group(2)))

    return " ".join(_PLACEHOLDER.sub(sub, text).replace("**", "").split())


def _room(place: Place, pair: Pair, parts: list[Pair], locale: dict, lang: str) -> float:
    """The room left to one label of a place: less its neighbours (a count, the other parts of a header)."""
    used = width(place.around.replace("{}", ""), place.font, place.size)
    for other in parts:
        entry = other.side(lang) or other.en
        if other is not pair and entry is not None:
            used += width(printed(entry.text, lang, locale) + place.joined, place.font, place.size)
    return place.room - used


def label_limits(root: Path, inv: Inventory) -> dict[str, Limit]:
    """The limit of every bounded label, for the translators' files (the room left in French)."""
    locale, out = words(inv), {}
    for place, pairs in placed(root, inv):
        per_char = width(SAMPLE, place.font, place.size) / len(SAMPLE)
        for pair in pairs:
            room = max(_room(place, pair, pairs if place.joined else [], locale, "fr"), 0.0)
            out[pair.id] = Limit(int(room / per_char) * place.lines, room * place.lines, place.font, place.size,
                                 place.where, place.lines == 1)
    return out


# -- parity ---------------------------------------------------------------------------------------
def mm(points: float) -> str:
    return f"{points / PT_PER_MM:.1f} mm"


def lines_needed(text: str, font: str, size: float, room: float) -> float:
    """How many lines ``text`` takes wrapped at its spaces in ``room`` (inf when one word is wider)."""
    lines, line = 1, ""
    for word in text.split(" "):
        if width(word, font, size) > room + 0.01:
            return float("inf")
        attempt = f"{line} {word}" if line else word
        if width(attempt, font, size) > room + 0.01:
            lines, line = lines + 1, word
        else:
            line = attempt
    return lines


def check(inv: Inventory, bounded: list[tuple[Place, list[Pair]]]) -> list[Finding]:
    """A label wider than its place, in either language, at the label to shorten (``label-length``)."""
    locale, found = words(inv), []
    for place, pairs in bounded:
        for lang in ("en", "fr"):
            texts = [(p, p.side(lang)) for p in pairs if p.side(lang) is not None and p.side(lang).text.strip()]
            for group in ([texts] if place.joined else [[t] for t in texts]):
                finding = _overflow(place, group, lang, locale) if group else None
                if finding is not None:
                    found.append(finding)
    return found


def _overflow(place: Place, group: list[tuple[Pair, object]], lang: str, locale: dict) -> Finding | None:
    """The finding for labels printed together in ``place`` when they need more lines than it has."""
    shown = place.around.replace("{}", place.joined.join(printed(e.text, lang, locale) for _, e in group))
    need = lines_needed(shown, place.font, place.size, place.room)
    if need <= place.lines:
        return None
    pair, entry = max(group, key=lambda pe: width(printed(pe[1].text, lang, locale), place.font, place.size))
    per_char = width(SAMPLE, place.font, place.size) / len(SAMPLE)
    fits = max(int(_room(place, pair, [p for p, _ in group], locale, lang) / per_char), 1)
    if place.lines == 1:
        what, room = f"is {mm(width(shown, place.font, place.size))} wide", f"holds {mm(place.room)}"
        hint = f"shorten it to about {fits} characters"
    else:
        what = "has a word wider than a line" if need == float("inf") else f"needs {need} lines"
        room = f"holds {place.lines} lines of {mm(place.room)}"
        hint = f"shorten it, or its longest word: {place.lines} lines of about {fits} characters"
    name = {"en": "English", "fr": "French"}[lang]
    return at(entry, "label-length", f"{label(pair)}: the {name} \"{shown}\" {what} at {place.size:g} pt; "
              f"{place.where} {room}", f"{hint} (measured from templates/books/book.css and the fonts), "
              "or change the layout")


__all__ = ["Place", "places", "placed", "label_limits", "check", "printed", "lines_needed"]
