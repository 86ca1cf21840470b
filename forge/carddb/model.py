"""Typed card data: what the loader builds and every later stage reads.

Pure data with no I/O, so the rules engine, the text compiler and the renderers
can all import it without pulling in YAML or files.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.findings import Position  # re-exported: a finding's place is where a card value was written
from .vocabulary import FACTIONS, PRINTED_ORDER, EffectLine, Threshold  # re-exported for convenience

__all__ = [
    "ART_LAYOUTS", "ART_FITS", "Card", "CardDatabase", "EffectLine", "Faction", "IconArt", "ImageArt", "Keywords",
    "Position", "Threshold", "TrapSpec", "Trigger", "collector_order",
]

#: Where an icon composition puts its accents (docs/card-format.md, "Art").
ART_LAYOUTS = ("behind", "flank", "corner")
#: How an image fills the art window: cover crops around the focus, contain shows all of it.
ART_FITS = ("cover", "contain")


@dataclass(frozen=True)
class Keywords:
    """A creature's keywords: ⟳ Guard, Aegis X, Rush (rulebook, Creatures)."""

    guard: bool = False
    rush: bool = False
    aegis: int = 0

    def names(self) -> list[str]:
        out = []
        if self.guard:
            out.append("guard")
        if self.aegis:
            out.append("aegis")
        if self.rush:
            out.append("rush")
        return out


@dataclass(frozen=True)
class Trigger:
    """An "each time …" ability of a creature or Rite: an event and the lines it resolves."""

    event: str
    actor: str  # "you" | "opponent"
    lines: tuple[EffectLine, ...]


@dataclass(frozen=True)
class TrapSpec:
    """A trap's kind (none, each_time, when) and, for the last two, its event (always the opponent's)."""

    kind: str
    event: str | None = None


@dataclass(frozen=True)
class IconArt:
    """A card's illustration composed from game-icons.net icons over its faction's procedural background.

    ``icon`` is the main figure; ``accents`` (at most two) are placed by ``layout``:
    ``behind`` (the first one large and faint behind the figure), ``flank`` (on
    either side of it, low) or ``corner`` (small, lower right). ``flip`` mirrors the figure.
    """

    icon: str
    accents: tuple[str, ...] = ()
    layout: str = "behind"
    flip: bool = False

    def icons(self) -> tuple[str, ...]:
        return (self.icon,) + self.accents


@dataclass(frozen=True)
class ImageArt:
    """A card's illustration from a picture in the project (PNG, JPEG, WebP or SVG).

    ``focus`` is the point (fractions of width and height from the top left) kept in view
    when ``fit: cover`` crops the picture to the art window; ``credit`` names the artist
    in the books' credits.
    """

    image: str
    focus: tuple[float, float] = (0.5, 0.5)
    fit: str = "cover"
    credit: str | None = None


@dataclass(frozen=True)
class Card:
    """One card design; ``copies`` says how many physical cards the game has of it."""

    id: str
    type: str  # soul | creature | spell | trap | rite
    set: str  # starter | recruit | rite
    factions: tuple[str, ...]
    name: dict[str, str]
    copies: int = 1
    cost: int | None = None
    allegiance: dict[str, int] = field(default_factory=dict)
    flavor: dict[str, str] = field(default_factory=dict)
    art: IconArt | ImageArt | None = None
    keywords: Keywords = Keywords()
    effects: tuple[EffectLine, ...] = ()
    activate: tuple[EffectLine, ...] = ()
    demise: tuple[EffectLine, ...] = ()
    end_of_turn: tuple[EffectLine, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    trap: TrapSpec | None = None
    position: Position = Position("")

    def __post_init__(self) -> None:
        if isinstance(self.art, str):  # a bare path is a picture with the default crop
            object.__setattr__(self, "art", ImageArt(self.art))

    @property
    def faction(self) -> str | None:
        """The card's main faction (its frame colour); None for neutral starter cards."""
        return self.factions[0] if self.factions else None

    def all_lines(self) -> list[tuple[str, EffectLine]]:
        """Every effect line with the section it sits in, in printed order (``PRINTED_ORDER``)."""
        out: list[tuple[str, EffectLine]] = []
        for section in PRINTED_ORDER[1:]:
            if section == "triggers":
                out += [("triggers", ln) for trig in self.triggers for ln in trig.lines]
            else:
                out += [(section, ln) for ln in getattr(self, section)]
        return out


@dataclass(frozen=True)
class Faction:
    id: str
    name: dict[str, str]
    color: str
    icon: str
    identity: dict[str, str]
    position: Position = Position("")


@dataclass
class CardDatabase:
    """The whole game: factions and cards in file order, with lookups by id."""

    factions: list[Faction] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def of_set(self, card_set: str) -> list[Card]:
        return [c for c in self.cards if c.set == card_set]

    def recruit_pool(self) -> list[Card]:
        """The recruitment cards, one entry per physical copy, in database order."""
        return [c for c in self.of_set("recruit") for _ in range(c.copies)]

    def starter_deck(self, faction: str) -> list[Card]:
        """A faction's 10-card starter deck: the shared starter cards plus its 2 creatures."""
        out = []
        for c in self.of_set("starter"):
            if not c.factions or c.faction == faction:
                out += [c] * c.copies
        return out

    def rites(self) -> list[Card]:
        return self.of_set("rite")

    def collector_numbers(self) -> dict[str, int]:
        """Each card design's collector number (1..n), in ``collector_order``."""
        return {card.id: i for i, card in enumerate(collector_order(self), start=1)}

    def box_count(self, card: Card) -> int:
        """How many physical copies the box holds: neutral starter cards are in all 4 starter decks."""
        if card.set == "starter" and not card.factions:
            return card.copies * len(FACTIONS)
        return card.copies


#: Collector order of the sets: what a player opens first.
_SET_ORDER = ("starter", "recruit", "rite")


def collector_order(db: CardDatabase) -> list[Card]:
    """Every card design in collector-number order (docs/card-format.md, "Collector numbers").

    Starter cards, then recruitment cards, then Rites; within a set, neutral cards
    first, then by main faction in ``factions.yaml`` order, single-faction cards
    before multi-faction ones, then by cost, English name and id. It depends on
    the cards only, never on file order, so moving a card between files keeps
    every number.
    """
    ranks = {f.id: i for i, f in enumerate(db.factions)}

    def key(card: Card) -> tuple:
        set_rank = _SET_ORDER.index(card.set) if card.set in _SET_ORDER else len(_SET_ORDER)
        faction = -1 if card.faction is None else ranks.get(card.faction, len(ranks))
        return (set_rank, faction, len(card.factions) > 1, card.cost or 0, card.name.get("en", ""), card.id)

    return sorted(db.cards, key=key)
