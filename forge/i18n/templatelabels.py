"""How long the card template's labels may be (``templates/cards/card.yaml``): the boxes the aids print them in.

Every room is the renderer's own (``forge.render.aids``, ``forge.render.sheets``), at the
smallest size the text may shrink to:

- a player aid's title (turn summary, health, allegiance, Rite slot): one line of the card's
  content box in the title font at 7 pt;
- a token card's title (track markers, poison counters, soul essence), one line of the token
  box in the title font at 7 pt; its cut note, one line of it in the text font at 7 pt;
- the health tracker's note, one line at 7 pt; the player aid's back label, upper-cased, at 5 pt;
  a line of the calibration page's help, one line of its text zone (the narrower paper) at 6 pt;
- a paragraph of a box that wraps (``aids.text_boxes``: the turn summary's two sides, the
  allegiance note, the Rite slot's rules, the track markers' note): the lines the box holds at
  7 pt, shared by its paragraphs (an estimate for the translator's tools); ``check`` fits each
  language's words in the box as the renderer does and reports a box that overflows at the
  paragraph to shorten.

Left unlimited, by design: the Tabletop Simulator README (``tts_help``: a plain-text file, no
box), the labels of the A4/Letter mat and token sheet and of the print-and-play page labels
(one short label on a whole page), TTS object names, and the card backs' and footer words
(drawn and fit-checked with the card, like the cards' own text).
"""
from __future__ import annotations

from dataclasses import replace

from ..core.findings import Finding
from .inventory import TEMPLATE_FILE, Inventory
from .room import Limit, _limit, width
from .checks import at, label

LANGS = ("en", "fr")
#: Aids titled in the title font on one line of the content box.
CARD_TITLES = ("turn", "health", "allegiance", "rite")
#: Token cards (pieces to cut out), titled on one line of the token box.
TOKEN_TITLES = ("markers", "poison", "essence")


def aid_sets(tpl, books: dict | None, factions) -> dict:
    """Each language's aid words with their rule numbers filled in (none for a language they cannot be built in)."""
    from ..render.aids import aid_set  # lazy: loads reportlab, forge.render only when needed

    out = {}
    for lang in LANGS:
        try:
            out[lang] = aid_set(tpl, (books or {})[lang], lang, factions)
        except Exception:  # a broken label is the presence, placeholder or render check's finding
            continue
    return out


def template(root, sources=None):
    """The project's card template, or None when it cannot be read (validate reports it).

    A text given for it (``Sources.given``: an edit not written yet) is read instead of the file,
    as for every file parity compares: the labels' pairs and their boxes come from the same text.
    """
    from ..render.template import TemplateError, load_template, parse_template, template_path  # lazy: reportlab

    try:
        if sources is not None and TEMPLATE_FILE in sources.given:
            return parse_template(sources.given[TEMPLATE_FILE], str(template_path(root)))
        return load_template(root)
    except TemplateError:
        return None


def load(root, books: dict | None, factions, sources=None) -> tuple[object, dict]:
    """The project's card template (``template``) and its aid words per language ((None, {}) when it cannot be read)."""
    from ..render.assets import register_fonts  # lazy: loads forge.render only when needed

    tpl = template(root, sources)
    if tpl is None:
        return None, {}
    register_fonts()
    return tpl, aid_sets(tpl, books, factions)


