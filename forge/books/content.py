"""What the books say that comes from the cards: counts, lists, tables and keyword constructs.

Pure data built from a ``CardDatabase`` and the phrasebooks; the templates only
lay it out. Nothing here is typed by hand: a renamed trap, a new copy or a
changed threshold reaches both books through these functions.
"""
from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from ..engine.state import (HAND_SIZE, KEEP_AT_CLEANUP, MAX_CREATURES, POISON_DECAY, RAISE_COST, ROW_SIZE,
                            START_HEALTH)
from ..carddb.model import Card, CardDatabase, EffectLine, IconArt, ImageArt
from ..text.cardtext import Phrasebook
from ..carddb.vocabulary import FACTIONS, MAX_ALLEGIANCE, VERBS
from ..carddb.gameicons import has_icon, icon_author

#: Keyword constructs, in the reference's default order. Keywords take their name from the locale.
KEYWORD_KEYS: tuple[str, ...] = (
    "wound", "unblockable_wound", "poison", "destroy", "sacrifice", "discard", "exile", "rift",
    "allegiance", "guard", "aegis", "rush", "demise", "divine_shield",
)
#: Other constructs of the text box: their title comes from a locale frame when one prints it.
CONSTRUCT_KEYS: tuple[str, ...] = (
    "activate", "soul", "conditional", "optional", "immediately", "after_effects", "end_of_turn",
    "each_time", "trap_none", "trap_each_time", "trap_when",
)
ALL_KEYS: tuple[str, ...] = KEYWORD_KEYS + CONSTRUCT_KEYS
#: The locale frame whose words name a construct ("Immediately: {effect}" -> "Immediately").
FRAME_TITLES: dict[str, str] = {
    "immediately": "immediately", "after_effects": "after_effects", "end_of_turn": "end_of_turn",
    "each_time": "trigger", "trap_each_time": "trap_each_time", "trap_when": "trap_when",
}
#: Keywords printed with a number: their entry is titled "Name X".
_NUMBERED = {k for k in KEYWORD_KEYS if k in VERBS and VERBS[k].main == "n"} | {"aegis"}


# -- which constructs a printed line shows ----------------------------------------------
def line_tags(line: EffectLine) -> set[str]:
    """The constructs one effect line prints: its keyword, threshold, option and timing."""
    tags: set[str] = set()
    verb = VERBS[line.verb]
    if verb.keyword:
        tags.add(verb.keyword)
    if line.verb == "essence":
        tags.add("soul")
    if line.threshold:
        tags.add("conditional")
    if line.optional:
        tags.add("optional")
    if line.timing:
        tags.add(line.timing)
    return tags


def printed_tags(card: Card) -> list[set[str]]:
    """For each line ``Phrasebook.card_text`` prints, in the same order, the constructs it shows."""
    out: list[set[str]] = []
    kw = card.keywords
    if kw.guard:
        out.append({"guard", "activate"})
    if kw.aegis:
        out.append({"aegis"})
    if kw.rush:
        out.append({"rush"})
    section_tags = {"effects": {f"trap_{card.trap.kind}"} if card.trap else set(), "triggers": {"each_time"},
                    "end_of_turn": {"end_of_turn"}, "activate": {"activate"}, "demise": {"demise"}}
    out += [line_tags(ln) | section_tags[section] for section, ln in card.all_lines()]
    return out


def card_constructs(card: Card) -> set[str]:
    """Every construct a card shows, its trap kind included (a trap without lines is still its kind)."""
    tags: set[str] = set().union(*printed_tags(card))
    if card.trap:
        tags.add(f"trap_{card.trap.kind}")
    return tags


def card_digest(card: Card) -> str:
    """A short fingerprint of what a card does, so a clarification written for it can tell it changed."""
    rules = (card.type, card.trap, card.keywords, card.effects, card.activate, card.triggers,
             card.end_of_turn, card.demise)
    return hashlib.sha256(repr(rules).encode("utf-8")).hexdigest()[:8]


def cards_using(db: CardDatabase, key: str) -> list[Card]:
    return [c for c in db.cards if key in card_constructs(c)]


