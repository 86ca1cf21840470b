"""Card-size player aids: tracker and turn-summary cards, and the print shops' Rite slot and token cards.

The rulebook asks each player to track 40 health, an allegiance of 0 to 6 in every
faction, poison counters, soul essence and one Rite; the kit printed none of it.
Every number drawn here comes from the rules engine's constants (read when the aids
are built, so the aids follow the engine), every word from ``labels.<lang>.aids`` of
the card template and from the locale's keywords and faction names.

Card-size aids are ``Aid`` items: like faces and backs they are drawn at the origin
of their bleed box, cached by key and placed by every profile (print-and-play
sheets, the print-on-demand file, shop images, Tabletop Simulator). The mat and the
token sheet, documents of their own, are in ``aiddocs``.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import asdict, dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from .assets import assets_hash
from .counters import COUNTER, MARKER, Grid, cut_grid, health_disc, icon_name, medallion, poison_disc, soul_orb
from .paint import Painter, mix, shade
from .template import TEMPLATE_FILE, Template, TemplateError
from .fit import fit_line
from .pdf import register_fonts

#: Card-size aids, front side -> what is printed on their back.
FRONTS: dict[str, str] = {"turn": "wound", "health": "back", "allegiance": "back"}
#: The print shops' card-size aids (print-on-demand, The Game Crafter, MakePlayingCards print neither
#: the mat nor the token sheet): a Rite slot card, then the track markers, poison counters and soul
#: essence to cut out of cards, each piece printed on both sides (the back reads the columns mirrored).
SHOP_FRONTS: dict[str, str] = {"rite": "back", "markers": "markers-back", "poison": "poison", "essence": "essence"}
_SIDES = {**FRONTS, **SHOP_FRONTS}
SKULL = "death-skull"
#: Bump when the drawing of an aid, the mat, the tokens or their TTS images changes: every key derives from it.
AIDS_VERSION = "5"
#: The smallest text the aids print (points): print shops advise at least 7 pt for text meant to be read
#: at the table; the card footers' 6 pt is for reference marks only.
AID_MIN_TEXT = 7.0


@dataclass(frozen=True)
class Numbers:
    """The rule numbers the aids print, as the engine plays them."""

    health: int
    max_allegiance: int
    start_allegiance: int
    hand: int
    keep: int
    max_creatures: int
    raise_cost: int
    poison_decay: int
    players: int
    phases: tuple[str, ...]  # the turn's phases, in order
    protection: tuple[str, ...]  # what meets a Wound effect, in order (keywords)


def rule_numbers() -> Numbers:
    """Read from ``forge.engine.state`` now (not at import), so the aids always follow the engine."""
    from ..engine import state  # lazy: loads markupsafe, forge.engine only when needed

    return Numbers(health=state.START_HEALTH, max_allegiance=state.MAX_ALLEGIANCE,
                   start_allegiance=state.START_ALLEGIANCE, hand=state.HAND_SIZE, keep=state.KEEP_AT_CLEANUP,
                   max_creatures=state.MAX_CREATURES, raise_cost=state.RAISE_COST,
                   poison_decay=state.POISON_DECAY, players=state.PLAYERS, phases=tuple(state.TURN_PHASES),
                   protection=tuple(state.WOUND_PROTECTION))


@dataclass(frozen=True)
class AidSet:
    """Everything the aids of one language print: words, numbers and the game's factions."""

    lang: str
    game: str
    words: tuple[tuple[str, object], ...]  # labels.<lang>.aids, placeholders filled
    numbers: Numbers
    factions: tuple[tuple[str, str, str, str], ...]  # (id, colour, icon, name in this language)

    def word(self, key: str):
        return dict(self.words)[key]

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass(frozen=True)
class Aid:
    """One side of a card-size player aid; ``copies``: ``count``, or one per player."""

    kind: str  # turn | wound | health | allegiance | back; shops: rite | markers | markers-back | poison | essence
    aids: AidSet
    count: int = 0

    @property
    def id(self) -> str:
        return f"aid-{self.kind}"

    @property
    def lang(self) -> str:
        return self.aids.lang

    @property
    def copies(self) -> int:
        return self.count or self.aids.numbers.players

    @property
    def name(self) -> str:
        key = {"wound": "turn", "back": "player_aid", "markers-back": "markers"}.get(self.kind, self.kind)
        return str(self.aids.word(key))

    def reverse(self) -> "Aid":
        """What is printed on the back of this aid (its other side)."""
        return Aid(_SIDES.get(self.kind, "back"), self.aids, self.count)

    def key(self, template_digest: str) -> str:
        from .face import RENDERER_VERSION  # lazy: loads markupsafe only when needed

        return hashlib.sha256(f"{RENDERER_VERSION}|{AIDS_VERSION}|{template_digest}|{assets_hash()}|aid|"
                              f"{self.kind}|{self.aids.digest()}".encode()).hexdigest()


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_KEYWORDS = ("wound", "unblockable_wound", "poison", "aegis", "guard", "divine_shield")


