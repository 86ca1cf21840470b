"""The compiled text of every card says the same in both languages, line by line.

Every source string is compared on its own by the other families; this is the net under
them: the printed lines of each card, compiled from phrases and wordings, have the same
numbers, icons and keywords. A difference is reported where it comes from: the card's
French wording when it has one, else the French phrase template it was compiled from.
"""
from __future__ import annotations

from collections import Counter

from ...carddb.database import LoadResult
from ...core.findings import Finding
from ...carddb.model import Card, Position
from ...text.cardtext import Phrasebook, PhraseError, parse_markup, variant_key
from ..inventory import LANGS, Inventory
from .numbers import numbers


def essentials(line: str, lang: str) -> tuple[Counter, Counter, int]:
    """What both languages of a printed line share: numbers, icons, the count of keywords."""
    spans = parse_markup(line)
    text = "".join(s.value for s in spans if s.kind == "text")
    return numbers(text, lang), Counter(s.value for s in spans if s.kind == "icon"), sum(s.kind == "keyword" for s in spans)


def check(inv: Inventory, load: LoadResult, books: dict[str, Phrasebook]) -> list[Finding]:
    fr_doc = inv.sources.docs.get("locales/fr.yaml")
    found: list[Finding] = []
    for card in load.db.cards:
        try:
            en, fr = books["en"].printed_lines(card), books["fr"].printed_lines(card)
        except PhraseError:
            continue  # a phrase that does not compile is `forge validate`'s finding
        if len(en) != len(fr):
            found.append(Finding(load.card_position(card.id), "parity-text",
                                 f"`{card.id}` prints {len(en)} lines in English and {len(fr)} in French",
                                 "give both languages the same lines (check the `text:` wordings)"))
            continue
        for i, (a, b) in enumerate(zip(en, fr), 1):
            if a.line is not None and a.line.override and set(LANGS) <= set(a.line.override):
                continue  # two wordings: compared as a pair by the other families, at the French wording
            for what, x, y in zip(("numbers", "icons", "keyword count"), essentials(a.text, "en"), essentials(b.text, "fr")):
                if x != y:
                    found.append(Finding(_source(load, card, b, fr_doc), "parity-text",
                                         f"`{card.id}` line {i}: the {what} differ: en {_show(x)} (\"{books['en'].plain(a.text)}\"), "
                                         f"fr {_show(y)} (\"{books['fr'].plain(b.text)}\")",
                                         "make both languages say the same thing (numbers, icons and keywords)"))
    return found


def _show(value) -> str:
    if isinstance(value, Counter):
        return " ".join(f"{k}×{v}" if v > 1 else str(k) for k, v in sorted(value.items())) or "none"
    return str(value)


def _source(load: LoadResult, card: Card, line, fr_doc) -> Position:
    """Where the French of a printed line is written: its wording, or its phrase template."""
    effect = line.line
    if effect is not None and effect.override and "fr" in effect.override:
        return load.card_position(card.id, *line.path, "text", "fr")
    if effect is not None and fr_doc is not None:
        return fr_doc.at(("phrases", effect.verb, variant_key(effect)))
    return load.card_position(card.id)
