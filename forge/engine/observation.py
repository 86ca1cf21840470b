"""What one player may see: public information plus their own hand (GP 7).

An agent gets an ``Observation``, never the state. It reads the battlefield,
discard piles, exile pile, counters, the recruitment row and the size of every
hand and deck; it reads its own hand, and no deck's order nor the opponent's hand.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from ..carddb.model import Card
from .cards import CardDef
from .tasks import Drain, Guard, Lines, Window

T = TypeVar("T")


class HiddenCard(LookupError):
    """An agent asked about a card it cannot see."""


class Observation:
    """A read-only view of a state for one player."""

    __slots__ = ("_s", "player")

    def __init__(self, state, player: int) -> None:
        self._s = state
        self.player = player

    # -- counters and turn --------------------------------------------------------------
    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def active(self) -> int:
        return self._s.active

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def decision(self) -> str:
        return self._s.decision_kind()

    def health(self, p: int) -> int:
        return self._s.health[p]

    def poison(self, p: int) -> int:
        return self._s.poison[p]

    def essence(self, p: int) -> int:
        return self._s.essence[p]

    def allegiance(self, p: int) -> tuple[int, ...]:
        return tuple(self._s.alleg[p])

    def raised_this_turn(self, p: int) -> bool:
        return self._s.raised[p]

    def rite(self, p: int) -> str | None:
        r = self._s.rite_of[p]
        return r.id if r is not None else None

    def rites_available(self) -> tuple[int, ...]:
        """Faction indices whose Rite nobody owns yet."""
        rites = self._s.cards.rites
        return tuple([f for f, o in enumerate(self._s.rite_owner) if o < 0 and f in rites])

    def faction(self, p: int) -> str:
        return self._s.factions[p]

    # -- zones ----------------------------------------------------------------------------
    def hand(self) -> tuple[int, ...]:
        """Your own hand (card instances)."""
        return tuple(self._s.hand[self.player])

    def hand_size(self, p: int) -> int:
        return len(self._s.hand[p])

    def deck_size(self, p: int) -> int:
        return len(self._s.deck[p])

    def discard_pile(self, p: int) -> tuple[int, ...]:
        return tuple(self._s.discard[p])

    def battlefield(self, p: int) -> tuple[int, ...]:
        return tuple(self._s.field[p])

    def is_exhausted(self, cid: int) -> bool:
        self._check(cid)
        return self._s.exhausted[cid]

    def played(self, p: int) -> tuple[int, ...]:
        return tuple(self._s.played[p])

    def exile_pile(self) -> tuple[int, ...]:
        return tuple(self._s.exile)

    def recruitment_row(self) -> tuple[int, ...]:
        """The 8 slots: a card instance, or -1 for an emptied slot."""
        return tuple(self._s.row)

    def recruit_deck_size(self) -> int:
        return len(self._s.recruit)

    def wound_pending(self) -> int:
        """At a Guard decision, the damage a Guard would cancel."""
        t = self._s.stack[-1] if self._s.stack else None
        return t.damage if type(t) is Guard and not self._s.terminal else 0

    def announced(self) -> int:
        """In a step-3 window, the card played or the creature activated (public: it was
        shown at step 1); -1 after a summon, or when no card is being resolved."""
        s = self._s
        stack = s.stack
        if not stack or type(stack[-1]) is not Window:
            return -1
        for t in reversed(stack[:-1]):
            if type(t) is Lines:
                return t.cid
            if type(t) is Drain:
                break
        return -1

    # -- cards ----------------------------------------------------------------------------
    def derived(self, build: Callable[[list[CardDef]], T]) -> T:
        """``build(designs)`` over every design of this game's card database (public: the whole
        card pool, by ``CardDef.i``), worked out the first time any game of that database asks and
        shared by all of them since: what an agent reads of a design, computed once."""
        tables = self._s.cards.derived
        table = tables.get(build)
        if table is None:
            table = tables[build] = build(self._s.cards.defs)
        return table

    def card(self, cid: int) -> Card:
        """The design of a visible card instance."""
        return self.defn(cid).card

    def defn(self, cid: int) -> CardDef:
        s = self._s
        owner = s.owner[cid]
        if owner == self.player:  # the agents' most frequent question: a card of their own (see _check)
            # In the hand or on the battlefield (a few cards each, asked about most) it is seen;
            # elsewhere, unless it is in the deck.
            if cid not in s.hand[owner] and cid not in s.field[owner] and cid in s.deck[owner]:
                raise HiddenCard(f"card instance {cid} is hidden from player {self.player}")
            return s.defs[cid]
        self._check(cid)
        return s.defs[cid]

    def _check(self, cid: int) -> None:
        """Hidden: in the opponent's hand, in a deck, in the recruit deck. The owner says which of
        these zones the card can be in (forge.engine.invariants keeps owners and zones in step), so
        one short zone is searched, not four; the recruitment row, face up, is looked at first."""
        s = self._s
        owner = s.owner[cid]
        if owner == self.player:
            hidden = cid in s.deck[owner]
        elif owner >= 0:
            hidden = cid in s.hand[owner] or cid in s.deck[owner]
        else:
            hidden = cid not in s.row and cid in s.recruit
        if hidden:
            raise HiddenCard(f"card instance {cid} is hidden from player {self.player}")
