"""Fitting rules text into a card's text box: wrap, hyphenate by language, shrink within limits.

The layout is pure data (``TextLayout``): the drawing code places exactly what
was measured here, and ``check_text_fit`` reports the cards that cannot fit at
the minimum size, so the validator and the renderer never disagree.
"""
from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..findings import Finding
from ..model import CardDatabase, Position
from .assets import register_fonts

register_fonts()

#: Breaking spaces; U+00A0 (and U+202F, drawn as U+00A0) never break.
_BREAK = re.compile(r"[ \t\n]+")
#: French typography: no line break before these marks or after «.
_FR_NBSP_BEFORE = re.compile(r" ([:;!?»])")
_FR_NBSP_AFTER = re.compile(r"« ")
_NUMBER = re.compile(r"^[0-9]+[.,;:]?$")
NBSP = "\u00a0"
#: Icons that head what follows them ("⟳ Guard", "✝ Demise: …") and never end a line.
LEADING_ICONS = ("activate", "demise", "trap")


@dataclass(frozen=True)
class Atom:
    """The smallest drawn piece: ``text`` in a font, or an ``icon`` by markup name."""

    kind: str  # "text" | "icon"
    value: str
    font: str = ""


@dataclass(frozen=True)
class Placed:
    """An atom placed on a line: x from the line's start, width at the line's size."""

    atom: Atom
    x: float
    width: float


@dataclass(frozen=True)
class Line:
    items: tuple[Placed, ...]
    width: float
    size: float
    baseline: float  # distance from the top of the text block down to the baseline
    flavor: bool = False


@dataclass(frozen=True)
class TextLayout:
    """Lines measured at one size; ``fits`` is False when even the minimum size overflows."""

    size: float
    lines: tuple[Line, ...]
    height: float
    fits: bool
    align: str
    rule_y: float | None = None  # where the separator above the flavour text goes (from the top)


@dataclass(frozen=True)
class TextStyle:
    """Fonts and spacing of a text box, from the template's ``text:`` settings."""

    text_font: str
    keyword_font: str
    flavor_font: str
    min_size: float
    max_size: float
    step: float
    leading: float
    paragraph_gap: float
    icon_scale: float
    flavor_scale: float
    flavor_gap: float
    align: str
    hyphenate: bool
    icon_line_scale: float = 1.0  # a line of icons only (a Soul card's essence) is drawn this much larger

    @classmethod
    def from_template(cls, tpl, card_type: str) -> "TextStyle":
        t = tpl.text_settings(card_type)
        return cls(tpl.font("text"), tpl.font("keyword"), tpl.font("flavor"),
                   float(t["min_size"]), float(t["max_size"]), float(t["step"]), float(t["leading"]),
                   float(t["paragraph_gap"]), float(t["icon_scale"]), float(t["flavor_scale"]),
                   float(t["flavor_gap"]), str(t.get("align", "auto")), bool(t.get("hyphenate", True)),
                   float(t.get("icon_line_scale", 1.0)))


# -- turning markup into groups of atoms ------------------------------------------
def _parse_markup(line: str):
    from ..text import parse_markup  # the shared markup grammar (owned by forge.text)

    return parse_markup(line)


def prepare(text: str, lang: str) -> str:
    """Typography before breaking: curly apostrophes; French keeps ':' ';' '!' '?' '»' with the word before."""
    text = text.replace("\u202f", NBSP).replace("'", "\u2019")  # typographic apostrophes
    if lang == "fr":
        text = _FR_NBSP_AFTER.sub("«" + NBSP, _FR_NBSP_BEFORE.sub(NBSP + r"\1", text))
    return text


def paragraph_groups(markup: str, lang: str, text_font: str, keyword_font: str) -> list[list[Atom]]:
    """Split one markup line into unbreakable groups (words glued to their icons and punctuation)."""
    tokens: list[Atom | None] = []  # None marks a breaking space
    for span in _parse_markup(markup):
        if span.kind == "icon":
            tokens.append(Atom("icon", span.value))
            continue
        font = keyword_font if span.kind == "keyword" else text_font
        for i, piece in enumerate(_BREAK.split(prepare(span.value, lang))):
            if i:
                tokens.append(None)
            if piece:
                tokens.append(Atom("text", piece, font))
    # "3 [[black]]:", "Wound 2", "1 card" and "[[activate]] Guard" stay together.
    for i, tok in enumerate(tokens):
        if tok is None and 0 < i < len(tokens) - 1:
            before, after = tokens[i - 1], tokens[i + 1]
            if before is not None and after is not None and (
                    (_is_number(before) and after.kind in ("icon", "text"))
                    or (before.kind == "icon" and before.value in LEADING_ICONS)
                    or (before.font == keyword_font and _is_number(after))):
                tokens[i] = Atom("text", NBSP, before.font or after.font or text_font)
    groups: list[list[Atom]] = [[]]
    for tok in tokens:
        if tok is None:
            if groups[-1]:
                groups.append([])
        else:
            groups[-1].append(tok)
    return [g for g in groups if g]


