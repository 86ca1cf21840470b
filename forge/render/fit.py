"""Fitting rules text into a card's text box: glue numbers, break lines for balance, size by text class.

A number never starts a line (a no-break space ties it to the word before); lines are
broken for the fewest lines, no one-word last line, then even lines (hyphenating by
language, never a keyword); every card of a type and text class prints at the class's
size and alignment (``TextClass``, decided in ``face.with_text_classes``).

The layout is pure data (``TextLayout``): the drawing code places exactly what
was measured here, and ``fitcheck.check_text_fit`` reports the cards that cannot fit at
the minimum size, so the validator and the renderer never disagree.
"""
from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from .assets import register_fonts
from .textclass import TextClass, TextStyle, class_align, class_of  # noqa: F401  (re-exported)

register_fonts()

#: Breaking spaces; U+00A0 (and U+202F, drawn as U+00A0) never break.
_BREAK = re.compile(r"[ \t\n]+")
#: French typography: no line break before these marks or after «.
_FR_NBSP_BEFORE = re.compile(r" ([:;!?»])")
_FR_NBSP_AFTER = re.compile(r"« ")
#: A number token: "2", "+2", "−1", "×3", "2.", "1,", "(2)". It never starts a line (issue 8): a no-break
#: space glues it to the word before ("Wound 2", "réduit de 1").
_NUMBER = re.compile(r"^[(«]?[+\-\u2212\u00d7x]?[0-9]+(?:[.,][0-9]+)?[.,;:!?)»]*$")
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
    para_start: bool = False  # the first line of a paragraph (a rules line or the flavour text)


@dataclass(frozen=True)
class TextLayout:
    """Lines measured at one size; ``fits`` is False when even the minimum size overflows."""

    size: float
    lines: tuple[Line, ...]
    height: float
    fits: bool
    align: str
    rule_y: float | None = None  # where the separator above the flavour text goes (from the top)


# -- turning markup into groups of atoms ------------------------------------------
def _parse_markup(line: str):
    # lazy: loads markupsafe, forge.core ... only when needed
    from ..text.cardtext import parse_markup  # the shared markup grammar (owned by forge.text.cardtext)

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
    # "3 [[black]]:", "Wound 2", "réduit de 1", "1 card" and "[[activate]] Guard" stay together:
    # a number never starts a line, nor ends one away from what it counts.
    for i, tok in enumerate(tokens):
        if tok is None and 0 < i < len(tokens) - 1:
            before, after = tokens[i - 1], tokens[i + 1]
            if before is not None and after is not None and (
                    _is_number(before) or _is_number(after)
                    or (before.kind == "icon" and before.value in LEADING_ICONS)):
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
    """"3", "+2", "2." or "1," : a count that stays with the word before it and the noun after it."""
    return atom.kind == "text" and bool(_NUMBER.match(atom.value))


def starts_with_number(atoms) -> bool:
    """Whether a line's first text (the first atom, when it is text) is a number token."""
    first = next(iter(atoms), None)
    return first is not None and first.kind == "text" and bool(_NUMBER.match(first.value.split(NBSP)[0]))


# -- measuring -----------------------------------------------------------------------
def atom_width(atom: Atom, size: float, style: TextStyle) -> float:
    if atom.kind == "icon":
        return size * style.icon_scale + size * 0.12
    return stringWidth(atom.value, atom.font, size)


def group_width(group: list[Atom], size: float, style: TextStyle) -> float:
    return sum(atom_width(a, size, style) for a in group)


@lru_cache(maxsize=4)
def _hyphenator(lang: str):
    # lazy: loads pyphen only when needed
    from .hyphen import hyphenator  # pyphen's points, its patterns parsed only as words need them

    return hyphenator({"en": "en_US", "fr": "fr_FR"}.get(lang, lang), left=3, right=3)


def _hyphenable(group, style: TextStyle) -> bool:
    """A one-word group of plain text, long enough to split; keywords are never hyphenated."""
    return (len(group) == 1 and group[0].kind == "text" and len(group[0].value) >= 5
            and group[0].font != style.keyword_font and NBSP not in group[0].value)


def hyphen_split(group: list[Atom], room: float, size: float, style: TextStyle, lang: str):
    """The longest hyphenated head of a one-word group that fits ``room``, and the rest; or None."""
    if not _hyphenable(group, style):
        return None
    atom = group[0]
    word = atom.value
    for pos in reversed(_hyphenator(lang).positions(word)):
        head = word[:pos] + "-"
        if stringWidth(head, atom.font, size) <= room:
            return [Atom("text", head, atom.font)], [Atom("text", word[pos:], atom.font)]
    return None