def template_limits(tpl, inv: Inventory, sets: dict | None = None) -> dict[str, Limit]:
    """The room of the card template's labels that print in a bounded box (the module's docstring lists them)."""
    from ..render import aids, sheets  # lazy: loads reportlab, forge.render only when needed

    x, y, w, h = aids._content_box(tpl)
    tx, ty, tw, th = aids._token_box(tpl)
    small = aids.AID_MIN_TEXT
    text, title = tpl.font("text"), tpl.font("title")
    zone = min(z[2] - z[0] for z in (sheets.calibration_zones(paper, 9)["text"] for paper in sheets.PAPERS))
    sx, sy, sw, sh = tpl.safe_rect()
    out: dict[str, Limit] = {}
    for pair in inv.by_kind("template-label"):
        path = pair.meta["path"]
        head, key = str(path[0]), (str(path[1]) if len(path) > 1 else "")
        if head == "calibration_help":
            out[pair.id] = _limit(zone, text, 6.0, "one line of the calibration page's help zone")
        elif head != "aids" or len(path) > 2:
            continue
        elif key in CARD_TITLES:
            out[pair.id] = _limit(w, title, small, "the title line of a player-aid card")
        elif key in TOKEN_TITLES:
            out[pair.id] = _limit(tw, title, small, "the title line of a card of pieces to cut out")
        elif key == "cut_note":
            out[pair.id] = _limit(tw, text, small, "the cut note under a token card's title")
        elif key == "health_note":
            out[pair.id] = _limit(w, text, small, "the note line under the health tracker")
        elif key == "player_aid":
            out[pair.id] = replace(_limit(sw - 12, tpl.font("type_line"), 5.0,
                                          "the label at the foot of the player aids' back (upper-cased)"), upper=True)
    out.update(_box_limits(tpl, (sets or {}).get("fr")))
    return out


def _box_limits(tpl, aid_set) -> dict[str, Limit]:
    """Each paragraph of a wrapping box: the lines the box holds at the smallest size, shared (an estimate)."""
    from ..render import aids  # lazy: loads reportlab, forge.render only when needed

    if aid_set is None:
        return {}
    small, text = aids.AID_MIN_TEXT, tpl.font("text")
    out = {}
    for box in aids.text_boxes(tpl, aid_set):
        gaps = sum(small * (0.55 if q.kind == "heading" else 0.3) for q in box.paras)
        lines = max(int((box.height - gaps) // (small * 1.18)), 0)
        per_line = _limit(box.width, text, small, "")
        for para in box.paras:
            out[f"template/aids.{para.key}"] = Limit(
                per_line.chars * lines, box.width * lines, text, small,
                f"{box.where}, shared by its {len(box.paras)} paragraphs ({lines} lines of "
                f"{box.width * 25.4 / 72:.0f} mm)", False)
    return out


def check(inv: Inventory, tpl, sets: dict) -> list[Finding]:
    """A wrapping box of the aids whose words do not fit it at the smallest size, at the paragraph to shorten.

    The box is shared: the paragraph blamed is the one that takes the most lines (the longest
    when they tie), the likeliest to have grown.
    """
    from ..render import aids  # lazy: loads reportlab, forge.render only when needed

    pairs = {p.id: p for p in inv.by_kind("template-label")}
    fonts = (tpl.font("text"), tpl.font("keyword"))
    found = []
    for lang, aid_set in sets.items():
        for box in aids.text_boxes(tpl, aid_set):
            size, ok = box.fit(tpl)
            if ok:
                continue
            rows = {q.key: len(aids.wrap_words(q.text, fonts, size, box.width)) for q in box.paras}
            worst = max(box.paras, key=lambda q: (rows[q.key], width(q.text, fonts[0], size)))
            pair = pairs.get(f"template/aids.{worst.key}")
            entry = pair.side(lang) if pair is not None else None
            if entry is None:
                continue
            need = box.text_height(tpl, size) * 25.4 / 72
            name = {"en": "English", "fr": "French"}[lang]
            found.append(at(entry, "length", f"{label(pair)}: {box.where} does not hold its {name} paragraphs at "
                            f"{size:g} pt: they need {need:.1f} mm, it has {box.height * 25.4 / 72:.1f} mm "
                            f"({box.width * 25.4 / 72:.0f} mm wide); this paragraph takes {rows[worst.key]} lines",
                            "shorten it (or another paragraph of the box), or change the layout"))
    return found


__all__ = ["template", "load", "aid_sets", "template_limits", "check", "CARD_TITLES", "TOKEN_TITLES"]
