"""Typography of the books' HTML, by language, applied to text only (never to tags or styles).

Both languages get curly apostrophes and quotes, an ellipsis character and a
number glued to the word after it. French gets its spacing: a no-break space
before ``: ; ! ?`` and inside ``« »`` (Lato has no narrow no-break space, so the
full no-break space U+00A0 is used, as on the cards). Text inside an element whose ``lang``
differs (an English gloss in the French reference) is set by its own language's rules.

Two line-breaking rules follow the typesetting: a paragraph (``p``, ``li``, ``td``) never ends on a
one-word line nor on the fragment of a hyphenated word (its last two words are one unbreakable
unit, which also keeps the last word whole), and a quoted example holding an icon (“5 [icon]:
Poison 1”) is never broken across lines.
"""
from __future__ import annotations

import re

NBSP = "\u00a0"
_TAG = re.compile(r"(<[^>]*>|&#?\w+;)")  # tags and entities are copied as they are
#: Entities that escape the apostrophe and the double quote (Jinja's autoescape): typeset as characters.
_QUOTE_ENTITIES = re.compile(r"&#(?:39|x27|34|x22);|&quot;")
_ENTITY_CHAR = {"&#39;": "'", "&#x27;": "'", "&#34;": '"', "&#x22;": '"', "&quot;": '"'}
_RAW_ELEMENTS = ("style", "script")

_APOSTROPHE = re.compile(r"(?<=\w)'|'(?=\w)")
_NUMBER_WORD = re.compile(r"(?<![\w.,])(\d+|×) (?=[\w×(\[])")
_FR_BEFORE = re.compile(r"[ \t\n\u00a0]+([:;!?»])")
_FR_GLUED = re.compile(r"(?<=[^\W\d_])([:;!?])")
_FR_AFTER = re.compile(r"«[ \t\n\u00a0]*")
_FR_CLOSE_GLUED = re.compile(r"(?<=[^\s\u00a0])»")


def _quotes(text: str, opening: str, closing: str, state: list[bool]) -> str:
    """Straight double quotes to curly ones; ``state[0]`` says whether a quote is open."""
    out = []
    for ch in text:
        if ch == '"':
            out.append(closing if state[0] else opening)
            state[0] = not state[0]
        else:
            out.append(ch)
    return "".join(out)


_FR_PUNCT = frozenset(":;!?»")
_DIGITS = frozenset("0123456789×")


def _text(text: str, lang: str, state: list[bool]) -> str:
    # Each rule runs only where its character occurs: a book has ~9,000 runs of text, most of them bare
    # words, and a regex call costs more than the test for its character.
    if "'" in text:
        text = _APOSTROPHE.sub("\u2019", text)
    text = text.replace("...", "\u2026")
    if lang == "fr":
        if '"' in text:
            text = _quotes(text, "«" + NBSP, NBSP + "»", state)
        if not _FR_PUNCT.isdisjoint(text):
            text = _FR_BEFORE.sub(NBSP + r"\1", text)
            text = _FR_GLUED.sub(NBSP + r"\1", text)
        if "«" in text:
            text = _FR_AFTER.sub("«" + NBSP, text)
        if "»" in text:
            text = _FR_CLOSE_GLUED.sub(NBSP + "»", text)
    elif '"' in text:
        text = _quotes(text, "\u201c", "\u201d", state)
    return _NUMBER_WORD.sub(r"\1" + NBSP, text) if not _DIGITS.isdisjoint(text) else text


_GLUED_INLINE = re.compile(
    r"([^\s<>\u00a0]*\u00a0)?"                                        # a word glued before
    r"(<(span|b|strong|em|i|a)\b[^>]*>[^<]*</\3>|<img\b[^>]*>)"        # a simple inline element
    r"(\u00a0[^\s<>\u00a0]*)?")                                       # a word glued after


