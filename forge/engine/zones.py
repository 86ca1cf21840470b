"""Cards moving between zones, and allegiance with the Rites it brings.

Apart from the rest of ``State`` because every rule that moves a card (a draw with its
reshuffle, a destruction with its Demise, a discard) keeps the same bookkeeping: the card's
stamp (a card that changes zones is a new card), its exhaustion, its owner, the log and the
coverage counts. The zones themselves are ``State``'s lists.
"""
from __future__ import annotations

from ..carddb.vocabulary import MAX_ALLEGIANCE
from .rules import count


class ZonesMixin:
    """Zones, allegiance and Rites: part of ``State``."""

    def _draw(self, p: int, n: int) -> None:
        """Draw n cards, reshuffling the discard pile whenever the deck is empty (Cleanup 5)."""
        deck, hand = self.deck[p], self.hand[p]
        cov = self.cov
        drawn = 0
        for _ in range(n):
            if not deck:
                disc = self.discard[p]
                if not disc:
                    break
                deck.extend(disc)
                disc.clear()
                self.rng.shuffle(deck)
                if self.log is not None:
                    self.log.append(("reshuffle", p, len(deck)))
            c = deck.pop()
            hand.append(c)
            self.stamp[c] = self.next_stamp
            self.next_stamp += 1
            drawn += 1
            if cov is not None:
                k = self.defs[c].k_in_hand[p]  # had in hand: the balance lab (count, inlined)
                cov[k] = cov.get(k, 0) + 1
        if drawn and self.log is not None:
            self.log.append(("draw", p, drawn))

    def _cov_hand(self, p: int, cid: int) -> None:
        """A card came to ``p``'s hand other than by a draw (the balance lab's "had in hand")."""
        if self.cov is not None:
            count(self.cov, self.defs[cid].k_in_hand[p])

    def _stamp(self, cid: int) -> None:
        self.stamp[cid] = self.next_stamp
        self.next_stamp += 1

    def _sacrificable(self, p: int) -> int:
        return 0 if self.protect[p] else len(self.field[p])

    def _destroy(self, cid: int, by: int) -> bool:
        """Destroyed: to its owner's discard pile, its Demise waits (unless protected)."""
        return bool(self._destroy_together((cid,), by))

    def _destroy_together(self, cids, by: int) -> list[int]:
        """Creatures destroyed by one effect (Destroy N, a Sacrifice payment) leave play together:
        all go to the discard pile first, then each Demise waits and each event fires, so none of
        them sees the others' destruction, whatever the order they were chosen in."""
        gone = []
        for cid in cids:
            o = self.owner[cid]
            if self.protect[o] or cid not in self.field[o]:
                continue
            self.field[o].remove(cid)
            self.exhausted[cid] = False
            gone.append((cid, o, self.stamp[cid]))
            self.stamp[cid] = 0
            self.discard[o].append(cid)
            if self.log is not None:
                self.log.append(("destroy", by, cid))
        for cid, o, stamp in gone:
            d = self.defs[cid]
            if d.demise:
                self._trigger(o, d.demise, (cid, stamp), self._ft, d, cid)
            self._fire("destroy", by, (cid, 0), o)
        return [g[0] for g in gone]

    def _leave_field(self, cid: int) -> int:
        o = self.owner[cid]
        self.field[o].remove(cid)
        self.exhausted[cid] = False
        self.stamp[cid] = 0
        return o

    def _discard_cards(self, v: int, cids: tuple) -> None:
        for cid in cids:
            self.hand[v].remove(cid)
            self.discard[v].append(cid)
            if self.log is not None:
                self.log.append(("discard", v, cid))

    def _gain_allegiance(self, p: int, points: list[int]) -> None:
        """Raise allegiance (capped at 6), fire one event, then take any Rite reached."""
        al = self.alleg[p]
        reached = []
        gained = False
        for f in points:
            if al[f] < MAX_ALLEGIANCE:
                al[f] += 1
                gained = True
                if al[f] == MAX_ALLEGIANCE:
                    reached.append(f)
                if self.log is not None:
                    self.log.append(("allegiance", p, f, al[f]))
        if not gained:
            return
        self._fire("allegiance", p, (-1, 0), -1)
        for f in reached:
            self._take_rite(p, f)

    def _take_rite(self, p: int, f: int) -> None:
        if self.rite_of[p] is not None or self.rite_owner[f] >= 0:  # RITE_SLOTS: one per player
            return
        rite = self.cards.rites.get(f)
        if rite is None:
            return
        self.rite_of[p] = rite
        self.rite_owner[f] = p
        if self.cov is not None:
            count(self.cov, ("rite", rite.id))
        if self.log is not None:
            self.log.append(("rite", p, rite.id))