#: Paragraphs of more groups than this are broken greedily: no card text is near it, and a
#: flavour text of a million words (a pull request can hold one) must stay linear.
BALANCE_LIMIT = 400
#: What a hyphen costs the balanced breaker, in squared line widths: only a much better break pays it.
HYPHEN_COST = 0.09


def wrap(groups: list[list[Atom]], width: float, size: float, style: TextStyle,
         lang: str, max_lines: int | None = None) -> tuple[list[list[list[Atom]]], bool]:
    """Balanced line breaking; False when a word is wider than the line.

    Among the breaks with the fewest lines it avoids a one-word last line, then picks the one
    whose lines (the last excepted) are most even: minimum raggedness over the groups, with
    hyphenation allowed at a cost (never inside a keyword). Huge paragraphs (over
    ``BALANCE_LIMIT`` groups, which cannot fit a card anyway) are broken greedily, stopping
    after ``max_lines`` lines.
    """
    if len(groups) > BALANCE_LIMIT:
        return _greedy(groups, width, size, style, lang, max_lines)
    items = _items(groups, size, style, lang)
    n = len(items)
    widths = [it.width for it in items]
    spaces = [it.space for it in items]
    # may a line end after items[k]?
    breakable = [k == n - 1 or spaces[k + 1] > 0 or items[k].hyphen > 0 for k in range(n)]
    last_word = items[-1].word if items else 0
    room = width + 1e-6

    # best[j]: the cheapest way to set items[:j] as lines: (lines, one-word last lines, raggedness); it is set
    # only where a line may end, so a line may start after every a whose best[a] is set
    best: list[tuple | None] = [None] * (n + 1)
    back = [0] * (n + 1)
    best[0] = (0, 0, 0.0)
    for j in range(1, n + 1):
        if not breakable[j - 1]:
            continue
        hyphen = items[j - 1].hyphen if j < n else 0.0
        used = 0.0
        after = 0.0  # the space before items[a + 1], which the line holds once it starts at a
        for a in range(j - 1, -1, -1):
            used += widths[a] + after
            after = spaces[a]
            if used + hyphen > room and a < j - 1:
                break  # starting the line earlier only makes it wider
            start = best[a]
            if start is None:
                continue
            if j == n:  # the last line: its slack is free, but it never holds one word alone
                cost = (start[0] + 1, start[1] + (a > 0 and items[a].word == last_word), start[2])
            else:
                slack = max(0.0, width - used - hyphen) / width if width > 0 else 0.0
                cost = (start[0] + 1, start[1], start[2] + slack * slack + (HYPHEN_COST if hyphen else 0.0))
            if best[j] is None or cost < best[j]:
                best[j], back[j] = cost, a
    spans = []
    j = n
    while j > 0:
        spans.append((back[j], j))
        j = back[j]
    lines, ok = [], True
    for a, j in reversed(spans):
        width_used = sum(it.width for it in items[a:j]) + sum(it.space for it in items[a + 1:j])
        ok &= width_used + (items[j - 1].hyphen if j < n else 0.0) <= width + 1e-6
        lines.append(_join(items[a:j], j < n))
    if max_lines is not None:
        lines = lines[:max_lines]
    return lines, ok


@dataclass(frozen=True)
class _Item:
    """A breakable unit: a group, or a piece of a hyphenable word (``space`` 0 inside the word)."""

    atoms: tuple[Atom, ...]
    width: float
    space: float  # the space before it; 0 for the first item and for a word's later pieces
    hyphen: float  # the hyphen's width when a line may end after it inside a word, else 0
    word: int  # which group it comes from


def _items(groups, size: float, style: TextStyle, lang: str) -> list[_Item]:
    items: list[_Item] = []
    for gi, group in enumerate(groups):
        space = _space([groups[gi - 1]], size, style) if gi else 0.0
        pieces = _pieces(group, lang) if style.hyphenate and _hyphenable(group, style) else []
        if len(pieces) > 1:
            font = group[0].font
            hyphen = stringWidth("-", font, size)
            for k, piece in enumerate(pieces):
                atom = Atom("text", piece, font)
                items.append(_Item((atom,), stringWidth(piece, font, size), space if k == 0 else 0.0,
                                   hyphen if k < len(pieces) - 1 else 0.0, gi))
        else:
            items.append(_Item(tuple(group), group_width(group, size, style), space, 0.0, gi))
    return items


def _pieces(group, lang: str) -> tuple[str, ...]:
    return _word_pieces(group[0].value, lang)