def example_card(db: CardDatabase, key: str, preferred: str | None = None,
                 users: list[Card] | None = None) -> Card | None:
    """The card that best shows a construct: the designer's choice if it uses it, else the plainest user
    (``users``: ``cards_using(db, key)``, when the caller has it)."""
    users = cards_using(db, key) if users is None else users
    for card in users:
        if card.id == preferred:
            return card
    if not users:
        return None
    order = {c.id: i for i, c in enumerate(db.cards)}

    def plainness(c: Card) -> tuple:
        return (c.set != "recruit", len(printed_tags(c)), c.cost or 0, order[c.id])

    return min(users, key=plainness)


# -- counts ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Counts:
    """Every number the books quote about the contents and the table."""

    factions: int
    recruit: int
    traps: int
    rites: int
    starter_deck: int
    starter_decks: int
    starter_creatures: int
    starter_cards: int
    box: int
    designs: int
    health: int = START_HEALTH
    hand: int = HAND_SIZE
    max_creatures: int = MAX_CREATURES
    row: int = ROW_SIZE
    max_allegiance: int = MAX_ALLEGIANCE
    keep: int = KEEP_AT_CLEANUP
    raise_cost: int = RAISE_COST
    poison_decay: int = POISON_DECAY
    by_type: dict = field(default_factory=dict)


def counts(db: CardDatabase) -> Counts:
    recruit = db.of_set("recruit")
    first = db.factions[0].id if db.factions else FACTIONS[0]
    creatures = [c for c in db.of_set("starter") if c.type == "creature" and c.faction == first]
    by_type = Counter()
    for c in recruit:
        by_type[c.type] += c.copies
    return Counts(
        factions=len(db.factions),
        recruit=sum(c.copies for c in recruit),
        traps=sum(c.copies for c in recruit if c.type == "trap"),
        rites=len(db.rites()),
        starter_deck=len(db.starter_deck(first)),
        starter_decks=len(db.factions),
        starter_creatures=sum(c.copies for c in creatures),
        starter_cards=sum(db.box_count(c) for c in db.of_set("starter")),
        box=sum(db.box_count(c) for c in db.cards),
        designs=len(db.cards),
        by_type=dict(by_type),
    )


# -- one language ------------------------------------------------------------------------------
def sort_key(text: str) -> str:
    """Alphabetical order that ignores accents and case (Égide sorts with E)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


@dataclass
class Language:
    """The database seen in one language: names, printed text and titles, all from cards and locales."""

    lang: str
    db: CardDatabase
    book: Phrasebook
    other: Phrasebook

    def name(self, card: Card) -> str:
        return card.name.get(self.lang) or card.name.get("en") or card.id

    def other_name(self, card: Card) -> str:
        return card.name.get(self.other.lang) or card.id

    def text(self, card: Card) -> list[str]:
        return self.book.card_text(card)

    def faction_word(self, fid: str) -> str:
        """The faction's colour word on cards: Red, Rouge."""
        return self.book.faction_name(fid)

    def faction_title(self, fid: str) -> str:
        """The faction's full name: The Ember Host."""
        f = next((f for f in self.db.factions if f.id == fid), None)
        return f.name.get(self.lang, fid) if f else fid

    def keyword(self, key: str) -> str:
        return self.book.keyword(key)

    def frame_title(self, frame: str) -> str:
        """The words of a locale frame before its first placeholder: "Opponent's turn: when…"."""
        text = self.book.label("frames", frame)
        head = text.split("{", 1)[0].replace("[[activate]]", "").replace("[[demise]]", "")
        head = head.replace("**", "").strip()
        if head.endswith((":", ",")):
            return head[:-1].rstrip("\u00a0 ")
        return head.rstrip() + "…" if "{" in text else head

    def title(self, key: str) -> str | None:
        """An entry's title from the locale, or None when only the designer's prose can name it."""
        if key in KEYWORD_KEYS:
            return self.keyword(key) + (" X" if key in _NUMBERED else "")
        if key in FRAME_TITLES:
            return self.frame_title(FRAME_TITLES[key])
        return None

    def trap_kind(self, kind: str) -> str:
        return self.book.label("trap_kinds", kind)

    def type_word(self, card_type: str) -> str:
        return self.book.label("types", card_type)


def art_credit(card: Card) -> list[tuple[str, str]]:
    """(what, who) for a card's picture: each icon and its game-icons.net author, or a picture and its artist."""
    if isinstance(card.art, IconArt):
        return [(name, icon_author(name) if has_icon(name) else "?") for name in card.art.icons()]
    if isinstance(card.art, ImageArt):
        return [(card.art.image.rsplit("/", 1)[-1], card.art.credit or "?")]
    return []
