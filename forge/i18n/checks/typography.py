"""Whitespace and punctuation: spaces, sentence ends, and French typography, with their corrections.

Every string: no leading, trailing or double spaces, and the same sentence-ending mark
in both languages. A code span (`` `…` ``, ``forge.text.verbatim``) is verbatim: its spaces and
marks are not read (an indented line of a plain-text file starts with one: `` `   `Linux``). French strings of the YAML files (locales, cards, factions, book
labels): a no-break space before ``: ; ! ?`` and inside « », and ’ for the apostrophe.
The books' prose is typeset by forge (``books/typography.py`` adds the French spacing
and curls the apostrophes), so there only what a typesetter cannot know is checked.
English takes no space before a colon.

A problem in a string written verbatim in its file comes with a ``Fix`` (a character
span and its replacement) that ``--fix`` applies without touching anything else.
"""
from __future__ import annotations

import re

from ...core.findings import Finding
from ...text.verbatim import SPAN
from ..inventory import Entry, Inventory, Pair
from . import Fix, at, both, label, masked

NBSP = "\u00a0"
NBSPS = "\u00a0\u202f"
_MARKS = ":;!?"
_DOUBLE = re.compile(r"(?<=\S)  +(?=\S)")
_EDGE = " \t" + "\u00a0\u202f"  # spaces at a string's ends, no-break ones included
#: A space before a full stop or a comma (never before a decimal or an ellipsis written as dots).
_BEFORE_STOP = re.compile(r"(?<=\S)[ \u00a0\u202f]+(?=[.,](?![\d.]))")
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
_END = re.compile(r"([.!?:;…])[\s\u00a0\u202f»”)*]*$")


def check(inv: Inventory) -> tuple[list[Finding], list[Fix]]:
    found: list[Finding] = []
    fixes: list[Fix] = []
    for pair in inv.pairs:
        for entry in (pair.en, pair.fr):
            if entry is None:
                continue
            for index, rule, message, hint, fix in problems(entry, pair):
                found.append(at(entry, rule, f"{label(pair)}: {message}", hint, index=index))
                if fix is not None and entry.offset is not None:
                    start, end, text = fix
                    fixes.append(Fix(entry.file, entry.offset + start, entry.offset + end, text))
    for pair in both(inv.pairs):
        found += _sentence_end(pair)
    return found, fixes


def problems(entry: Entry, pair: Pair) -> list[tuple]:
    """(offset, rule, message, hint, (start, end, replacement) or None) for one string."""
    out = _spaces(entry.text, pair.kind.startswith("prose"))
    if entry.lang == "fr" and not pair.kind.startswith("prose"):
        out += french(entry.text)
    elif entry.lang == "fr":
        out += _guillemets(masked(entry.text, "x"))  # the typesetter spaces them, but cannot close one
    elif entry.lang == "en":
        out += english(entry.text)
    return out


def _spaces(text: str, prose: bool) -> list[tuple]:
    out = []
    if text != text.lstrip(_EDGE):
        n = len(text) - len(text.lstrip(_EDGE))
        out.append((0, "whitespace", "leading space", "remove the space at the start", (0, n, "")))
    if text != text.rstrip(_EDGE):
        n = len(text.rstrip(_EDGE))
        out.append((n, "whitespace", "trailing space", "remove the space at the end", (n, len(text), "")))
    words = masked(text, "x") if prose else SPAN.sub(lambda s: "x" * len(s.group(0)), text)
    for m in _BEFORE_STOP.finditer(words):
        mark = text[m.end()]
        out.append((m.start(), "typography", f"a space before `{mark}`", f"remove the space before `{mark}`",
                    (m.start(), m.end(), "")))
    for m in re.finditer(r"(?<=\S)\t+", words.rstrip()):
        out.append((m.start(), "whitespace", "a tab", "write a space", (m.start(), m.end(), " ")))
    # code spans are verbatim (their spaces too); elsewhere only prose masks its code
    for m in _DOUBLE.finditer(masked(text) if prose else SPAN.sub(lambda s: "x" * len(s.group(0)), text)):
        if text[m.start():m.end()].strip(" ") == "":
            out.append((m.start(), "whitespace", "a double space", "write one space", (m.start(), m.end(), " ")))
    return out