@lru_cache(maxsize=8192)
def _word_pieces(word: str, lang: str) -> tuple[str, ...]:
    """A word cut at every place the language's hyphenation allows."""
    cuts = [0] + list(_hyphenator(lang).positions(word)) + [len(word)]
    return tuple(word[a:b] for a, b in zip(cuts, cuts[1:]) if b > a)


def _join(items: list[_Item], hyphenated: bool) -> list[list[Atom]]:
    """A line's items as groups; the pieces of a split word joined back, with a hyphen when it breaks."""
    groups: list[list[Atom]] = []
    for k, it in enumerate(items):
        if k and not it.space:
            head = groups[-1][-1]
            groups[-1][-1] = Atom("text", head.value + it.atoms[0].value, head.font)
        else:
            groups.append(list(it.atoms))
    if hyphenated and items[-1].hyphen:
        tail = groups[-1][-1]
        groups[-1][-1] = Atom("text", tail.value + "-", tail.font)
    return groups


def _greedy(groups: list[list[Atom]], width: float, size: float, style: TextStyle,
            lang: str, max_lines: int | None = None) -> tuple[list[list[list[Atom]]], bool]:
    """Greedy line breaking with hyphenation; linear in the number of words, stops after ``max_lines``."""
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


def line_words(line: "Line") -> list[str]:
    """The words (unbreakable groups) of a laid-out line, as text, icons as ``[[name]]``: where the
    line could have broken is where two placed atoms do not touch."""
    words: list[str] = []
    end = None
    for item in line.items:
        piece = item.atom.value if item.atom.kind == "text" else f"[[{item.atom.value}]]"
        if end is not None and abs(item.x - end) < 0.01:
            words[-1] += piece
        else:
            words.append(piece)
        end = item.x + item.width
    return words


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
              lang: str, limit: float | None = None, align: str | None = None, place: bool = True) -> TextLayout:
    """Lay out rules paragraphs (and the flavour text under a rule) at one font size.

    With ``limit`` (a height) it stops once the text is taller than that: the layout does not fit,
    and laying out the rest of a huge text would only cost time. ``align`` is the card's text
    class alignment (``text_class``); without it the style's own. ``place=False`` only measures:
    the same height, ``fits`` and ``rule_y``, without placing the atoms of each line (``lines`` is
    empty), for the text classes, which ask only whether and how tall a text fits.
    """
    lines: list[Line] = []
    count = 0  # lines laid out (``lines`` holds them when placed)
    y = 0.0
    ok = True
    for pi, para in enumerate(paragraphs):
        if limit is not None and y > limit:
            break  # already too tall: the rest cannot make it fit
        groups = _groups(para, lang, style.text_font, style.keyword_font)
        psize = size * style.icon_line_scale if all(a.kind == "icon" for g in groups for a in g) else size
        wrapped, fine = wrap(groups, width, psize, style, lang, _lines_left(limit, y, psize * style.leading))
        ok &= fine
        if pi:
            y += size * style.paragraph_gap
        lh = psize * style.leading
        for li, line_groups in enumerate(wrapped):
            if place:
                items, w = _place(line_groups, psize, style)
                lines.append(Line(items, w, psize, y + (lh - psize) / 2 + 0.8 * psize, para_start=li == 0))
            y += lh
        count += len(wrapped)
    rule_y = None
    if flavor and not (limit is not None and y > limit):
        fsize = size * style.flavor_scale
        if count:
            y += size * style.flavor_gap
            rule_y = y
            y += size * style.flavor_gap
        wrapped, fine = wrap(_groups(flavor, lang, style.flavor_font, style.flavor_font), width, fsize, style,
                             lang, _lines_left(limit, y, fsize * style.leading))
        ok &= fine
        lh = fsize * style.leading
        for li, groups in enumerate(wrapped):
            if place:
                items, w = _place(groups, fsize, style)
                lines.append(Line(items, w, fsize, y + (lh - fsize) / 2 + 0.8 * fsize, flavor=True,
                                  para_start=li == 0))
            y += lh
    align = align or style.align
    if align not in ("left", "center"):
        align = "left"
    return TextLayout(size, tuple(lines), y, ok, align, rule_y)


def _lines_left(limit: float | None, y: float, line_height: float) -> int | None:
    """How many more lines take the text past ``limit`` (one more than fit), or None without a limit."""
    if limit is None:
        return None
    return max(0, math.ceil((limit - y) / line_height) + 1) if line_height > 0 else None


#: Hyphenating is only worth it when it lets the text be this many points larger.
HYPHENATION_GAIN = 1.0


def _fits(layout: TextLayout, height: float) -> bool:
    return layout.fits and layout.height <= height + 1e-6


