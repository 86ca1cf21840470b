"""English left in the French, and French left in the English.

A string that reads the same in both languages is an error unless the termbase lists
it under ``identical:`` (or it is a term spelt the same, like Poison). A string whose
words include several of the other language's function words ("the", "your"; « le »,
« votre ») is left untranslated in part; so is one with two words or more that are
frequent in the other language and rare in its own ("Already burning"), read from word
lists derived from wordfreq (``forge/i18n/data``, CC BY-SA 4.0). Words the termbase
knows (its terms and ``identical:`` strings) never count, nor a capitalised word inside
a sentence (a name: "IM FELL", "SIL Open Font License"), except in titles (card names,
headings), where every word is capitalised.
"""
from __future__ import annotations

import re

from functools import lru_cache
from pathlib import Path

from ...core.findings import Finding
from ..inventory import Inventory, Pair
from ...text.termbase import Termbase
from . import at, both, label, masked

DATA = Path(__file__).resolve().parents[1] / "data"
#: Strings whose every word is capitalised: a capital does not mark a name there.
TITLES = ("card-name", "faction-name", "prose-heading")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;«»\"“”(\n—–-])\W*$")

#: Function words of one language that are not words of the other.
STOPWORDS = {
    "en": frozenset("the and of your you with when each this that from to is are their they into until cannot "
                    "which will have has its it be if then any all only who what".split()),
    "fr": frozenset("le la les des du vous votre vos et une est dans pour avec qui que sur au aux ses son sa "
                    "leur leurs chaque ne pas cette ce quand puis".split()),
}
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def check(inv: Inventory, termbase: Termbase) -> list[Finding]:
    known = vouched(termbase)
    return [f for pair in both(inv.pairs) for f in findings_of(pair, termbase, known)]


def vouched(termbase: Termbase) -> frozenset[str]:
    """The words ``termbase`` vouches for (``_known``): computed once by a caller that checks many pairs, since
    the cache's key hashes every term (5 % of parity when it was looked up for each string)."""
    return _known(termbase.identical, tuple(termbase.terms))


def findings_of(pair: Pair, termbase: Termbase, known: frozenset[str] | None = None) -> list[Finding]:
    """What this check says of one pair present in both languages (``known``: ``vouched(termbase)``)."""
    same = _words(pair.en.text) == _words(pair.fr.text)
    if same and _words(pair.en.text) and not termbase.is_identical(_plain(pair.fr.text)):
        return [at(pair.fr, "untranslated", f"{label(pair)} is the same in English and French: "
                   f"\"{_plain(pair.fr.text)[:60]}\"",
                   "translate it, or list it under `identical:` in locales/termbase.yaml if it is "
                   "the same on purpose")]
    if same:
        return []
    known = vouched(termbase) if known is None else known
    return (_foreign(pair, "fr", "en") or _frequent(pair, "fr", "en", termbase, known)) + \
        (_foreign(pair, "en", "fr") or _frequent(pair, "en", "fr", termbase, known))


@lru_cache(maxsize=None)
def only_words(lang: str) -> frozenset[str]:
    """Words frequent in ``lang`` and rare in the other language (``forge/i18n/data``)."""
    name = {"en": "english-only.txt", "fr": "french-only.txt"}[lang]
    try:
        text = (DATA / name).read_text(encoding="utf-8")
    except OSError:
        return frozenset()  # an incomplete install: the function words still work
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


@lru_cache(maxsize=8)
def _known(identical: frozenset[str], terms: tuple) -> frozenset[str]:
    """Words the termbase vouches for in either language: its terms and its identical strings."""
    words = set()
    for text in list(identical) + [f for t in terms for lang in ("en", "fr") for f in t.written(lang)]:
        words.update(w.casefold() for w in _WORD.findall(text))
    return frozenset(words)


def _frequent(pair: Pair, lang: str, other: str, termbase: Termbase,
              known: frozenset[str] | None = None) -> list[Finding]:
    """Two words or more of ``other``'s frequent vocabulary, rare in ``lang``: left untranslated
    (``known``: ``vouched(termbase)``, when the caller has it)."""
    entry = pair.side(lang)
    text = masked(entry.text)
    vocabulary, known = only_words(other), vouched(termbase) if known is None else known
    words = list(_WORD.finditer(text))
    hits = [m for m in words if m.group(0).casefold() in vocabulary and m.group(0).casefold() not in known
            and (pair.kind in TITLES or not _a_name(text, m))]
    if len(hits) >= 2 or (hits and len(words) == 1):
        names = {"en": "English", "fr": "French"}
        return [at(entry, "untranslated", f"{label(pair)}: {names[other]} words in the {names[lang]}: "
                   + ", ".join(f"\"{m.group(0)}\"" for m in hits[:4]),
                   f"translate the whole string into {names[lang]} (or, for a name kept on purpose, list it "
                   "under `identical:` in locales/termbase.yaml)", index=hits[0].start())]
    return []


def _a_name(text: str, m: re.Match) -> bool:
    """A capitalised word that does not start a sentence: a name, not a word left untranslated."""
    return m.group(0)[:1].isupper() and not _SENTENCE_START.search(text[:m.start()])


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
