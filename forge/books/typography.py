"""Typography of the books' HTML, by language, applied to text only (never to tags or styles).

Both languages get curly apostrophes and quotes, an ellipsis character and a
number glued to the word after it. French gets its spacing: a no-break space
before ``: ; ! ?`` and inside ``« »`` (Lato has no narrow no-break space, so the
full no-break space U+00A0 is used, as on the cards).
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


def _text(text: str, lang: str, state: list[bool]) -> str:
    text = _APOSTROPHE.sub("\u2019", text).replace("...", "\u2026")
    if lang == "fr":
        text = _quotes(text, "«" + NBSP, NBSP + "»", state)
        text = _FR_BEFORE.sub(NBSP + r"\1", text)
        text = _FR_GLUED.sub(NBSP + r"\1", text)
        text = _FR_AFTER.sub("«" + NBSP, text)
        text = _FR_CLOSE_GLUED.sub(NBSP + "»", text)
    else:
        text = _quotes(text, "\u201c", "\u201d", state)
    return _NUMBER_WORD.sub(r"\1" + NBSP, text)


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


def typeset(markup: str, lang: str) -> str:
    """The HTML with its text typeset for ``lang``; tags, styles and scripts are left alone."""
    markup = _unescape_quotes(markup)
    parts = _TAG.split(markup)
    out = []
    raw_depth = 0
    state = [False]
    last = " "  # the last character of text seen, to space punctuation that follows a tag
    for part in parts:
        if part.startswith("&"):
            out.append(part)
        elif part.startswith("<"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", part)
            if name and name.group(1).lower() in _RAW_ELEMENTS:
                raw_depth += -1 if part.startswith("</") else 1
            out.append(part)
        elif raw_depth > 0 or not part:
            out.append(part)
        else:
            text = _text(part, lang, state)
            if lang == "fr" and text[0] in ":;!?»" and not last.isspace() and last != NBSP:
                text = NBSP + text
            out.append(text)
            last = text[-1]
    return glue_inline("".join(out))
