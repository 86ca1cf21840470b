"""The game log in words: each line of a game record as a sentence of ``locales/<lang>.yaml``.

The sentences are the locale's ``log:`` table (faction names its ``factions:``), beside the
card text's phrases and the play page's words, so that translators see them in their tools
and ``forge parity`` checks them like every other string. The engine records events as
data (``forge.engine.record``: a kind and its fields) and knows no words; this module,
outside it, reads those events and the locale tables its callers load (``replay``, the
replay viewer, ``forge play``).

A phrase is untrusted text: a key missing from the language falls back to English, one
missing from both prints the event's kind and fields, and a placeholder the event does not
have is printed as written (``check`` reports both at the locale's line).
"""
from __future__ import annotations

import re
from typing import Iterable

from . import localetable
from ..engine.record import CAP_REASONS, FIELDS, KEYS
from ..core.findings import Finding
from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS, plural_category

#: The table of locales/<lang>.yaml that holds the log's phrases.
TABLE = "log"
_PLACEHOLDER = localetable.PLACEHOLDER
#: Phrases that are no event of the record: a player's name, setup's two forms (its fields are its own),
#: and the name of each cap a game may reach (``capped``'s {reason}: "turns", « tours »).
_SETUP = ("p0", "p1", "f0", "f1", "first")
OWN: dict[str, tuple[str, ...]] = {"player": ("n",), "setup": _SETUP, "setup_expert": _SETUP,
                                   **{f"cap_{reason}": () for reason in CAP_REASONS}}
#: Lines printed indented under the events they come between.
INDENT = {"decision": "  "}


def phrase(template: str, lang: str = "en", **values) -> str:
    """Fill ``{name}`` and ``{n|singular|plural}`` placeholders by ``lang``'s plural rules ("0 cards",
    « 0 carte »); a placeholder with no value is printed as written."""
    def sub(m: re.Match) -> str:
        name, singular, plural = m.groups()
        if name not in values:
            return m.group(0)
        if singular is None:
            return str(values[name])
        try:
            return singular if plural_category(lang, int(values[name])) == "one" else plural
        except (TypeError, ValueError):
            return m.group(0)

    return _PLACEHOLDER.sub(sub, template)


def placeholders(kind: str) -> set[str]:
    """The placeholders the printer fills in the phrase of ``kind`` (none for a kind it never prints)."""
    if kind in OWN:
        return set(OWN[kind])
    if kind not in KEYS or kind == "resolve":
        return set()
    names = set(KEYS[kind]) - {"t", "e", "cid", "section", "index", "rite"}
    return names | ({"card"} if "rite" in FIELDS[kind] else set())


#: Every phrase the log prints, by key.
KINDS = tuple(dict.fromkeys([*OWN, *(k for k in FIELDS if k != "resolve")]))


class LogPrinter:
    """Turns record lines, one at a time, into a readable log in one language."""

    def __init__(self, db: CardDatabase, books: dict, lang: str = "en", decisions: bool = False) -> None:
        self.lang = lang
        self.table = localetable.texts(books, lang, TABLE)
        self.fnames = localetable.texts(books, lang, "factions")
        self.names = {c.id: c.name.get(lang) or c.id for c in db.cards}
        self.decisions = decisions

    def say(self, key: str, **values) -> str:
        """The phrase ``key`` filled; its kind and values when no language has it."""
        if key not in self.table:
            return f"[{key}] " + ", ".join(f"{k}={v}" for k, v in values.items())
        return phrase(self.table[key], self.lang, **values)

    def who(self, p) -> str:
        return self.say("player", n=int(p) + 1)

    def reason(self, cap: str) -> str:
        """The name of the cap a game reached, in this language (the record's word when no phrase names it)."""
        return self.say(f"cap_{cap}") if f"cap_{cap}" in self.table else str(cap)

    def __call__(self, x: dict) -> str | None:
        """The log line of one record line, or None for lines the log does not show."""
        t = x.get("t")
        if t not in ("event", "decision") or (t == "decision" and not self.decisions):
            return None
        if x.get("e") == "resolve":  # why the next events happen: the log says what happens (see FIELDS)
            return None
        kind = "decision" if t == "decision" else x["e"]
        if kind == "setup":
            fnames = self.fnames
            return self.say("setup_expert" if x["expert"] else "setup", p0=self.who(0), p1=self.who(1),
                            f0=fnames.get(x["f0"], x["f0"]), f1=fnames.get(x["f1"], x["f1"]),
                            first=self.who(x["first"]))
        return INDENT.get(kind, "") + self.say(kind, **self._values(x))

    def _values(self, x: dict) -> dict:
        args = {k: v for k, v in x.items() if k not in ("t", "e")}
        for key in ("player", "target"):
            if key in x:
                args[key] = self.who(x[key])
        if "card" in x:
            args["card"] = self.names.get(x["card"], x["card"])
        if "rite" in x:
            args["card"] = self.names.get(x["rite"], x["rite"])
        if "faction" in x:
            f = FACTIONS[x["faction"]]
            args["faction"] = self.fnames.get(f, f)
        if "reason" in x:
            args["reason"] = self.reason(x["reason"])
        if "action" in x:
            args["action"] = " ".join(str(v) for v in x["action"] if v != -1)
        return args


def render(lines: Iterable[dict], db: CardDatabase, books: dict, lang: str = "en",
           decisions: bool = False) -> list[str]:
    """A human-readable log of a record in ``lang``; ``decisions`` adds each raw decision."""
    printer = LogPrinter(db, books, lang, decisions)
    return [text for x in lines if (text := printer(x)) is not None]


def check(books: dict) -> list[Finding]:
    """The log's phrases a record needs: a ``log:`` table in each language, every phrase in English, and
    no placeholder the printer cannot fill (it would print as written), each at its locale line."""
    return localetable.check(books, _LOG, KINDS, placeholders)


_LOG = localetable.Table(TABLE, "log-phrase", "the game log's phrases", "the log prints its events as data",
                         "no event of the game log", "this event")


__all__ = ["TABLE", "KINDS", "phrase", "placeholders", "LogPrinter", "render", "check"]
