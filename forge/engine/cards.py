"""Cards compiled for the engine: flat, slotted, precomputed once per database.

The engine never reads ``forge.carddb.model.Card`` in its hot loop: each design becomes a
``CardDef`` and each printed line a ``Line`` with its parameters resolved to
plain values (faction indices, ints, strings), so resolving a line is attribute
reads and no dictionary look-ups.
"""
from __future__ import annotations

from ..carddb.model import Card, CardDatabase, EffectLine
from ..carddb.vocabulary import FACTIONS, VERBS

FACTION_INDEX = {f: i for i, f in enumerate(FACTIONS)}
NO_FACTION = -1


class Line:
    """One printed effect line, ready to resolve.

    Its parameters are named for what they mean; a verb sets the ones it has and leaves the
    others at their neutral value (None, NO_FACTION, 0):

    - ``amount``: the verb's number (essence gained, wound dealt, cards drawn or chosen...);
    - ``target``: whom a destroy / exhaust / bounce / exile picks, ``"choice"`` or ``"that"``
      (the card of the triggering event);
    - ``zone``: where an exile takes its card from, or where a rift puts it (``"hand"``...);
    - ``faction``: the faction an allegiance line raises (NO_FACTION: the player chooses);
    - ``card_kind``: the card type a recover takes back (``"any"`` or a type);
    - ``threshold_faction``, ``threshold``: a conditional line acts only while its owner's
      allegiance in that faction is at least ``threshold`` (0: an unconditional line).
    """

    __slots__ = ("verb", "amount", "target", "zone", "faction", "card_kind", "threshold_faction",
                 "threshold", "may", "up_to", "timing", "card_id", "section", "index",
                 "k_res", "k_met", "k_not", "src")

    def __init__(self, card: Card, section: str, index: int, ln: EffectLine) -> None:
        spec = VERBS.get(ln.verb)
        self.verb = ln.verb
        self.amount = ln.n if (spec is None or spec.main == "n") else 0
        self.target, self.zone, self.faction, self.card_kind = _params(ln)
        thr = ln.threshold
        self.threshold_faction = FACTION_INDEX[thr.faction] if thr else NO_FACTION
        self.threshold = thr.n if thr else 0
        self.may = bool(ln.may)
        self.up_to = bool(ln.arg("up_to")) if spec and spec.param("up_to") else False
        self.timing = ln.timing
        self.card_id, self.section, self.index = card.id, section, index
        self.k_res = ("line", card.id, section, index, "resolved")
        self.k_met = ("line", card.id, section, index, "met")
        self.k_not = ("line", card.id, section, index, "not_met")
        self.src = ln

    def __repr__(self) -> str:
        return f"Line({self.card_id}:{self.section}[{self.index}] {self.verb} {self.amount})"


def _params(ln: EffectLine) -> tuple:
    """The verb-specific parameters as (target, zone, faction, card_kind)."""
    v = ln.verb
    if v in ("destroy", "exhaust", "bounce"):
        return ln.arg("target") or "choice", None, NO_FACTION, None
    if v == "exile":
        return ln.arg("target") or "choice", ln.arg("from") or "opponent_creature", NO_FACTION, None
    if v == "rift":
        return None, ln.arg("to") or "hand", NO_FACTION, None
    if v == "allegiance":
        return None, None, FACTION_INDEX.get(ln.arg("faction") or "any", NO_FACTION), None
    if v == "recover":
        return None, None, NO_FACTION, ln.arg("card") or "any"
    return None, None, NO_FACTION, None


