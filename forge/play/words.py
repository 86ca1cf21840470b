"""The play page's own words, read from the project's locales (the log's are their ``log:``: forge.text.narrate).

They live in ``locales/<lang>.yaml`` under ``play:``, beside the card text's phrases, so that
translators see them in their tools (``forge i18n export``) and ``forge parity`` checks them
(numbers, placeholders, the termbase, typography) like every other string: one source.
``{card}`` is a card's name in the page's language, ``{faction}`` a faction's,
``{n}``/``{k}`` counts; ``{n|one|many}`` picks the plural form as the logs do.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.findings import Finding
from ..carddb.model import Position
from ..text.narrate import phrase
from ..carddb.vocabulary import LANGUAGES

LANGS = LANGUAGES
#: The table of locales/<lang>.yaml that holds the page's words.
TABLE = "play"


@dataclass
class Words:
    """The page's words per language; a key French lacks falls back to English (parity reports it)."""

    tables: dict[str, dict[str, str]] = field(default_factory=dict)

    def table(self, lang: str) -> dict[str, str]:
        """Every word of the page in ``lang`` (English where ``lang`` has none), for the page's script."""
        return {**self.tables.get("en", {}), **self.tables.get(lang, {})}

    def get(self, lang: str, key: str) -> str:
        return self.tables.get(lang, {}).get(key) or self.tables.get("en", {}).get(key) or key

    def has(self, lang: str, key: str) -> bool:
        return key in self.tables.get(lang, {}) or key in self.tables.get("en", {})

    def say(self, lang: str, key: str, **values) -> str:
        """The page's phrase ``key`` in ``lang``, filled."""
        return phrase(self.get(lang, key), lang, **values)


def from_books(books: dict) -> tuple[Words, list[Finding]]:
    """The ``play:`` tables of the phrasebooks; a missing or malformed table is a finding at its locale file."""
    words, found = Words(), []
    for lang in LANGS:
        book = books.get(lang)
        rel = f"locales/{lang}.yaml"
        raw = book.data.get(TABLE) if book is not None else None
        if not isinstance(raw, dict):
            found.append(Finding(_where(book, rel, ()), "play-words",
                                 f"{rel} has no `{TABLE}:` table: the words of the play page",
                                 f"add `{TABLE}:` with the keys of locales/en.yaml's `{TABLE}:`"))
            continue
        table = {}
        for key, value in raw.items():
            if isinstance(value, str):
                table[str(key)] = value
            else:
                found.append(Finding(_where(book, rel, (TABLE, key)), "play-words",
                                     f"`{TABLE}.{key}` is not a text", "write the words in quotes"))
        words.tables[lang] = table
    return words, found


def _where(book, rel: str, path: tuple) -> Position:
    """Where ``path`` is written in the locale file (its top when not known)."""
    if book is None or book.where is None:
        return Position(rel, 1, 1)
    return Position(rel, *book.where.at(path, key=True))
