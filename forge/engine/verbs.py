"""What each verb of a printed line does (``VERBS``: the verb's name to its handler).

Apart from the rest of ``State`` because a verb is the one place a line's parameters
(``Line.amount``, ``target``, ``zone``...) become changes to the game: a verb that acts at once
changes the state here; one that needs a choice stacks a ``Pick`` (``picks``).
"""
from __future__ import annotations

from .cards import Line
from .tasks import (P_BOUNCE, P_DESTROY, P_DISCARD, P_EXHAUST, P_EXILE, P_FACTION, P_RECOVER, P_RIFT,
                    P_SACRIFICE, Pick)


class VerbsMixin:
    """The verbs: part of ``State``. Each handler takes the line's owner, the line and the event
    ref ("that" card) it was triggered by."""

    def _v_essence(self, p: int, ln: Line, ctx) -> None:
        self.essence[p] += ln.amount
        if self.log is not None:
            self.log.append(("essence", p, ln.amount))

    def _v_wound(self, p: int, ln: Line, ctx) -> None:
        self._wound(p, ln.amount, self._ft)

    def _v_unblockable(self, p: int, ln: Line, ctx) -> None:
        self._deal_wound(p, 1 - p, ln.amount, self._ft)

    def _v_poison(self, p: int, ln: Line, ctx) -> None:
        self.poison[1 - p] += ln.amount
        if self.log is not None:
            self.log.append(("poison", 1 - p, ln.amount))

    def _v_draw(self, p: int, ln: Line, ctx) -> None:
        self._draw(p, ln.amount)

    def _v_discard(self, p: int, ln: Line, ctx) -> None:
        v = 1 - p
        if len(self.hand[v]) <= ln.amount:
            self._discard_cards(v, tuple(self.hand[v]))
        else:
            self.stack.append(Pick(P_DISCARD, v, ln.amount, False, (), None, None, self._ft))

    def _v_targeted(self, p: int, ln: Line, ctx, purpose: int) -> None:
        if ln.target == "that":
            cid = self._that(purpose, p, ln, ctx)
            if cid >= 0:
                self._pick_done(purpose, p, (cid,), ln, None, self._ft)
            return
        self.stack.append(Pick(purpose, p, ln.amount, ln.up_to, (), ln, None, self._ft))

    def _v_destroy(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_DESTROY)

    def _v_sacrifice(self, p: int, ln: Line, ctx) -> None:
        # Only reached in a triggered section: destroy your own creatures, as many as possible.
        self.stack.append(Pick(P_SACRIFICE, p, ln.amount, False, (), None, None, self._ft))

    def _v_exile(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_EXILE)

    def _v_rift(self, p: int, ln: Line, ctx) -> None:
        self.stack.append(Pick(P_RIFT, p, ln.amount, ln.up_to, (), ln, None, self._ft))

    def _v_allegiance(self, p: int, ln: Line, ctx) -> None:
        if ln.faction >= 0:
            self._gain_allegiance(p, [ln.faction] * ln.amount)
        else:
            self.stack.append(Pick(P_FACTION, p, ln.amount, False, (), None, None, self._ft))

    def _v_recover(self, p: int, ln: Line, ctx) -> None:
        self.stack.append(Pick(P_RECOVER, p, ln.amount, ln.up_to, (), ln, None, self._ft))

    def _v_exhaust(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_EXHAUST)

    def _v_bounce(self, p: int, ln: Line, ctx) -> None:
        self._v_targeted(p, ln, ctx, P_BOUNCE)

    def _v_divine_shield(self, p: int, ln: Line, ctx) -> None:
        self.shield[p] = 1  # "if active": a second Divine Shield adds nothing
        if self.log is not None:
            self.log.append(("shield", p))

    def _v_protect(self, p: int, ln: Line, ctx) -> None:
        self.protect[p] = True
        if self.log is not None:
            self.log.append(("protect", p))

    def _that(self, purpose: int, p: int, ln: Line, ctx) -> int:
        """The card of the triggering event, if it is still where the effect looks for it."""
        if not ctx:
            return -1
        cid, stamp = ctx
        if cid < 0:
            return -1
        o = 1 - p
        if purpose == P_EXILE and ln.zone != "opponent_creature":
            zone = {"opponent_discard": self.discard[o], "your_hand": self.hand[p],
                    "your_discard": self.discard[p]}[ln.zone]
            return cid if cid in zone else -1
        if cid in self.field[o] and self.stamp[cid] == stamp:
            if purpose == P_DESTROY and self.protect[o]:
                return -1
            if purpose == P_EXHAUST and self.exhausted[cid]:
                return -1
            return cid
        return -1


#: Each verb's handler, called as ``VERBS[line.verb](state, owner, line, ctx)``.
VERBS = {
    "essence": VerbsMixin._v_essence,
    "wound": VerbsMixin._v_wound,
    "unblockable_wound": VerbsMixin._v_unblockable,
    "poison": VerbsMixin._v_poison,
    "draw": VerbsMixin._v_draw,
    "discard": VerbsMixin._v_discard,
    "destroy": VerbsMixin._v_destroy,
    "sacrifice": VerbsMixin._v_sacrifice,
    "exile": VerbsMixin._v_exile,
    "rift": VerbsMixin._v_rift,
    "allegiance": VerbsMixin._v_allegiance,
    "recover": VerbsMixin._v_recover,
    "exhaust": VerbsMixin._v_exhaust,
    "bounce": VerbsMixin._v_bounce,
    "divine_shield": VerbsMixin._v_divine_shield,
    "protect_creatures": VerbsMixin._v_protect,
}
#: Verbs the engine can resolve (tests check this covers the whole vocabulary).
HANDLED_VERBS = frozenset(VERBS)
