"""A table of words in ``locales/<lang>.yaml`` that forge fills itself (the log's ``log:``, the web
pages' ``web:``), checked one way at its locale line: the table in each language, every key its reader
needs in English, no key it does not read, no placeholder it cannot fill (it would print as written).
Parity compares the two languages; this sees what both get wrong alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..core.findings import Finding
from ..carddb.model import Position
from .cardtext import PLACEHOLDER
from ..carddb.vocabulary import LANGUAGES


@dataclass(frozen=True)
class Table:
    """A table and how its findings speak of it."""

    name: str  # the table's key: "log"
    rule: str  # the findings' rule: "log-phrase"
    what: str  # what the table holds: "the game log's phrases"
    missing: str  # what a key missing in English does: "the log prints its events as data"
    unknown: str  # what a key the reader does not read is not: "no event of the game log"
    unfilled: str  # whose placeholders they are: "this event"
    noun: str = "phrase"


def texts(books: dict, lang: str, name: str) -> dict[str, str]:
    """The locale table ``name`` of ``lang``, English where it lacks a key (texts only: a locale never
    stops its reader)."""
    out: dict[str, str] = {}
    for source in ("en", lang):
        book = books.get(source)
        raw = book.data.get(name) if book is not None and isinstance(book.data, dict) else None
        if isinstance(raw, dict):
            out.update({str(k): v for k, v in raw.items() if isinstance(v, str)})
    return out


def check(books: dict, table: Table, keys: Iterable[str], placeholders: Callable[[str], set[str]]) -> list[Finding]:
    """The findings of ``table`` in every language's phrasebook (``keys``: the ones its reader needs)."""
    keys, found, t = tuple(keys), [], table.name
    for lang in LANGUAGES:
        book = books.get(lang)
        rel = f"locales/{lang}.yaml"
        raw = book.data.get(t) if book is not None and isinstance(book.data, dict) else None
        if not isinstance(raw, dict):
            found.append(Finding(where(book, rel, ()), table.rule, f"{rel} has no `{t}:` table: {table.what}",
                                 f"add `{t}:` with the keys of forge's own locales/en.yaml"))
            continue
        if lang == "en":
            found += [Finding(where(book, rel, (t,)), table.rule, f"`{t}.{key}` is missing: {table.missing}",
                              f"add `{key}:` to `{t}:`") for key in keys if key not in raw]
        for key, text in raw.items():
            found += _entry(book, rel, table, keys, str(key), text, placeholders)
    return found


def _entry(book, rel: str, table: Table, keys: tuple, key: str, text, placeholders) -> list[Finding]:
    at, t = where(book, rel, (table.name, key)), table.name
    if key not in keys:
        return [Finding(at, table.rule, f"`{t}.{key}` is {table.unknown}", f"remove it, or name one of: {', '.join(keys)}")]
    if not isinstance(text, str):
        return [Finding(at, table.rule, f"`{t}.{key}` is not a text", f"write the {table.noun} in quotes")]
    known = placeholders(key)
    return [Finding(at, table.rule, f"`{t}.{key}` names {{{name}}}, which {table.unfilled} does not have",
                    f"use one of {', '.join('{%s}' % k for k in sorted(known)) or 'no placeholder'}")
            for name in sorted({m.group(1) for m in PLACEHOLDER.finditer(text)} - known)]


def where(book, rel: str, path: tuple) -> Position:
    """Where ``path`` is written in the locale file (its top when not known)."""
    if book is None or getattr(book, "where", None) is None:
        return Position(rel, 1, 1)
    return Position(rel, *book.where.at(path, key=True))
