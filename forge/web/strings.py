"""The web pages' own words (the gallery's and the replay viewer's), read from the project's locales.

They live in ``locales/<lang>.yaml`` under ``web:``, beside the play page's ``play:`` and the log's
``log:``, so that translators see them in their tools (``forge i18n export``), ``forge parity`` checks
them (numbers, placeholders, English left in French, typography, the termbase) and stale tracking
follows their English. A language's name is the locale's own ``language:``. The caller passes the
phrasebooks it loaded (``forge.text.cardtext.load_phrasebooks``): this module reads no file. A key a language
lacks reads in English; one missing in both reads as its key (``check`` reports it, run by parity):
a locale never stops a page.
"""
from __future__ import annotations

from ..text import localetable
from ..core.findings import Finding

#: The table of locales/<lang>.yaml that holds the pages' words.
TABLE = "web"
#: Every word the pages use, with the placeholders the pages fill in it.
KEYS: dict[str, frozenset[str]] = {key: frozenset(names) for key, names in {
    "gallery_title": (), "gallery_intro": (), "search": (), "search_hint": (), "faction": (), "neutral": (),
    "type": (), "cost": (), "keyword": (), "any": (), "shown": ("n", "total"), "none": (), "copies": (),
    "proof": ("page",), "print_image": (), "flavor": (), "allegiance": (), "reset": (), "replay_title": (),
    "replay_intro": (), "first": (), "previous": (), "next": (), "last": (), "step": ("n", "total"),
    "turn": ("turn",), "player": ("n",), "health": (), "poison": (), "essence": (), "rite": (), "battlefield": (),
    "played": (), "hand": (), "deck": (), "discard": (), "recruitment": (), "recruit_deck": (), "exile": (),
    "empty": (), "exhausted": (), "active": (), "log": (), "decisions": (),
    "result_win": ("player", "turn", "h0", "h1"), "result_capped": ("turn", "reason"), "result_error": ("error",),
    "failure": (), "record": (), "seed": (), "skip": (), "any_faction": (),
    "agent_heuristic": (), "agent_random": (), "agent_human": (),
}.items()}


class Words(dict):
    """The words of one language; a key no language has reads as itself (the page still renders)."""

    def __missing__(self, key: str) -> str:
        return key


def words(books: dict, lang: str) -> Words:
    """The words of ``lang`` (English for a word ``lang`` lacks), with ``language``: the language's own name."""
    out = Words(localetable.texts(books, lang, TABLE))
    book = books.get(lang)
    name = book.data.get("language") if book is not None and isinstance(book.data, dict) else None
    out["language"] = name if isinstance(name, str) and name else lang
    return out


def check(books: dict) -> list[Finding]:
    """A ``web:`` table in each language, every word in English, no key the pages do not use and no
    placeholder they cannot fill (it would print as written), each at its locale line (rule web-words)."""
    return localetable.check(books, _WEB, KEYS, lambda key: set(KEYS[key]))


_WEB = localetable.Table(TABLE, "web-words", "the words of the gallery and the replay viewer",
                         "the pages print the key itself", "no word of the web pages", "the page", noun="words")