def aid_set(tpl: Template, book, lang: str, factions) -> AidSet:
    """The aids' words in ``lang``: ``labels.<lang>.aids`` with rule numbers and keywords filled in.

    ``factions`` are the game's factions (``model.Faction``); keywords and faction names come
    from the locale (``book``), so a renamed keyword reaches the aids as it reaches the cards.
    """
    numbers = rule_numbers()
    labels = tpl.labels(lang)
    raw = labels.get("aids")
    if not isinstance(raw, dict):
        raise TemplateError(f"{TEMPLATE_FILE}: `labels.{lang}.aids` is missing",
                            hint="copy the `aids:` labels from forge's own templates/cards/card.yaml")
    _check_protection_order(raw, numbers.protection, lang)
    values = {k: str(v) for k, v in asdict(numbers).items() if not isinstance(v, tuple)}
    values.update({k: f"**{book.keyword(k)}**" for k in _KEYWORDS})
    values["soul"] = book.label("types", "soul")

    def fill(key: str, text: str) -> str:
        def sub(m: re.Match) -> str:
            if m.group(1) not in values:
                raise TemplateError(f"{TEMPLATE_FILE}: `labels.{lang}.aids.{key}` names {{{m.group(1)}}}, "
                                    f"which is none of {', '.join(sorted(values))}",
                                    hint="fix the placeholder, or compare with forge's own templates/cards/card.yaml")
            return values[m.group(1)]

        return _PLACEHOLDER.sub(sub, text)

    words = []
    for key, value in sorted(raw.items()):
        if isinstance(value, list):
            words.append((key, tuple(fill(key, str(v)) for v in value)))
        else:
            words.append((key, fill(key, str(value))))
    return AidSet(lang, str(labels["game"]), tuple(words), numbers,
                  tuple((f.id, f.color, f.icon, book.faction_name(f.id)) for f in factions))


def _check_protection_order(raw: dict, protection: tuple[str, ...], lang: str) -> None:
    """The turn summary's Wound steps name the protections in the engine's order (it applies them so)."""
    steps = raw.get("wound_steps")
    text = " ".join(str(v) for v in steps) if isinstance(steps, list) else ""
    found = [text.find("{%s}" % k) for k in protection]
    if -1 in found or found != sorted(found):
        raise TemplateError(f"{TEMPLATE_FILE}: `labels.{lang}.aids.wound_steps` must name "
                            f"{', '.join('{%s}' % k for k in protection)} in this order, as the engine applies them",
                            hint="compare with forge's own templates/cards/card.yaml")


def aid_cards(aids: AidSet) -> list[Aid]:
    """The fronts of the card-size aids, in print order."""
    return [Aid(kind, aids) for kind in FRONTS]


# -- text -----------------------------------------------------------------------------
Word = tuple[tuple[str, bool], ...]  # spans (text, bold) printed without a space between them


#: A number alone, or after an opening bracket: it stays with the word it counts ("(5 au plus").
_LONE_NUMBER = re.compile(r"[(\[«]?[+\u2212-]?\d+")


def _words(text: str) -> list[Word]:
    """The words of a line: **bold** spans stay bold, a no-break space never breaks, punctuation right
    after a bold word stays glued to it ("**Poison**:" is one word of two spans), and a lone number to
    the word after it (the French turn summary left "(5" at the end of a line)."""
    words = _spans(text)
    out: list[Word] = []
    for word in words:
        if out and len(out[-1]) == 1 and _LONE_NUMBER.fullmatch(out[-1][0][0]):
            (number, bold), = out[-1]
            out[-1] = ((number + "\u00a0", bold), *word)
        else:
            out.append(word)
    return out


def _spans(text: str) -> list[Word]:
    """The words of a line as runs of (text, bold) spans, split at plain spaces."""
    words: list[list[tuple[str, bool]]] = []
    joined = False  # the next span continues the last word
    for i, part in enumerate(text.split("**")):
        bold = i % 2 == 1
        for j, w in enumerate(part.split(" ")):
            if w and j == 0 and joined and words:
                words[-1].append((w, bold))
            elif w:
                words.append([(w, bold)])
        joined = bool(part) and not part.endswith(" ") or (not part and joined)
    return [tuple(w) for w in words]


def _width(word: Word, fonts, size: float) -> float:
    return sum(stringWidth(t, fonts[b], size) for t, b in word)