def french(text: str) -> list[tuple]:
    """French typography faults of a string."""
    out = []
    plain = masked(text, "x")
    for i, ch in enumerate(plain):
        before = plain[i - 1] if i else ""
        after = plain[i + 1] if i + 1 < len(plain) else ""
        if ch in _MARKS and i and before not in NBSPS and not _exempt(plain, i):
            if before == " ":
                out.append((i, "typography", f"a plain space before `{ch}`; French takes a no-break space",
                            f"write a no-break space (U+00A0) before `{ch}`", (i - 1, i, NBSP)))
            else:
                out.append((i, "typography", f"no space before `{ch}`; French takes a no-break space",
                            f"write a no-break space (U+00A0) before `{ch}`", (i, i, NBSP)))
        elif ch == "«" and after not in NBSPS:
            out.append((i, "typography", "no no-break space after `«`", "write « followed by a no-break space",
                        (i + 1, i + 2, NBSP) if after == " " else (i + 1, i + 1, NBSP)))
        elif ch == "»" and before not in NBSPS:
            out.append((i, "typography", "no no-break space before `»`", "write a no-break space before »",
                        (i - 1, i, NBSP) if before == " " else (i, i, NBSP)))
        elif ch == '"':
            out.append((i, "typography", "a straight double quote in French",
                        "use « guillemets » with no-break spaces", None))
    for m in _APOSTROPHE.finditer(plain):
        out.append((m.start(), "typography", "a straight apostrophe `'` in French", "write ’ (U+2019)",
                    (m.start(), m.end(), "’")))
    return out + _guillemets(plain)


def _guillemets(text: str) -> list[tuple]:
    """A « never closed, or a » never opened (a quotation cut in half)."""
    opened: list[int] = []
    for i, ch in enumerate(text):
        if ch == "«":
            opened.append(i)
        elif ch == "»" and opened:
            opened.pop()
        elif ch == "»":
            return [(i, "typography", "a `»` that no `«` opens", "open the quotation with « or remove »", None)]
    return [(i, "typography", "a `«` that no `»` closes", "close the quotation with » or remove «", None)
            for i in opened[:1]]


def english(text: str) -> list[tuple]:
    plain = masked(text, "x")
    return [(i - 1, "typography", "a space before `:` (English takes none)", "remove the space before the colon",
             (i - 1, i, "")) for i, ch in enumerate(plain) if ch == ":" and i and plain[i - 1] in " \t" + NBSPS]


def _exempt(text: str, i: int) -> bool:
    """A colon in a time or a URL, or a mark inside a placeholder, is not punctuation."""
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    return (text[i] == ":" and (after == "/" or (before.isdigit() and after.isdigit()))) or before in "{|"


def ending(text: str) -> str:
    """The mark that ends a string (``.``, ``!``, ``?``, ``:``, ``;``, ``…``), or "" for none."""
    m = _END.search(masked(text).rstrip())
    return m.group(1) if m else ""


#: A string that ends with a placeholder: the mark before it joins a frame to its content.
_TRAILING_PLACEHOLDER = re.compile(r"\{\w+\}\s*$")


def _sentence_end(pair: Pair) -> list[Finding]:
    if pair.kind in ("prose-heading", "prose-meta"):
        return []
    a, b = ending(pair.en.text), ending(pair.fr.text)
    if a == b or (_TRAILING_PLACEHOLDER.search(pair.en.text) and _TRAILING_PLACEHOLDER.search(pair.fr.text)):
        return []  # "Immediately: {effect}", « Immédiatement, {effect} »: a frame's joint, not a sentence's end
    fr = pair.fr.text.rstrip()
    return [at(pair.fr, "punctuation", f"{label(pair)}: the English ends with {_name(a)}, the French with {_name(b)}",
               f"end the French with {_name(a)} too", index=max(len(fr) - 1, 0))]


def _name(mark: str) -> str:
    return f"`{mark}`" if mark else "no mark"