@lru_cache(maxsize=16)
def _groups(markup: str, lang: str, text_font: str, keyword_font: str) -> tuple[tuple[Atom, ...], ...]:
    """``paragraph_groups``, kept for the sizes the fitter tries (the groups do not depend on the size)."""
    return tuple(tuple(g) for g in paragraph_groups(markup, lang, text_font, keyword_font))


def _is_number(atom: Atom) -> bool:
    """"3", "2." or "1," : a count that stays with its keyword and its noun."""
    return atom.kind == "text" and bool(_NUMBER.match(atom.value))


# -- measuring -----------------------------------------------------------------------
def atom_width(atom: Atom, size: float, style: TextStyle) -> float:
    if atom.kind == "icon":
        return size * style.icon_scale + size * 0.12
    return stringWidth(atom.value, atom.font, size)


def group_width(group: list[Atom], size: float, style: TextStyle) -> float:
    return sum(atom_width(a, size, style) for a in group)


@lru_cache(maxsize=4)
def _hyphenator(lang: str):
    import pyphen

    return pyphen.Pyphen(lang={"en": "en_US", "fr": "fr_FR"}.get(lang, lang), left=3, right=3)


def hyphen_split(group: list[Atom], room: float, size: float, style: TextStyle, lang: str):
    """The longest hyphenated head of a one-word group that fits ``room``, and the rest; or None."""
    if len(group) != 1 or group[0].kind != "text" or len(group[0].value) < 5:
        return None
    atom = group[0]
    word = atom.value
    for pos in reversed(_hyphenator(lang).positions(word)):
        head = word[:pos] + "-"
        if stringWidth(head, atom.font, size) <= room:
            return [Atom("text", head, atom.font)], [Atom("text", word[pos:], atom.font)]
    return None


def wrap(groups: list[list[Atom]], width: float, size: float, style: TextStyle,
         lang: str, max_lines: int | None = None) -> tuple[list[list[list[Atom]]], bool]:
    """Greedy line breaking with hyphenation; False when a word is wider than the line.

    Linear in the number of words (a pull request may hold a flavour text of a million words);
    with ``max_lines`` it stops after that many lines, since the text cannot fit anyway.
    """
    lines: list[list[list[Atom]]] = []
    current: list[list[Atom]] = []
    used = 0.0
    ok = True
    queue = deque(groups)
    while queue:
        if max_lines is not None and len(lines) >= max_lines:
            break
        group = queue.popleft()
        space = _space(current, size, style)
        gw = group_width(group, size, style)
        if used + space + gw <= width + 1e-6:
            current.append(group)
            used += space + gw
            continue
        split = hyphen_split(group, width - used - space, size, style, lang) if style.hyphenate else None
        if split:
            current.append(split[0])
            queue.appendleft(split[1])
        elif not current:
            current.append(group)  # a word wider than the line: it cannot fit at this size
            ok = False
        else:
            queue.appendleft(group)
        lines.append(current)
        current, used = [], 0.0
    if current and (max_lines is None or len(lines) < max_lines):
        lines.append(current)
    return lines, ok


def _space(current: list[list[Atom]], size: float, style: TextStyle) -> float:
    if not current:
        return 0.0
    last = current[-1][-1]
    return stringWidth(" ", last.font if last.kind == "text" else style.text_font, size)


def _place(groups: list[list[Atom]], size: float, style: TextStyle) -> tuple[tuple[Placed, ...], float]:
    placed: list[Placed] = []
    x = 0.0
    for gi, group in enumerate(groups):
        if gi:
            x += _space(groups[gi - 1:gi], size, style)  # the space after the previous group
        for atom in group:
            w = atom_width(atom, size, style)
            placed.append(Placed(atom, x, w))
            x += w
    return tuple(placed), x