def glue_inline(markup: str) -> str:
    """Wrap "word + no-break space + inline element" units in a no-wrap span.

    WeasyPrint cannot break a line inside text that ends (or starts) glued to an
    inline element, so it breaks much earlier and the justified line gapes; a
    no-wrap span makes the unit explicit and the rest of the line breaks normally.
    """
    def wrap(m: re.Match) -> str:
        if not m.group(1) and not m.group(4):
            return m.group(0)
        return f'<span class="nw">{m.group(0)}</span>'

    return _GLUED_INLINE.sub(wrap, markup)


def _unescape_quotes(markup: str) -> str:
    """Quote and apostrophe entities between tags become characters (they need no escaping in text)."""
    parts = re.split(r"(<[^>]*>)", markup)
    return "".join(p if p.startswith("<") else _QUOTE_ENTITIES.sub(lambda m: _ENTITY_CHAR[m.group(0)], p)
                   for p in parts)


_LANG_ATTR = re.compile(r"""\slang\s*=\s*["']?([A-Za-z]{2,3})""")
_VOID = frozenset({"img", "br", "hr", "wbr", "input", "meta", "link", "col", "source", "area", "base", "embed", "track"})


class _Langs:
    """The language of the text being read: the book's, or that of an element with its own ``lang``."""

    def __init__(self, lang: str):
        self.stack: list[list] = [[None, lang, 0]]  # [element name, language, open elements of that name]

    @property
    def lang(self) -> str:
        return self.stack[-1][1]

    def tag(self, tag: str) -> None:
        m = re.match(r"<(/?)\s*([a-zA-Z][a-zA-Z0-9]*)", tag)
        if not m:
            return
        closing, name = m.group(1) == "/", m.group(2).lower()
        top = self.stack[-1]
        if closing:
            if name == top[0]:
                top[2] -= 1
                if top[2] == 0:
                    self.stack.pop()
            return
        if name in _VOID or tag.rstrip().endswith("/>"):
            return
        if name == top[0]:
            top[2] += 1
        lang = _LANG_ATTR.search(tag)
        if lang and lang.group(1).lower() != self.lang and name != top[0]:
            self.stack.append([name, lang.group(1).lower(), 1])


def typeset(markup: str, lang: str) -> str:
    """The HTML with its text typeset for ``lang`` (or for the ``lang`` of the element holding it);
    tags, styles and scripts are left alone."""
    markup = _unescape_quotes(markup)
    parts = _TAG.split(markup)
    out = []
    raw_depth = 0
    state = [False]
    langs = _Langs(lang)
    last = " "  # the last character of text seen, to space punctuation that follows a tag
    for part in parts:
        if part.startswith("&"):
            out.append(part)
        elif part.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", part)
            if name and name.group(1).lower() in _RAW_ELEMENTS:
                raw_depth += -1 if part.startswith("</") else 1
            elif raw_depth == 0:
                langs.tag(part)
            out.append(part)
        elif raw_depth > 0 or not part:
            out.append(part)
        else:
            here = langs.lang
            text = _text(part, here, state)
            if here == "fr" and text[0] in ":;!?»" and not last.isspace() and last != NBSP:
                text = NBSP + text
            out.append(text)
            last = text[-1]
    return bind_last_words(bind_punctuation(bind_quoted_icons(glue_inline("".join(out)))))


_BUTTON_PUNCT = re.compile(r"(?<!<span class=\"nw\">)"
                           r"(<span class=\"card\"><button\b[^>]*>[^<]*</button></span>|<button\b[^>]*>[^<]*</button>)"
                           r"(\u00a0?[.,;:!?)\]»”…]+)")


def bind_punctuation(markup: str) -> str:
    """A card's button (the web edition) and the punctuation after it in a no-wrap span: a browser
    may break a line after a button, and the next line would start with the button's full stop."""
    return _BUTTON_PUNCT.sub(r'<span class="nw">\1\2</span>', markup) if "<button" in markup else markup


#: The most characters of text two last words may hold to be bound (past it, the last word alone).
_BOUND_MOST = 32
#: Where a paragraph ends: a block's end tag, or a span set as a block (a card's line, a table's second line).
_BLOCK_END = re.compile(r"</(?:p|li|td|div)>|<span class=\"(?:line|sub|starters|per-faction)\b")
#: Inline elements a paragraph's text may end inside: the last words are bound inside them.
_CLOSING_INLINE = re.compile(r"</(?:span|em|b|strong|i|a)>")
_SPACES = " \t\n\r"
_OPEN = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")


