"""English left in the French, and French left in the English.

A string that reads the same in both languages is an error unless the termbase lists
it under ``identical:`` (or it is a term spelt the same, like Poison). A string whose
words include several of the other language's function words ("the", "your"; « le »,
« votre ») is left untranslated in part.
"""
from __future__ import annotations

import re

from ...findings import Finding
from ..inventory import Inventory, Pair
from ..termbase import Termbase
from . import CODE_ONLY, at, both, label, masked

#: Function words of one language that are not words of the other.
STOPWORDS = {
    "en": frozenset("the and of your you with when each this that from to is are their they into until cannot "
                    "which will have has its it be if then any all only who what".split()),
    "fr": frozenset("le la les des du vous votre vos et une est dans pour avec qui que sur au aux ses son sa "
                    "leur leurs chaque ne pas cette ce quand puis".split()),
}
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def check(inv: Inventory, termbase: Termbase) -> list[Finding]:
    found: list[Finding] = []
    for pair in both(inv.pairs):
        if pair.kind in CODE_ONLY:
            continue
        same = _words(pair.en.text) == _words(pair.fr.text)
        if same and _words(pair.en.text) and not termbase.is_identical(_plain(pair.fr.text)):
            found.append(at(pair.fr, "untranslated", f"{label(pair)} is the same in English and French: "
                            f"\"{_plain(pair.fr.text)[:60]}\"",
                            f"translate it, or list it under `identical:` in locales/termbase.yaml if it is "
                            "the same on purpose"))
            continue
        if not same:
            found += _foreign(pair, "fr", "en") + _foreign(pair, "en", "fr")
    return found


def _foreign(pair: Pair, lang: str, other: str) -> list[Finding]:
    """Function words of ``other`` in the ``lang`` text: left untranslated in part."""
    entry = pair.side(lang)
    words = [m for m in _WORD.finditer(masked(entry.text))]
    hits = [m for m in words if m.group(0).casefold() in STOPWORDS[other] and m.group(0).casefold() not in STOPWORDS[lang]]
    if len(hits) >= 2 or (hits and len(words) <= 6):
        names = {"en": "English", "fr": "French"}
        return [at(entry, "untranslated", f"{label(pair)}: {names[other]} words in the {names[lang]}: "
                   + ", ".join(f"\"{m.group(0)}\"" for m in hits[:4]),
                   f"translate the whole string into {names[lang]}", index=hits[0].start())]
    return []


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(masked(text))]


def _plain(text: str) -> str:
    return " ".join(masked(text).replace("**", "").split())