# -- fitting ---------------------------------------------------------------------------
def layout_at(paragraphs: list[str], flavor: str, width: float, size: float, style: TextStyle,
              lang: str, limit: float | None = None) -> TextLayout:
    """Lay out rules paragraphs (and the flavour text under a rule) at one font size.

    With ``limit`` (a height) it stops once the text is taller than that: the layout does not fit,
    and laying out the rest of a huge text would only cost time.
    """
    lines: list[Line] = []
    y = 0.0
    ok = True
    one_liners = True
    for pi, para in enumerate(paragraphs):
        if limit is not None and y > limit:
            break  # already too tall: the rest cannot make it fit
        groups = _groups(para, lang, style.text_font, style.keyword_font)
        psize = size * style.icon_line_scale if all(a.kind == "icon" for g in groups for a in g) else size
        wrapped, fine = wrap(groups, width, psize, style, lang, _lines_left(limit, y, psize * style.leading))
        ok &= fine
        one_liners &= len(wrapped) <= 1
        if pi:
            y += size * style.paragraph_gap
        for line_groups in wrapped:
            items, w = _place(line_groups, psize, style)
            lh = psize * style.leading
            lines.append(Line(items, w, psize, y + (lh - psize) / 2 + 0.8 * psize))
            y += lh
    rule_y = None
    if flavor and not (limit is not None and y > limit):
        fsize = size * style.flavor_scale
        if lines:
            y += size * style.flavor_gap
            rule_y = y
            y += size * style.flavor_gap
        wrapped, fine = wrap(_groups(flavor, lang, style.flavor_font, style.flavor_font), width, fsize, style,
                             lang, _lines_left(limit, y, fsize * style.leading))
        ok &= fine
        for groups in wrapped:
            items, w = _place(groups, fsize, style)
            lh = fsize * style.leading
            lines.append(Line(items, w, fsize, y + (lh - fsize) / 2 + 0.8 * fsize, flavor=True))
            y += lh
    align = style.align
    if align == "auto":
        align = "center" if one_liners else "left"
    return TextLayout(size, tuple(lines), y, ok, align, rule_y)


def _lines_left(limit: float | None, y: float, line_height: float) -> int | None:
    """How many more lines take the text past ``limit`` (one more than fit), or None without a limit."""
    if limit is None:
        return None
    return max(0, math.ceil((limit - y) / line_height) + 1) if line_height > 0 else None


#: Hyphenating is only worth it when it lets the text be this many points larger.
HYPHENATION_GAIN = 1.0


def _largest_fit(paragraphs, flavor, width, height, style: TextStyle, lang) -> TextLayout | None:
    size = style.max_size
    while size >= style.min_size - 1e-9:
        layout = layout_at(paragraphs, flavor, width, size, style, lang, limit=height)
        if layout.fits and layout.height <= height + 1e-6:
            return layout
        size = round(size - style.step, 4)
    return None


#: A text that does not fit is drawn (and reported) up to this many times its box's height, not further.
OVERFLOW_DRAWN = 3


def fit_text(paragraphs: list[str], flavor: str, width: float, height: float, style: TextStyle,
             lang: str) -> TextLayout:
    """The largest size from max_size down to min_size at which the text fits; fits=False otherwise.

    Words are only hyphenated when that buys at least HYPHENATION_GAIN points of size.
    """
    plain = replace(style, hyphenate=False)
    whole = _largest_fit(paragraphs, flavor, width, height, plain, lang)
    if style.hyphenate:
        split = _largest_fit(paragraphs, flavor, width, height, style, lang)
        if split and (whole is None or split.size - whole.size >= HYPHENATION_GAIN):
            return split
    if whole:
        return whole
    layout = layout_at(paragraphs, flavor, width, style.min_size, style, lang, limit=OVERFLOW_DRAWN * height)
    return TextLayout(layout.size, layout.lines, layout.height, False, layout.align, layout.rule_y)


def fit_line(text: str, font: str, width: float, max_size: float, min_size: float,
             step: float = 0.25) -> tuple[float, bool]:
    """The size at which one line (a name, a type line) fits ``width``; False if not even at min."""
    size = max_size
    while size >= min_size - 1e-9:
        if stringWidth(text, font, size) <= width:
            return size, True
        size = round(size - step, 4)
    return min_size, False


# -- the check the validator runs --------------------------------------------------
def check_text_fit(db: CardDatabase, phrasebooks: dict, root: Path) -> list[Finding]:
    """Every card and language whose name or rules text cannot fit at the minimum size."""
    from .face import build_face, measure_face
    from .template import TEMPLATE_FILE, TemplateError, load_template

    try:
        tpl = load_template(Path(root))
    except TemplateError as exc:
        return [Finding(Position(TEMPLATE_FILE.as_posix()), "template", str(exc),
                        "fix the card template, or delete it to use forge's own")]
    findings: list[Finding] = []
    for card in db.cards:
        for lang in sorted(phrasebooks):
            try:
                face = build_face(card, db, phrasebooks[lang], lang, Path(root))
            except Exception as exc:  # a phrase problem is the text compiler's finding, not ours
                findings.append(Finding(card.position, "text-overflow",
                                        f"{lang}: the text of `{card.id}` could not be laid out ({exc})",
                                        severity="warning"))
                continue
            for problem in measure_face(face, tpl).problems:
                findings.append(Finding(card.position, "text-overflow", f"{lang}: {problem}",
                                        "shorten the text, or use a `text:` override with a terser wording"))
    return findings