def wrap_words(text: str, fonts: tuple[str, str], size: float, width: float) -> list[list[Word]]:
    lines: list[list[Word]] = []
    line: list[Word] = []
    used = 0.0
    space = stringWidth(" ", fonts[0], size)
    for word in _words(text):
        w = _width(word, fonts, size)
        if line and used + space + w > width:
            lines.append(line)
            line, used = [], 0.0
        used += (space if line else 0) + w
        line.append(word)
    if line:
        lines.append(line)
    return lines


def _draw_words(p: Painter, x: float, y: float, line: list[Word], fonts, size: float, color: str,
                label: str) -> None:
    space = stringWidth(" ", fonts[0], size)
    for word in line:
        for t, bold in word:
            x += p.text(x, y, t, fonts[bold], size, color, label=label)
        x += space


def plain(text: str) -> str:
    """A label without its bold markers, for titles and single-line notes."""
    return text.replace("**", "")


@dataclass(frozen=True)
class Para:
    """A paragraph of an aid: a heading, a numbered or plain step, or a note."""

    kind: str  # heading | step | note
    text: str
    mark: str = ""  # "1." for a numbered step, "•" for a bullet
    key: str = ""  # the label it prints (``labels.<lang>.aids`` key, ``key.i`` for a list's item)


def _para_height(para: Para, fonts, size: float, width: float) -> float:
    indent = size * 1.3 if para.mark else 0
    s = size * (1.15 if para.kind == "heading" else 1.0)
    n = len(wrap_words(para.text, fonts, s, width - indent))
    gap = size * (0.55 if para.kind == "heading" else 0.3)
    return n * s * 1.18 + gap


def fit_paragraphs(paras: list[Para], fonts, width: float, height: float,
                   max_size: float = 9.0, min_size: float = AID_MIN_TEXT) -> tuple[float, bool]:
    """The largest size (by quarter points) at which the paragraphs fill at most ``height``."""
    size = max_size
    while size >= min_size:
        if sum(_para_height(q, fonts, size, width) for q in paras) <= height:
            return size, True
        size -= 0.25
    return min_size, False


@dataclass(frozen=True)
class TextBox:
    """A box of an aid that wraps its paragraphs, shrinking them from ``max_size`` to ``AID_MIN_TEXT``.

    The renderer draws from it and parity measures each language's words in it (``forge.i18n``):
    one room for both, so a translation that does not fit is found before a card is printed.
    """

    where: str
    paras: tuple[Para, ...]
    width: float
    height: float
    max_size: float

    def fit(self, tpl: Template) -> tuple[float, bool]:
        """The size the paragraphs print at, and whether they fit at the smallest."""
        fonts = (tpl.font("text"), tpl.font("keyword"))
        return fit_paragraphs(list(self.paras), fonts, self.width, self.height, self.max_size)

    def text_height(self, tpl: Template, size: float) -> float:
        fonts = (tpl.font("text"), tpl.font("keyword"))
        return sum(_para_height(q, fonts, size, self.width) for q in self.paras)


def draw_paragraphs(p: Painter, tpl: Template, paras: list[Para], x: float, top: float, width: float,
                    size: float, ink: str, accent: str) -> float:
    """Draw the paragraphs from ``top`` down; returns the y below the last one."""
    fonts = (tpl.font("text"), tpl.font("keyword"))
    y = top
    for para in paras:
        s = size * (1.15 if para.kind == "heading" else 1.0)
        indent = size * 1.3 if para.mark else 0
        color = accent if para.kind == "heading" else ink
        pf = (tpl.font("keyword"), tpl.font("keyword")) if para.kind == "heading" else fonts
        for i, line in enumerate(wrap_words(para.text, pf, s, width - indent)):
            y -= s * 1.18
            if i == 0 and para.mark:
                p.text(x, y, para.mark, tpl.font("keyword"), s, accent, label="aid mark")
            _draw_words(p, x + indent, y, line, pf, s, color, f"aid {para.kind}")
        y -= size * (0.55 if para.kind == "heading" else 0.3)
    return y


# -- shapes ---------------------------------------------------------------------------
def _cell(p: Painter, tpl: Template, x: float, y: float, w: float, h: float, text: str, size: float,
          fill: str, ink: str, icon: str | None = None) -> None:
    """A track cell: a rounded box, its number, optionally a faint icon behind it."""
    c = p.canvas
    p.fill(fill)
    p.stroke(tpl.color("gold_dark"), 0.5)
    c.roundRect(x, y, w, h, min(w, h) * 0.14, stroke=1, fill=1)
    p.plate("track cell", (x, y, x + w, y + h), (fill,))
    if icon:
        s = min(w, h) * 0.8
        p.icon(icon_name(icon), x + (w - s) / 2, y + (h - s) / 2, s, ink, alpha=0.22, record=False)
    with p.holds(f"its track cell ({w / mm:.1f} × {h / mm:.1f} mm)", (x, y, x + w, y + h)):
        p.text(x + w / 2, y + h / 2 - size * 0.35, text, tpl.font("number"), size, ink, anchor="middle",
               label=f"track {text}")


