"""The numbers of a string are the same in both languages, digits and spelled-out words alike.

« Quatre » is 4 and "four" is 4. "one"/"un"/"une" are left out: they are as often an
article or a pronoun as a number. Numbers inside Jinja, placeholders and icons are
code, compared by ``tokens``.
"""
from __future__ import annotations

import re
from collections import Counter

from ...core.findings import Finding
from ..inventory import Inventory
from . import at, both, label, masked

WORDS = {
    "en": {"zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
           "twenty": 20, "thirty": 30, "twice": 2, "thrice": 3},
    "fr": {"zéro": 0, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8, "neuf": 9,
           "dix": 10, "onze": 11, "douze": 12, "treize": 13, "quatorze": 14, "quinze": 15, "seize": 16,
           "vingt": 20, "trente": 30},
}
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_]+")
#: Phrases where a spelled number is not a count ("les deux" is "both"; "deux-points" a colon).
#: « les deux premiers tours » is "the first two turns": a count again.
_IDIOMS = {"en": re.compile(r"(?i)\bboth\b"),
           "fr": re.compile(r"(?i)\b(?:les|des|aux|tous|toutes) deux\b(?!\s+(?:premi|derni))|deux-points")}


def numbers(text: str, lang: str) -> Counter:
    """The numbers a string says, with where the first of each is (offset)."""
    text = masked(text)
    text = _IDIOMS[lang].sub(lambda m: " " * len(m.group(0)), text)
    words = WORDS[lang]
    out: Counter = Counter()
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token[0].isdigit():
            out[token.replace(",", ".")] += 1
        elif token.casefold() in words:
            out[str(words[token.casefold()])] += 1
    return out


def check(inv: Inventory) -> list[Finding]:
    found: list[Finding] = []
    for pair in both(inv.pairs):
        a, b = numbers(pair.en.text, "en"), numbers(pair.fr.text, "fr")
        if a != b:
            found.append(at(pair.fr, "parity-number",
                            f"{label(pair)}: the numbers differ: en {_show(a)}, fr {_show(b)}",
                            "say the same numbers as the English (a spelled-out number counts: « quatre » = 4)",
                            index=_where(pair.fr.text, b - a)))
    return found


def _show(c: Counter) -> str:
    return " ".join(f"{k}×{v}" if v > 1 else k for k, v in sorted(c.items(), key=lambda kv: float(kv[0]))) or "none"


def _where(text: str, extra: Counter) -> int:
    for m in _TOKEN.finditer(masked(text)):
        if m.group(0) in extra or str(WORDS["fr"].get(m.group(0).casefold(), "")) in extra:
            return m.start()
    return 0