def layout_fixed(paragraphs, flavor, width, height, size: float, style: TextStyle, lang,
                 align: str | None = None, place: bool = True) -> TextLayout:
    """The text at ``size`` (its class's size): unhyphenated when that fits, else hyphenated.

    When neither fits, the layout is cut a few box heights down (OVERFLOW_DRAWN) with fits=False.
    ``place=False`` only measures (see ``layout_at``).
    """
    chosen = layout_at(paragraphs, flavor, width, size, replace(style, hyphenate=False), lang, height, align, place)
    if not _fits(chosen, height) and style.hyphenate:
        chosen = layout_at(paragraphs, flavor, width, size, style, lang, height, align, place)
    if _fits(chosen, height):
        return chosen  # nothing was cut: the limit only stops a text that is already too tall
    layout = layout_at(paragraphs, flavor, width, size, style, lang, OVERFLOW_DRAWN * height, align, place)
    return replace(layout, fits=False)


def _largest_fit(paragraphs, flavor, width, height, style: TextStyle, lang) -> TextLayout | None:
    """The largest size of the grid max_size, max_size - step, … min_size at which the text fits (measured,
    not placed: ``best_size`` wants only its size).

    A smaller size never needs more height, so the grid is searched by halves (a few layouts, not
    one per step).
    """
    steps = max(0, math.floor((style.max_size - style.min_size) / style.step + 1e-9))
    sizes = [round(style.max_size - k * style.step, 4) for k in range(steps + 1)]
    found = None
    lo, hi = 0, len(sizes) - 1  # invariant: every size before lo does not fit
    while lo <= hi:
        mid = (lo + hi) // 2
        layout = layout_at(paragraphs, flavor, width, sizes[mid], style, lang, limit=height, place=False)
        if _fits(layout, height):
            found, hi = layout, mid - 1
        else:
            lo = mid + 1
    return found


@lru_cache(maxsize=4096)
def best_size(paragraphs: tuple[str, ...], flavor: str, width: float, height: float, style: TextStyle,
              lang: str) -> float | None:
    """The largest size from max_size down to min_size at which the text fits, or None.

    Words are only hyphenated when that buys at least HYPHENATION_GAIN points of size.
    """
    whole = _largest_fit(list(paragraphs), flavor, width, height, replace(style, hyphenate=False), lang)
    if style.hyphenate and (whole is None or whole.size + HYPHENATION_GAIN <= style.max_size + 1e-9):
        floor = style.min_size if whole is None else whole.size + HYPHENATION_GAIN
        split = _largest_fit(list(paragraphs), flavor, width, height, replace(style, min_size=floor), lang)
        if split:
            return split.size
    return whole.size if whole else None


#: A text that does not fit is drawn (and reported) up to this many times its box's height, not further.
OVERFLOW_DRAWN = 3


def fit_text(paragraphs: list[str], flavor: str, width: float, height: float, style: TextStyle,
             lang: str, align: str | None = None) -> TextLayout:
    """The text at the largest size from max_size down to min_size at which it fits; fits=False otherwise.

    A card's face uses its text class's size instead (``layout_fixed``); this is for one text alone.
    """
    size = best_size(tuple(paragraphs), flavor, width, height, style, lang)
    if size is None:
        layout = layout_at(paragraphs, flavor, width, style.min_size, style, lang, OVERFLOW_DRAWN * height, align)
        return replace(layout, fits=False)
    return layout_fixed(paragraphs, flavor, width, height, size, style, lang, align)


# -- text classes (``forge.render.textclass``): how full a box is -----------------------
def text_fill(paragraphs, flavor, width, height, style: TextStyle, lang) -> float:
    """How full the text box is with the text at the type's max_size (1.0: exactly full)."""
    layout = _fill_layout(tuple(paragraphs), flavor, width, style, lang)
    return layout / height if height > 0 else math.inf


@lru_cache(maxsize=4096)
def _fill_layout(paragraphs: tuple[str, ...], flavor: str, width: float, style: TextStyle, lang: str) -> float:
    plain = replace(style, hyphenate=False)
    layout = layout_at(list(paragraphs), flavor, width, style.max_size, plain, lang, place=False)
    return layout.height if layout.fits else math.inf  # a word wider than the box: it must shrink


def fit_line(text: str, font: str, width: float, max_size: float, min_size: float,
             step: float = 0.25) -> tuple[float, bool]:
    """The size at which one line (a name, a type line) fits ``width``; False if not even at min."""
    size = max_size
    while size >= min_size - 1e-9:
        if stringWidth(text, font, size) <= width:
            return size, True
        size = round(size - step, 4)
    return min_size, False