def _balanced(segment: str) -> bool:
    """Whether every element opened in ``segment`` is closed in it and nothing else is closed."""
    stack = []
    for tag in re.findall(r"<[^>]*>", segment):
        m = re.match(r"<(/?)\s*([a-zA-Z][a-zA-Z0-9]*)", tag)
        if not m:
            return False
        name = m.group(2).lower()
        if m.group(1):
            if not stack or stack.pop() != name:
                return False
        elif name not in _VOID and not tag.endswith("/>"):
            stack.append(name)
    return not stack


#: Tags a paragraph's last words never reach back past: blocks, and the spans set as blocks (a card's lines).
_BLOCK_TAG = re.compile(r"</?(?:p|li|ul|ol|div|br|table|td|th|tr|section|h\d)\b|<span class=\"(?:line|sub|cardtext)\b")


def _word_starts(markup: str, end: int, stop: int) -> list[int]:
    """Where the last words before ``end`` start (the last first), reading back no further than ``stop``
    nor past a block's tag; a space is one of ``_SPACES`` in text (a no-break space joins)."""
    starts, i, in_word = [], end, False
    while i > stop and len(starts) < 2:
        ch = markup[i - 1]
        if ch == ">":
            open_at = markup.rfind("<", stop, i)
            if open_at < 0 or _BLOCK_TAG.match(markup, open_at, i):
                break
            i = open_at
            continue
        if ch in _SPACES:
            if in_word:
                starts.append(i)
                in_word = False
        elif ch != "<":
            in_word = True
        i -= 1
    return starts


def _text_end(markup: str, stop: int, end: int) -> int:
    """Where a paragraph's text ends before ``end``: back past spaces and the inline elements' end tags
    (read backwards from ``end``: a regex anchored there would be tried at every place of the paragraph)."""
    i = end
    while i > stop:
        if markup[i - 1].isspace():
            i -= 1
            continue
        if markup[i - 1] == ">":
            at = markup.rfind("<", stop, i)
            if at >= 0 and _CLOSING_INLINE.fullmatch(markup, at, i):
                i = at
                continue
        break
    return i


def bind_last_words(markup: str) -> str:
    """Each paragraph's, list item's and table cell's last two words in a no-wrap span: no one-word
    last line, and the last word is never hyphenated (WeasyPrint has no ``hyphenate-limit-last``)."""
    out, pos = [], 0
    for m in _BLOCK_END.finditer(markup):
        end = _text_end(markup, pos, m.start())
        bound = markup.rfind('<span class="nw">', pos, end)
        if bound >= 0 and markup.count("<span", bound, end) > markup.count("</span>", bound, end):
            continue  # the last words are in a no-wrap span already
        starts = _word_starts(markup, end, pos)
        for start in starts[::-1] if len(starts) == 2 else ():
            segment = markup[start:end]
            text = re.sub(r"<[^>]*>", "", segment)
            if (not _balanced(segment) or len(text) > _BOUND_MOST
                    or not re.search(r"[^\W\d_]", text) or segment.startswith('<span class="nw">')):
                continue
            out.append(markup[pos:start] + f'<span class="nw">{segment}</span>')
            pos = end
            break
    out.append(markup[pos:])
    return "".join(out)


_QUOTED = re.compile(r"(?<!<span class=\"nw\">)(?:“|«\u00a0)(?:[^“”«»<>]|<[^<>]*>){1,160}?(?:”|\u00a0»)")


def bind_quoted_icons(markup: str) -> str:
    """A short quotation holding an icon (a card's line quoted as an example) in a no-wrap span."""
    def wrap(m: re.Match) -> str:
        quoted = m.group(0)
        if "<img" not in quoted or not _balanced(quoted) or len(re.sub(r"<[^>]*>", "", quoted)) > 40:
            return quoted
        return f'<span class="nw">{quoted}</span>'

    return _QUOTED.sub(wrap, markup)