class CardDef:
    """A card design as the engine reads it."""

    __slots__ = ("i", "card", "id", "type", "is_soul", "is_creature", "is_trap",
                 "is_rite", "cost", "reqs", "faction", "effects", "activate", "demise",
                 "end_of_turn", "triggers", "trigger_events", "sacrifice", "sacrifice_lines",
                 "trap_kind", "trap_event", "guard", "rush", "aegis", "value", "has_activate",
                 "k_played", "k_activated", "k_bought", "k_by_played", "k_by_activated", "k_by_bought",
                 "k_in_hand")

    def __init__(self, i: int, card: Card) -> None:
        self.i, self.card, self.id, self.type = i, card, card.id, card.type
        self.is_soul = card.type == "soul"
        self.is_creature = card.type == "creature"
        self.is_trap = card.type == "trap"
        self.is_rite = card.type == "rite"
        self.cost = card.cost or 0
        self.reqs = tuple((FACTION_INDEX[f], n) for f, n in sorted(card.allegiance.items(),
                                                                     key=lambda kv: FACTION_INDEX[kv[0]]))
        self.faction = FACTION_INDEX[card.faction] if card.faction else NO_FACTION
        kw = card.keywords
        self.guard, self.rush, self.aegis = bool(kw.guard), bool(kw.rush), int(kw.aegis or 0)
        # Played sections: Sacrifice lines are a cost paid at step 4, not read at step 5.
        self.sacrifice = 0
        self.sacrifice_lines: tuple[Line, ...] = ()
        played = "activate" if self.is_creature else "effects"
        self.effects = self._section(card, "effects", played == "effects")
        self.activate = self._section(card, "activate", played == "activate")
        self.has_activate = bool(card.activate)
        self.demise = self._section(card, "demise", False)
        self.end_of_turn = self._section(card, "end_of_turn", False)
        trig, index = [], 0
        for t in card.triggers:
            lines = []
            for ln in t.lines:
                lines.append(Line(card, "triggers", index, ln))
                index += 1
            trig.append((t.event, t.actor == "you", tuple(lines)))
        self.triggers = tuple(trig)
        self.trigger_events = frozenset(t[0] for t in trig)
        self.trap_kind = card.trap.kind if (self.is_trap and card.trap) else None
        self.trap_event = card.trap.event if (self.is_trap and card.trap) else None
        self.value = float(self.cost) + (0.5 if self.is_creature else 0.0)
        # Its coverage keys (State.cov, read by forge.sim.simulate), built once: the card's own count of
        # each use, and each player's (indexed by player) for the balance lab.
        self.k_played, self.k_activated, self.k_bought = ("played", self.id), ("activated", self.id), \
            ("bought", self.id)
        self.k_by_played, self.k_by_activated, self.k_by_bought, self.k_in_hand = (
            tuple(("by", p, use, self.id) for p in (0, 1)) for use in ("played", "activated", "bought", "in_hand"))

    def _section(self, card: Card, section: str, played: bool) -> tuple[Line, ...]:
        out, costs = [], []
        for i, ln in enumerate(getattr(card, section)):
            line = Line(card, section, i, ln)
            if played and ln.verb == "sacrifice":
                costs.append(line)
                self.sacrifice += line.amount
            else:
                out.append(line)
        if costs:
            self.sacrifice_lines = tuple(costs)
        return tuple(out)

    def __repr__(self) -> str:
        return f"CardDef({self.id})"


class CompiledCards:
    """Every design of a database, compiled, with the setup lists the engine needs."""

    def __init__(self, db: CardDatabase) -> None:
        self.db = db
        self.defs = [CardDef(i, c) for i, c in enumerate(db.cards)]
        self.by_id = {d.id: d for d in self.defs}
        self.rites: dict[int, CardDef] = {}
        #: Tables an engine user (an agent) works out from the designs alone, by the function that
        #: builds them (Observation.derived): once per database, beside the designs, not on them.
        self.derived: dict = {}
        self._starters: dict[str, tuple[CardDef, ...]] = {}
        self._recruit: tuple[CardDef, ...] | None = None
        for d in self.defs:
            if d.is_rite and d.faction >= 0 and d.faction not in self.rites:
                self.rites[d.faction] = d
        #: Every event some design (a creature or a Rite) of this database triggers on: State._fire
        #: looks for triggered abilities only on those.
        self.trigger_events = frozenset().union(*(d.trigger_events for d in self.defs))

    def starter(self, faction: str) -> tuple[CardDef, ...]:
        """A faction's starter deck, in database order (read once: every game deals it)."""
        deck = self._starters.get(faction)
        if deck is None:
            deck = self._starters[faction] = tuple(self.by_id[c.id] for c in self.db.starter_deck(faction))
        return deck

    def recruit(self) -> tuple[CardDef, ...]:
        """The recruitment cards, one per physical copy, in database order (read once)."""
        if self._recruit is None:
            self._recruit = tuple(self.by_id[c.id] for c in self.db.recruit_pool())
        return self._recruit