def health_track(p: Painter, tpl: Template, aids: AidSet, x: float, y: float, w: float, h: float, cols: int) -> None:
    """Every health value from the start down to 0, row by row from the top-left; 0 shows a skull."""
    n = aids.numbers.health
    values = list(range(n, -1, -1))
    rows = -(-len(values) // cols)
    gap = min(w / cols, h / rows) * 0.1
    cw, ch = (w - (cols - 1) * gap) / cols, (h - (rows - 1) * gap) / rows
    size = min(ch * 0.5, cw * 0.42)
    parch, ink = tpl.color("parchment"), tpl.color("ink")
    for i, v in enumerate(values):
        r, col = divmod(i, cols)
        cx, cy = x + col * (cw + gap), y + h - (r + 1) * ch - r * gap
        if v == n:
            _cell(p, tpl, cx, cy, cw, ch, str(v), size, tpl.color("gold"), ink)
        elif v == 0:
            _cell(p, tpl, cx, cy, cw, ch, str(v), size, "#3a1a16", "#fbf6ea", SKULL)
        else:
            _cell(p, tpl, cx, cy, cw, ch, str(v), size, parch, ink)


def allegiance_track(p: Painter, tpl: Template, aids: AidSet, faction, x: float, y: float, w: float, h: float,
                     name_size: float) -> None:
    """One faction: its medallion and name, then a cell for each value 0 … max; the max cell shows the Rite."""
    fid, color, icon, name = faction
    r = h / 2
    medallion(p, tpl, x + r, y + r, r, color, icon, f"{fid} medallion")
    n = aids.numbers.max_allegiance
    left = x + 2 * r + 1.5 * mm
    label_h = name_size * 1.25
    p.text(left, y + h - name_size * 0.95, name, tpl.font("keyword"), name_size, tpl.color("ink"),
           label=f"{fid} name")
    cells = n + 1
    gap = 0.8 * mm
    cw = (x + w - left - (cells - 1) * gap) / cells
    ch = h - label_h
    size = max(AID_MIN_TEXT, min(ch * 0.55, cw * 0.5))  # one digit: at 7 pt it still fits a narrow cell
    for v in range(cells):
        cx = left + v * (cw + gap)
        if v == n:
            _cell(p, tpl, cx, y, cw, ch, str(v), size, mix(color, "#ffffff", 0.55), tpl.color("ink"), "rite")
        else:
            _cell(p, tpl, cx, y, cw, ch, str(v), size, tpl.color("parchment"), tpl.color("ink"))


# -- card-size aids ---------------------------------------------------------------------
#: The aid cards' gold rule, this far inside the safe zone.
AID_RULE_INSET = 0.6 * mm


def _content_box(tpl: Template) -> tuple[float, float, float, float]:
    """The box inside a card-size aid's gold rule, with its padding (x, y, w, h)."""
    sx, sy, sw, sh = tpl.safe_rect()
    pad = AID_RULE_INSET + 2.0 * mm
    return (sx + pad, sy + pad, sw - 2 * pad, sh - 2 * pad)


def _card_base(p: Painter, tpl: Template, rule: bool = True) -> tuple[float, float, float, float]:
    """Parchment to the bleed edge, a gold rule inside the safe zone (unless not ``rule``: a card cut
    into tokens shows its cut lines alone); returns the content box."""
    c = p.canvas
    with p.part("aid background", bleed=True):  # declared full-bleed: the safe-zone check lets it
        c.saveState()
        path = c.beginPath()
        path.rect(0, 0, tpl.full_w, tpl.full_h)
        c.clipPath(path, stroke=0, fill=0)
        parchment = tpl.color("parchment")
        colours = [parchment, mix(parchment, tpl.color("parchment_edge"), 0.6)]
        p.plate("aid background", (0, 0, tpl.full_w, tpl.full_h), colours)
        p.linear(0, tpl.full_h, 0, 0, colours)
        c.restoreState()
    sx, sy, sw, sh = tpl.safe_rect()
    inset = AID_RULE_INSET
    if not rule:
        return _content_box(tpl)
    p.stroke(tpl.color("gold_dark"), 0.6)
    c.roundRect(sx + inset, sy + inset, sw - 2 * inset, sh - 2 * inset, 2 * mm, stroke=1, fill=0)
    p.record("rule", "aid frame", (sx + inset, sy + inset, sx + sw - inset, sy + sh - inset))
    return _content_box(tpl)


def _title_size(tpl: Template, text: str, width: float) -> float:
    return fit_line(plain(text), tpl.font("title"), width, 13, 7)[0]


def _title_height(size: float) -> float:
    """How far below the content box's top the text starts, under a title of ``size``."""
    return size * 1.15 + 1.2 * mm


def _card_title(p: Painter, tpl: Template, text: str, x: float, top: float, w: float) -> float:
    size = _title_size(tpl, text, w)
    p.text(x + w / 2, top - size * 0.8, plain(text), tpl.font("title"), size, tpl.color("ink"), anchor="middle",
           label="aid title")
    y = top - size * 1.15
    p.stroke(tpl.color("gold_dark"), 0.5)
    p.canvas.line(x + w * 0.2, y, x + w * 0.8, y)
    return top - _title_height(size)


def _steps(items, numbered: bool, key: str, first: int = 0) -> list[Para]:
    """Steps numbered from 1 (or bullets), each keyed by its item of the label list ``key``."""
    return [Para("step", t, f"{i}." if numbered else "•", f"{key}.{first + i - 1}") for i, t in enumerate(items, 1)]


def _phase(a: AidSet, phase: str, number: int) -> list[Para]:
    """A phase's heading, numbered by its place in the engine's turn, and its steps: numbered, or,
    after a first step ending in a colon ("In any order, as often as you like:"), bullets."""
    heading = Para("heading", f"{number} · {a.word(phase)}", key=phase)
    key = f"{phase}_steps"
    steps = list(a.word(key))
    if steps and plain(steps[0]).rstrip().endswith(":"):
        return [heading, Para("note", steps[0], key=f"{key}.0"), *_steps(steps[1:], False, key, 1)]
    return [heading, *_steps(steps, True, key)]


def turn_sides(a: AidSet) -> dict[str, list[Para]]:
    """The turn summary's two sides, the phases in the engine's order: all but the last on the front;
    the last (Cleanup) and the Wound protection order on the back. All of it on one side only fitted
    at 6.25 pt."""
    *first, last = a.numbers.phases
    front = [para for number, phase in enumerate(first, 1) for para in _phase(a, phase, number)]
    back = [*_phase(a, last, len(first) + 1), Para("heading", a.word("wound"), key="wound"),
            *_steps(a.word("wound_steps"), True, "wound_steps"),
            *[Para("note", t, "•", f"wound_note.{i}") for i, t in enumerate(a.word("wound_note"))]]
    return {"turn": front, "wound": back}


def turn_boxes(tpl: Template, a: AidSet) -> dict[str, TextBox]:
    """The turn summary's two sides: the content box below its title (the title's size set by its words)."""
    x, y, w, h = _content_box(tpl)
    room = h - _title_height(_title_size(tpl, a.word("turn"), w))
    where = {"turn": "the turn summary's front", "wound": "the turn summary's back"}
    return {side: TextBox(where[side], tuple(paras), w, room, 9.0) for side, paras in turn_sides(a).items()}


def turn_text_size(tpl: Template, a: AidSet) -> tuple[float, bool]:
    """One text size for both sides of the turn summary: the largest at which each side fits (and
    whether they fit at ``AID_MIN_TEXT``)."""
    fits = [box.fit(tpl) for box in turn_boxes(tpl, a).values()]
    return min(size for size, _ in fits), all(ok for _, ok in fits)


def allegiance_box(tpl: Template, a: AidSet) -> TextBox:
    """The allegiance tracker's note: at the foot of the card, 14 mm at most."""
    x, y, w, h = _content_box(tpl)
    return TextBox("the allegiance tracker's note", (Para("note", a.word("allegiance_note"), key="allegiance_note"),),
                   w, 14 * mm, 7.5)


def rite_box(tpl: Template, a: AidSet) -> TextBox:
    """The Rite slot's rules: the lower half of the card below its title; the slot takes the rest."""
    x, y, w, h = _content_box(tpl)
    top = y + h - _title_height(_title_size(tpl, a.word("rite"), w))
    paras = tuple(Para("note", t, "•", f"rite_steps.{i}") for i, t in enumerate(a.word("rite_steps")))
    return TextBox("the Rite slot card's rules (half the card below its title)", paras, w, (top - y) * 0.5, 8.5)


def text_boxes(tpl: Template, a: AidSet) -> list[TextBox]:
    """Every box of the card-size aids that wraps paragraphs, as the renderer fits them."""
    return [*turn_boxes(tpl, a).values(), allegiance_box(tpl, a), rite_box(tpl, a), markers_box(tpl, a)]


def draw_aid(p: Painter, tpl: Template, aid: Aid) -> list[str]:
    """Draw one side of a card-size aid at the origin of its bleed box; returns what did not fit."""
    a, kind = aid.aids, aid.kind
    if kind in ("turn", "wound"):  # both sides of the turn summary carry its title
        x, y, w, h = _card_base(p, tpl)
        top = _card_title(p, tpl, a.word("turn"), x, y + h, w)
        size, ok = turn_text_size(tpl, a)
        draw_paragraphs(p, tpl, turn_sides(a)[kind], x, top, w, size, tpl.color("ink"), tpl.color("gold_dark"))
        return [] if ok else [f"the text of the aid `{plain(a.word('turn'))}` does not fit its card "
                              f"even at {size} pt"]
    if kind == "health":
        x, y, w, h = _card_base(p, tpl)
        top = _card_title(p, tpl, a.word("health"), x, y + h, w)
        note_size = AID_MIN_TEXT
        p.text(x + w / 2, y + 0.5 * mm, plain(a.word("health_note")), tpl.font("text"), note_size,
               tpl.color("muted_ink"), anchor="middle", label="aid note")
        health_track(p, tpl, a, x, y + note_size * 1.6, w, top - y - note_size * 1.6, cols=6)
        return []
    if kind == "allegiance":
        x, y, w, h = _card_base(p, tpl)
        top = _card_title(p, tpl, a.word("allegiance"), x, y + h, w)
        note = allegiance_box(tpl, a)
        nsize, _ = note.fit(tpl)
        note_h = note.text_height(tpl, nsize)
        draw_paragraphs(p, tpl, list(note.paras), x, y + note_h, w, nsize, tpl.color("muted_ink"),
                        tpl.color("gold_dark"))
        n = max(1, len(a.factions))
        room = top - (y + note_h) - 1 * mm
        row = min(room / n, 17 * mm)
        for i, faction in enumerate(a.factions):
            ry = top - (i + 1) * row
            allegiance_track(p, tpl, a, faction, x, ry + row * 0.12, w, row * 0.8, AID_MIN_TEXT)
        return []
    if kind in SHOP_DRAW:
        return SHOP_DRAW[kind](p, tpl, a)
    draw_aid_back(p, tpl, a)
    return []


def draw_aid_back(p: Painter, tpl: Template, a: AidSet) -> None:
    """The back of the tracker cards: symmetric, dark, the game's name and "player aid"."""
    c = p.canvas
    W, H = tpl.full_w, tpl.full_h
    cx, cy = W / 2, H / 2
    base, gold = tpl.color("ink"), tpl.color("gold")
    with p.part("aid back background", bleed=True):  # declared full-bleed: the safe-zone check lets it
        c.saveState()
        path = c.beginPath()
        path.rect(0, 0, W, H)
        c.clipPath(path, stroke=0, fill=0)
        colours = [mix(gold, base, 0.35), mix(gold, base, 0.75), base, shade(base, 0.5)]
        p.plate("aid back", (0, 0, W, H), colours)
        p.radial(cx, cy, H * 0.62, colours, [0, 0.15, 0.6, 1])
        c.restoreState()
    for r, wdt in ((24 * mm, 0.8), (21.5 * mm, 0.35)):
        p.stroke(gold, wdt, alpha=0.8)
        c.circle(cx, cy, r, stroke=1, fill=0)
    s = 28 * mm
    p.icon(icon_name("rite"), cx - s / 2, cy - s / 2, s, mix(gold, "#fff3cf", 0.4), label="aid back icon")
    sx, sy, sw, sh = tpl.safe_rect()
    p.stroke(gold, 0.4, alpha=0.7)
    c.roundRect(sx + 0.6 * mm, sy + 0.6 * mm, sw - 1.2 * mm, sh - 1.2 * mm, 2 * mm, stroke=1, fill=0)
    size, _ = fit_line(a.game, tpl.font("title"), sw - 8, 16, 8)
    p.text(cx, sy + sh - 8 * mm, a.game, tpl.font("title"), size, mix(gold, "#fff3cf", 0.5), anchor="middle",
           label="game")
    label = str(a.word("player_aid")).upper()
    lsize, _ = fit_line(label, tpl.font("type_line"), sw - 12, 8.5, 8)  # light on dark: 8 pt at least
    p.text(cx, sy + 5.5 * mm, label, tpl.font("type_line"), lsize, mix(gold, "#fff3cf", 0.5), anchor="middle",
           label="aid back label")


# -- the pieces: what each player needs --------------------------------------------------------
Marker = tuple[str, object]  # ("health", None) or ("allegiance", faction)


def token_plan(a: AidSet) -> list[Marker]:
    """Markers per player: one for health and one per faction's allegiance (kind, faction or None)."""
    out: list[Marker] = []
    for _ in range(a.numbers.players):
        out.append(("health", None))
        out += [("allegiance", f) for f in a.factions]
    return out


def counters_wanted(numbers: Numbers) -> int:
    """How many poison counters and how many soul essence tokens the kit holds, at the least.

    Poison: a commander with as many counters as the starting health loses at their next
    initiation whatever their health (nothing heals), so more never matter. Essence: as many,
    far above what a turn gains (a good turn gains 6 to 7; docs/design.md).
    """
    return numbers.health


def draw_marker(p: Painter, tpl: Template, marker: Marker, cx: float, cy: float, r: float) -> None:
    kind, faction = marker
    if kind == "health":
        health_disc(p, tpl, cx, cy, r)
    else:
        fid, color, icon, _ = faction
        medallion(p, tpl, cx, cy, r, color, icon, f"{fid} marker")


def draw_counter(p: Painter, tpl: Template, kind: str, cx: float, cy: float, r: float) -> None:
    (poison_disc if kind == "poison" else soul_orb)(p, tpl, cx, cy, r)


#: A piece's radius in its cut cell: the cut never touches its gold ring.
MARKER_R, COUNTER_R = MARKER * 0.38, COUNTER * 0.36


# -- the print shops' aids: the Rite slot, and the pieces cut out of cards ------------------------------
def shop_aid_cards(tpl: Template, aids: AidSet) -> list[Aid]:
    """The fronts of the print shops' aids: a Rite slot per player, the track markers, and enough
    cards of poison counters and of soul essence for ``counters_wanted`` of each."""
    per_card = token_grid(tpl, COUNTER).capacity
    cards = -(-counters_wanted(aids.numbers) // per_card) if per_card else 1
    return [Aid("rite", aids), Aid("markers", aids, 1), Aid("poison", aids, cards), Aid("essence", aids, cards)]


#: A token card's header: its title, and the cut note under it (points).
_TOKEN_TITLE, _TOKEN_NOTE = 10.0, AID_MIN_TEXT


def _token_box(tpl: Template) -> tuple[float, float, float, float]:
    """The safe zone, a hair inside: where a token card's header and cut grid go."""
    sx, sy, sw, sh = tpl.safe_rect()
    pad = 0.3 * mm
    return sx + pad, sy + pad, sw - 2 * pad, sh - 2 * pad


def _header_height() -> float:
    return _TOKEN_TITLE * 1.1 + _TOKEN_NOTE * 1.6


def token_grid(tpl: Template, cell: float) -> Grid:
    """The cut grid of a counter card: as many ``cell`` squares as fit under the header, centred on the
    card's vertical axis, so that the back, which reads the columns mirrored, lands on the front."""
    x, y, w, h = _token_box(tpl)
    room = h - _header_height()
    cols, rows = int(w // cell), int(room // cell)
    return Grid(tpl.full_w / 2 - cols * cell / 2, y + room - (room - rows * cell) / 2, cols, rows, cell)


def markers_box(tpl: Template, a: AidSet) -> TextBox:
    """The markers card's note: at the foot of the card, 16 mm at most."""
    x, y, w, h = _token_box(tpl)
    return TextBox("the track markers card's note", (Para("note", a.word("markers_note"), key="markers_note"),),
                   w, 16 * mm, 8.0)


def _markers_note(tpl: Template, a: AidSet) -> tuple[list[Para], float, float]:
    """The markers card's note, its size and height (it sits at the foot of the card)."""
    box = markers_box(tpl, a)
    size, _ = box.fit(tpl)
    return list(box.paras), size, box.text_height(tpl, size)


def _marker_grid(tpl: Template, a: AidSet) -> Grid:
    """One row per player when a player's markers fit a row (health, then each faction), centred in the
    room between the header and the note."""
    x, y, w, h = _token_box(tpl)
    _, _, note_h = _markers_note(tpl, a)
    room = h - _header_height() - note_h
    cell = shop_marker_cell(tpl, a)
    cols = max(1, min(int(w // cell), 1 + len(a.factions)))
    rows = min(int(room // cell), -(-len(token_plan(a)) // cols))
    return Grid(tpl.full_w / 2 - cols * cell / 2, y + note_h + room / 2 + rows * cell / 2, cols, rows, cell)


#: A marker covers this much of the smallest side of the track cell it sits on.
MARKER_COVER = 0.9


def tracker_cell(tpl: Template, a: AidSet) -> float:
    """The smallest side of a track cell on the health and allegiance tracker cards, read from the cells
    as drawn (each number is drawn inside ``Painter.holds`` its cell)."""

    register_fonts()
    p = Painter(Canvas(io.BytesIO(), pagesize=(tpl.full_w, tpl.full_h)))
    for kind in ("health", "allegiance"):
        draw_aid(p, tpl, Aid(kind, a))
    cells = [m.within[1] for m in p.marks if m.within and m.label.startswith("track ")]
    return min(min(x1 - x0, y1 - y0) for x0, y0, x1, y1 in cells)


def shop_marker_cell(tpl: Template, a: AidSet) -> float:
    """The cut cell of the print shops' track markers: a marker (``MARKER_R`` of its cell) covers
    ``MARKER_COVER`` of the tracker cards' smallest cell, never more than the mat's markers. Without a
    mat, the markers go on the tracker cards: 8.8 mm markers hid 4.7 mm allegiance cells."""
    return min(MARKER, tracker_cell(tpl, a) * MARKER_COVER / (2 * MARKER_R / MARKER))


def _token_header(p: Painter, tpl: Template, title: str, note: str) -> None:

    x, y, w, h = _token_box(tpl)
    with p.holds("the token card's header", (x, y + h - _header_height(), x + w, y + h)):
        _token_header_text(p, tpl, title, note, x, y, w, h)


def _token_header_text(p: Painter, tpl: Template, title: str, note: str, x: float, y: float, w: float,
                       h: float) -> None:
    cx, top = x + w / 2, y + h
    size, _ = fit_line(plain(title), tpl.font("title"), w, _TOKEN_TITLE, AID_MIN_TEXT)
    p.text(cx, top - size * 0.85, plain(title), tpl.font("title"), size, tpl.color("ink"), anchor="middle",
           label="aid title")
    nsize, _ = fit_line(plain(note), tpl.font("text"), w, _TOKEN_NOTE, AID_MIN_TEXT)
    p.text(cx, top - _TOKEN_TITLE * 1.1 - nsize * 1.05, plain(note), tpl.font("text"), nsize, tpl.color("muted_ink"),
           anchor="middle", label="aid note")


def _counter_card(kind: str):
    """A card of ``kind`` counters (poison | essence), the same on both sides."""
    def draw(p: Painter, tpl: Template, a: AidSet) -> list[str]:
        _card_base(p, tpl, rule=False)
        _token_header(p, tpl, a.word(kind), a.word("cut_note"))
        grid = token_grid(tpl, COUNTER)
        for i in range(grid.capacity):
            draw_counter(p, tpl, kind, *grid.centre(i), COUNTER_R)
        cut_grid(p, grid, grid.capacity)
        return [] if grid.capacity else [f"no {plain(a.word(kind))} fits the card"]
    return draw


def _markers_card(mirrored: bool):
    """Every player's track markers; the back (``mirrored``) puts each one behind itself."""
    def draw(p: Painter, tpl: Template, a: AidSet) -> list[str]:
        _card_base(p, tpl, rule=False)
        _token_header(p, tpl, a.word("markers"), a.word("cut_note"))
        note, size, note_h = _markers_note(tpl, a)
        x, y, w, h = _token_box(tpl)
        draw_paragraphs(p, tpl, note, x, y + note_h, w, size, tpl.color("muted_ink"), tpl.color("gold_dark"))
        grid = _marker_grid(tpl, a)
        markers = token_plan(a)[:grid.capacity]
        for i, marker in enumerate(markers):
            draw_marker(p, tpl, marker, *grid.centre(i, mirrored), grid.cell * MARKER_R / MARKER)
        cut_grid(p, grid, len(markers), mirrored)
        left = len(token_plan(a)) - len(markers)
        return [f"{left} of the {plain(a.word('markers'))} do not fit their card"] if left else []
    return draw


def _rite_slot(p: Painter, tpl: Template, a: AidSet) -> list[str]:
    """Where a player lays the one Rite they may take: a card-size slot, its rules under it."""
    x, y, w, h = _card_base(p, tpl)
    top = _card_title(p, tpl, a.word("rite"), x, y + h, w)
    box = rite_box(tpl, a)
    size, ok = box.fit(tpl)
    text_h = box.text_height(tpl, size)
    draw_paragraphs(p, tpl, list(box.paras), x, y + text_h, w, size, tpl.color("ink"), tpl.color("gold_dark"))
    low, high = y + text_h + 1.5 * mm, top - 1.5 * mm
    sh = high - low
    sw = min(w, sh * tpl.trim_w / tpl.trim_h)
    c = p.canvas
    p.fill(mix(tpl.color("parchment"), tpl.color("parchment_edge"), 0.35))
    p.stroke(tpl.color("gold_dark"), 0.7)
    c.setDash(3, 2)
    c.roundRect(x + (w - sw) / 2, low, sw, sh, 2 * mm, stroke=1, fill=1)
    c.setDash()
    p.record("rule", "rite slot", (x + (w - sw) / 2, low, x + (w + sw) / 2, high))
    s = min(sw, sh) * 0.6
    p.icon(icon_name("rite"), x + (w - s) / 2, low + (sh - s) / 2, s, tpl.color("gold_dark"), alpha=0.3,
           label="rite slot icon")
    return [] if ok else [f"the text of the aid `{plain(a.word('rite'))}` does not fit its card even at {size} pt"]


#: How each print-shop aid side is drawn.
SHOP_DRAW = {"rite": _rite_slot, "markers": _markers_card(False), "markers-back": _markers_card(True),
             "poison": _counter_card("poison"), "essence": _counter_card("essence")}
