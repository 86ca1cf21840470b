"""Design tables generated from the cards, for docs/design.md (and, later, the books).

Counts and lists are never retyped: ``forge docs`` fills every block between
``<!-- forge:table NAME -->`` and ``<!-- /forge:table -->`` in the design
document from the card database.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable

from ..core.escape import one_line
from ..carddb.model import Card, CardDatabase
from ..text.cardtext import Phrasebook
from ..carddb.vocabulary import FACTIONS, TRAP_KINDS, VERBS

#: The design document whose tables forge generates.
DESIGN_DOC = "docs/design.md"

def _cell(value: object) -> str:
    """A table cell from the cards: one line, a ``|`` that cannot end the cell, a ``<`` that cannot open a
    tag or the ``<!-- /forge:table -->`` comment that ends the generated block (a card name is contributor text)."""
    return one_line(value).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")


def _table(header: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def factions_table(db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    rows = []
    for f in db.factions:
        cards = [c for c in db.of_set("recruit") if c.faction == f.id]
        kinds = Counter()
        for c in cards:
            kinds[c.type] += c.copies
        copies = sum(c.copies for c in cards)
        avg = sum(c.cost * c.copies for c in cards) / copies if copies else 0
        rows.append([f"{books['en'].faction_name(f.id)}: {f.name['en']}", f.name["fr"], f"`{f.icon}`",
                     copies, kinds["creature"], kinds["spell"], kinds["trap"], f"{avg:.1f}"])
    return _table(["Faction (EN)", "Faction (FR)", "Icon", "Recruitment cards", "Creatures", "Spells",
                   "Traps", "Average cost"], rows)


def curve_table(db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    recruit = db.of_set("recruit")
    costs = sorted({c.cost for c in recruit})
    rows = []
    for cost in costs:
        per = [sum(c.copies for c in recruit if c.cost == cost and c.faction == f) for f in FACTIONS]
        rows.append([cost, *per, sum(per)])
    totals = [sum(c.copies for c in recruit if c.faction == f) for f in FACTIONS]
    rows.append(["**total**", *totals, sum(totals)])
    return _table(["Soul cost", *(books["en"].faction_name(f) for f in FACTIONS), "All"], rows)


CONSTRUCTS: dict[str, Callable[[Card], bool]] = {
    **{f"`{v}`": (lambda c, v=v: any(ln.verb == v for _, ln in c.all_lines())) for v in VERBS},
    "Guard": lambda c: c.keywords.guard,
    "Aegis": lambda c: bool(c.keywords.aegis),
    "Rush": lambda c: c.keywords.rush,
    "Demise": lambda c: bool(c.demise),
    "⟳ activated ability": lambda c: bool(c.activate),
    "conditional line (threshold)": lambda c: any(ln.threshold for _, ln in c.all_lines()),
    "you may": lambda c: any(ln.may for _, ln in c.all_lines()),
    "up to X": lambda c: any(ln.arg("up_to") for _, ln in c.all_lines()),
    "end of your turn": lambda c: bool(c.end_of_turn),
    "each time (trigger)": lambda c: bool(c.triggers),
    "immediately": lambda c: any(ln.timing == "immediately" for _, ln in c.all_lines()),
    "after its effects": lambda c: any(ln.timing == "after_effects" for _, ln in c.all_lines()),
    "two or more allegiances": lambda c: len(c.allegiance) >= 2,
    "Soul icons on a faction card": lambda c: bool(c.factions) and any(
        ln.verb == "essence" for _, ln in c.all_lines()),
}


def construct_counts(db: CardDatabase) -> dict[str, tuple[int, int]]:
    """For each keyword or construct: (card designs using it, physical copies)."""
    return {name: (sum(1 for c in db.cards if test(c)), sum(db.box_count(c) for c in db.cards if test(c)))
            for name, test in CONSTRUCTS.items()}


def keywords_table(db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    rows = [[name, designs, copies] for name, (designs, copies) in construct_counts(db).items()]
    return _table(["Keyword or construct", "Card designs", "Physical cards"], rows)


def traps_table(db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    en = books["en"]
    rows = []
    for c in sorted((c for c in db.cards if c.type == "trap"), key=lambda c: (TRAP_KINDS.index(c.trap.kind), c.cost or 0)):
        rows.append([c.name["en"], c.name["fr"], en.faction_name(c.faction), en.label("trap_kinds", c.trap.kind),
                     c.cost, " / ".join(en.plain(x) for x in en.card_text(c))])
    return _table(["Trap", "Piège", "Faction", "Kind", "Cost", "Text"], rows)


def rites_table(db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    en = books["en"]
    rows = [[c.name["en"], c.name["fr"], en.faction_name(c.faction), " / ".join(en.plain(x) for x in en.card_text(c))]
            for c in db.rites()]
    return _table(["Rite", "Rite (FR)", "Faction", "Text"], rows)


TABLES: dict[str, Callable[[CardDatabase, dict], str]] = {
    "factions": factions_table, "curve": curve_table, "keywords": keywords_table,
    "traps": traps_table, "rites": rites_table,
}


def fill(document: str, db: CardDatabase, books: dict[str, Phrasebook]) -> str:
    """The document with every generated block replaced by its current table."""
    out, pos = [], 0
    marker = re.compile(r"<!-- forge:table (\w+) -->\n")
    end = "<!-- /forge:table -->\n"
    while (m := marker.search(document, pos)) is not None:
        out.append(document[pos:m.end()])
        name = m.group(1)
        close = document.find(end, m.end())
        nxt = marker.search(document, m.end())
        if close == -1 or (nxt and nxt.start() < close):
            pos = m.end()  # an opening marker without its block yet
        else:
            pos = close + len(end)
        table = TABLES[name](db, books) if name in TABLES else f"(unknown table `{name}`)\n"
        out.append(table + end)
    out.append(document[pos:])
    return "".join(out)
