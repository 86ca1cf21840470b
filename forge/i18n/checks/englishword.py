"""One English word left in a French string (« Piochez une card »): rule ``untranslated-word``.

``untranslated`` needs two English words, or a short string, before it speaks: one word alone
is too often a loan, a name or a cognate for a general word list. This check narrows the
question to the project's own vocabulary, so it can speak on one word:

- the English-only words are those the project's English strings use that French does not:
  wordfreq's ``english-not-french.txt`` (``forge/i18n/data``: English words French uses less
  than a fifth as often, French's 1,000 most frequent words kept out: "card", "health", "turn"
  are in, "page", "six", "but" are not), plus English function words ("the", "your");
- less the words that are legitimately the same in both languages: the French forms of the
  termbase's terms (« deck », « Rite », « Poison ») and its ``identical:`` strings, and the words
  the project's French uses on its own, in two strings or more whose English does not have them;
  the English card and faction names are names, not vocabulary (their words are not taken);
- a word of a French string is reported when it is in that list and is not a name: a
  capitalised word inside a sentence (except in titles, all capitalised), an English card or
  faction name quoted whole, a domain or file name (game-icons.net).

Measured on the shipped game: no string is reported (``tests/parity/test_english_word.py``).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ...core.findings import Finding
from ..inventory import Inventory, Pair
from ...text.termbase import Termbase
from . import at, label, masked
from . import untranslated
from .untranslated import DATA, STOPWORDS, TITLES, _WORD, _a_name

RULE = "untranslated-word"
NAMES = ("card-name", "faction-name")
#: Domain and file names (game-icons.net, README.txt): written as they are in every language.
_DOTTED = re.compile(r"[\w-]+(?:\.[\w-]+)+")
#: English words that are never French, though frequent in French text (English quoted there): wordfreq's
#: rank alone would keep them out (``english-not-french.txt`` keeps French's 1,000 most frequent words out).
FUNCTION_WORDS = STOPWORDS["en"] | {"in", "new"}
#: A plural placeholder: its two forms are words a reader reads.
_PLURAL = re.compile(r"\{\w+\|([^|{}]*)\|([^{}]*)\}")


@lru_cache(maxsize=1)
def not_french() -> frozenset[str]:
    """English words French uses rarely or never (``forge/i18n/data/english-not-french.txt``)."""
    try:
        text = (DATA / "english-not-french.txt").read_text(encoding="utf-8")
    except OSError:
        return frozenset()  # an incomplete install: the function words still work
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def vocabulary(inv: Inventory, termbase: Termbase) -> frozenset[str]:
    """The project's English-only words: its English, less what French shares, the termbase and the names."""
    english: set[str] = set()
    for pair in inv.pairs:
        if pair.en is None or pair.kind in NAMES:
            continue  # a name's words are a name's ("Burning Hand"), not the vocabulary
        text = masked(pair.en.text)
        english.update(m.group(0).casefold() for m in _WORD.finditer(text)
                       if pair.kind in TITLES or not _a_name(text, m))
    candidates = {w for w in english if w in not_french() or w in FUNCTION_WORDS}
    return frozenset(candidates - _french_own(inv) - _french_terms(termbase))


def _french_terms(termbase: Termbase) -> set[str]:
    """Words the termbase vouches for in French: the French forms of its terms, its identical strings.

    Not the English forms: "card" is a term, and the very word a French string must not keep.
    """
    texts = list(termbase.identical) + [f for t in termbase.terms for f in t.written("fr")]
    return {w.casefold() for text in texts for w in _WORD.findall(text)}


def check(inv: Inventory, termbase: Termbase) -> list[Finding]:
    """Each French string with a word of the project's English-only vocabulary, unless ``untranslated`` spoke."""
    english = vocabulary(inv, termbase)
    quoted = _names(inv, termbase)
    known = untranslated.vouched(termbase)
    found: list[Finding] = []
    for pair in inv.pairs:
        if pair.fr is None or not pair.fr.text.strip():
            continue
        text = _unquoted(readable(pair.fr.text), quoted)
        hit = next((m for m in _WORD.finditer(text) if m.group(0).casefold() in english
                    and (pair.kind in TITLES or not _a_name(text, m))), None)
        if hit is not None and not (pair.en is not None and untranslated.findings_of(pair, termbase, known)):
            found.append(_finding(pair, hit))  # one finding a string: the translator rereads it whole
    return found


def readable(text: str) -> str:
    """``text`` with its code masked but the words of its plural forms kept (``{n|carte|cartes}``), at their offsets."""
    out = list(masked(text))
    for m in _PLURAL.finditer(text):
        for group in (1, 2):
            out[m.start(group):m.end(group)] = text[m.start(group):m.end(group)]
    return "".join(out)


def _finding(pair: Pair, m: re.Match) -> Finding:
    english = f" (the English: \"{' '.join(pair.en.text.split())[:60]}\")" if pair.en is not None else ""
    return at(pair.fr, RULE, f"{label(pair)}: \"{m.group(0)}\" is an English word left in the French{english}",
              "translate it; if it is a name or the same in French on purpose, list it under `identical:` in "
              "locales/termbase.yaml", index=m.start())


def _french_own(inv: Inventory) -> set[str]:
    """Words the French uses on its own: in two strings or more whose English lacks the word and its -s, -es forms."""
    seen: dict[str, int] = {}
    for pair in inv.pairs:
        if pair.fr is None or pair.en is None:
            continue
        english = {w.casefold() for w in _WORD.findall(masked(pair.en.text))}
        for word in {w.casefold() for w in _WORD.findall(masked(pair.fr.text))}:
            if not {word, word + "s", word + "es", word.removesuffix("s"), word.removesuffix("es")} & english:
                seen[word] = seen.get(word, 0) + 1
    return {w for w, n in seen.items() if n >= 2}


def _names(inv: Inventory, termbase: Termbase) -> re.Pattern | None:
    """English card and faction names and the termbase's identical strings, as whole phrases."""
    phrases = {p.en.text.strip() for p in inv.by_kind(*NAMES) if p.en is not None and p.en.text.strip()}
    phrases |= {s for s in termbase.identical if " " in s}
    if not phrases:
        return None
    body = "|".join(re.escape(p) for p in sorted(phrases, key=lambda p: (-len(p), p)))
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.I)


def _unquoted(text: str, names: re.Pattern | None) -> str:
    """``text`` with names and dotted names blanked (same length: findings keep their columns)."""
    blank = lambda m: " " * len(m.group(0))
    text = _DOTTED.sub(blank, text)
    return names.sub(blank, text) if names is not None else text
