"""Invariants that hold after every step of every game (checked by simulate and the tests)."""
from __future__ import annotations

from operator import itemgetter

from ..carddb.vocabulary import MAX_ALLEGIANCE
from .state import MAX_CREATURES, State


class InvariantError(AssertionError):
    """A state broke a rule that must always hold."""


class InvariantChecker:
    """Checks one game step by step; remembers allegiance to see that it never decreases."""

    def __init__(self, state: State) -> None:
        self.n = len(state.defs)
        self.alleg = [list(a) for a in state.alleg]
        self.ranged = False  # whether ``alleg`` is known to be within 0..6 (holds checks it once)
        # At the last step that held: the cards of player 0's zones, of player 1's, of the exile pile,
        # of the recruit deck, of the other shared zones, and every card's owner (None before the
        # first); the Rites held and their owners.
        self.last: tuple[list[int], ...] | None = None
        self.last_bytes: list[bytes] | None = None  # the same five parts, one byte a card (up to 256 cards)
        self.rites: list[list] = [[], []]  # [held by player 0 and 1, owner by faction]
        #: Every card id, one byte each (databases of up to 256 cards): see _each_once.
        self.every = bytes(range(self.n)) if self.n <= 256 else None
        self.expected: dict[tuple[int, int], tuple[int, ...]] = {}  # (owner, count) -> (owner,) * count

    def __call__(self, state: State) -> None:
        self.check(state)

    def check(self, state: State) -> None:
        if self.holds(state):
            return
        problems = list(self.problems(state))
        if problems:
            raise InvariantError(f"turn {state.turn}, decision {state.decisions}: " + "; ".join(problems))

    def holds(self, s: State) -> bool:
        """Every invariant of ``problems`` at once (it runs after each step of each simulated game).
        False sends the caller to ``problems`` for the wording (tests/balance/test_fast_paths.py
        checks that both accept exactly the same states).

        The cards are read as five parts (player 0's zones, player 1's, the exile pile, the recruit
        deck, the other shared zones) and compared with the last step that held: a part that did not
        change holds the same cards. Each part is also kept as bytes (one a card, up to 256 cards),
        converted again only when it changed. When only one player's part changed (most steps that
        move a card), it must hold the cards it held; otherwise every card is counted over the five
        parts' bytes (_each_once, one translate in C). A card that did not come into a player's part
        or the exile pile still has the owner it had at the last step, unless an owner changed: so
        only the cards that came in (a part's new bytes with its old ones deleted) have their owner
        read, or every card after an owner changed."""
        deck, hand, discard, field, played = s.deck, s.hand, s.discard, s.field, s.played
        mine = [*deck[0], *hand[0], *discard[0], *field[0], *played[0]]
        theirs = [*deck[1], *hand[1], *discard[1], *field[1], *played[1]]
        exile, recruit = s.exile, s.recruit
        row = s.row
        if -1 in row:
            row = [c for c in row if c >= 0]
        rest = [*s.set_aside, *s.resolving, *row]
        owner = s.owner
        last = self.last
        if last is None or self.last_bytes is None:  # the first step, or more than 256 cards: all read
            if not self._first(mine, theirs, exile, recruit, rest, owner):
                return False
        else:
            known0, known1, known_exile = mine == last[0], theirs == last[1], exile == last[2]
            known_recruit, known_rest, same_owners = recruit == last[3], rest == last[4], owner == last[5]
            if known0 != known1 and known_exile and known_recruit and known_rest and same_owners:
                # One player's zones changed and nothing else (a card played, drawn, summoned,
                # discarded): they hold the cards they held, each once, or the state is broken; then
                # every card is still once and its owner's, as at the last step.
                i, part = (1, theirs) if known0 else (0, mine)
                before = self.last_bytes[i]
                try:
                    now = bytes(part)
                except ValueError:  # a value outside 0..255: no card's id
                    return False
                if len(now) != len(before) or before.translate(None, now):
                    return False
                self.last = (mine, theirs, *last[2:])
                self.last_bytes[i] = now
            elif not (known0 and known1 and known_exile and known_recruit and known_rest and same_owners):
                old = self.last_bytes
                try:
                    b0 = old[0] if known0 else bytes(mine)
                    b1 = old[1] if known1 else bytes(theirs)
                    b2 = old[2] if known_exile else bytes(exile)
                    b3 = old[3] if known_recruit else bytes(recruit)
                    b4 = old[4] if known_rest else bytes(rest)
                except ValueError:  # a value outside 0..255: no card's id
                    return False
                cards = b0 + b1 + b2 + b3 + b4
                if len(cards) != self.n or self.every.translate(None, cards):  # _each_once
                    return False
                if same_owners:
                    # Only the cards that came into a player's zones or the exile pile may have
                    # another owner: the others had theirs at the last step, and no owner changed.
                    if not (known0 or self._came_owned(b0, old[0], owner, 0)) or \
                            not (known1 or self._came_owned(b1, old[1], owner, 1)) or \
                            not (known_exile or self._came_owned(b2, old[2], owner, -1)):
                        return False
                elif not self._owned_by(mine, owner, 0) or not self._owned_by(theirs, owner, 1) or \
                        not self._owned_by(exile, owner, -1):
                    return False
                self.last = (mine, theirs, last[2] if known_exile else exile[:],
                             last[3] if known_recruit else recruit[:], rest,
                             last[5] if same_owners else owner[:])
                self.last_bytes = [b0, b1, b2, b3, b4]
        if min(s.essence + s.poison) < 0 or len(field[0]) > MAX_CREATURES or len(field[1]) > MAX_CREATURES:
            return False
        # Allegiance: within 0..6 and never lower than after the last step. Unchanged since a step
        # that held, it is still in range: the range is checked again only when it moves.
        alleg = s.alleg
        changed = alleg != self.alleg
        if changed or not self.ranged:
            a0, a1 = alleg
            before = self.alleg
            if min(a0) < 0 or min(a1) < 0 or max(a0) > MAX_ALLEGIANCE or max(a1) > MAX_ALLEGIANCE:
                return False
            if any(map(int.__lt__, a0, before[0])) or any(map(int.__lt__, a1, before[1])):
                return False
        # Rites: each held by its owner, each owned by one player, one per player.
        # (As at the last step that held, they still are.)
        rites = [s.rite_of, s.rite_owner]
        if rites != self.rites:
            (r0, r1), owners = rites
            if r0 is None and r1 is None:
                if max(owners) >= 0:  # no Rite taken yet: none may have an owner
                    return False
            else:
                if (r0 is not None and owners[r0.faction] != 0) or (r1 is not None and owners[r1.faction] != 1):
                    return False
                held = (r0 is not None) + (r1 is not None)
                owned = [o for o in owners if o >= 0]
                if len(owned) != held or len(set(owned)) != held:
                    return False
            self.rites = [s.rite_of[:], owners[:]]
        # The end: the game goes on with both commanders alive and a decision posed, or it is over
        # with exactly the loser at 0 (or capped, with nobody at 0).
        if not s.terminal:
            if min(s.health) <= 0 or s.pending not in (0, 1):
                return False
        else:
            dead = [p for p in (0, 1) if s.health[p] <= 0]
            if s.capped is None:
                if s.winner is None or dead != [1 - s.winner]:
                    return False
            elif dead:
                return False
        if changed:
            self.alleg = [alleg[0][:], alleg[1][:]]
        self.ranged = True
        return True

    def _first(self, mine: list[int], theirs: list[int], exile: list[int], recruit: list[int],
               rest: list[int], owner: list[int]) -> bool:
        """The zones read whole (the first step, or any step with more than 256 cards): every card
        once, every card of a player's zones or of the exile pile with its owner; remembered."""
        cards = [*mine, *theirs, *exile, *recruit, *rest]
        if len(cards) != self.n or not self._each_once(cards) or not self._owned_by(mine, owner, 0) or \
                not self._owned_by(theirs, owner, 1) or not self._owned_by(exile, owner, -1):
            return False
        self.last = (mine, theirs, exile[:], recruit[:], rest, owner[:])
        if self.every is not None:
            self.last_bytes = [bytes(mine), bytes(theirs), bytes(exile), bytes(recruit), bytes(rest)]
        return True

    @staticmethod
    def _came_owned(now: bytes, before: bytes, owner: list[int], p: int) -> bool:
        """The cards of ``now`` that ``before`` did not hold have owner ``p``."""
        for c in now.translate(None, before):
            if owner[c] != p:
                return False
        return True

    def _owned_by(self, cards: list[int], owner: list[int], p: int) -> bool:
        """Every card of ``cards`` has owner ``p`` (their owners read in one call)."""
        k = len(cards)
        if k > 1:
            expected = self.expected.get((p, k))
            if expected is None:
                expected = self.expected[p, k] = (p,) * k
            return itemgetter(*cards)(owner) == expected
        return k == 0 or owner[cards[0]] == p

    def _each_once(self, cards: list[int] | bytes) -> bool:
        """``cards`` (n of them) holds every card id 0..n-1, so each exactly once. With up to 256
        cards, their bytes are deleted from the bytes of all ids: nothing may be left (one pass in C,
        three times a set's speed); a value outside 0..255 is no card's id."""
        if self.every is None:
            return len(set(cards)) == self.n and min(cards) >= 0 and max(cards) < self.n
        try:
            return not self.every.translate(None, bytearray(cards))
        except ValueError:
            return False

    def problems(self, s: State):
        # No card created or lost across zones (and no id that is no card's).
        zones = [s.recruit, [c for c in s.row if c >= 0], s.exile, s.set_aside, s.resolving]
        for p in (0, 1):
            zones += [s.deck[p], s.hand[p], s.discard[p], s.field[p], s.played[p]]
        total = sum(len(z) for z in zones)
        if total != self.n or len(set().union(*zones)) != self.n:
            yield f"cards across zones: {total} placed, {len(set().union(*zones))} distinct, {self.n} exist"
        strange = sorted(c for z in zones for c in z if not 0 <= c < self.n)
        if strange:
            yield f"card ids {strange} in the zones: no card has them (0..{self.n - 1})"
        for p in (0, 1):
            for zone in (s.deck[p], s.hand[p], s.discard[p], s.field[p], s.played[p]):
                for c in zone:
                    if c not in strange and s.owner[c] != p:
                        yield f"card {c} in player {p}'s zones belongs to {s.owner[c]}"
            if s.essence[p] < 0:
                yield f"player {p} essence {s.essence[p]} < 0"
            for f, v in enumerate(s.alleg[p]):
                if not 0 <= v <= MAX_ALLEGIANCE:
                    yield f"player {p} allegiance {f} = {v} outside 0..6"
                if v < self.alleg[p][f]:
                    yield f"player {p} allegiance {f} decreased {self.alleg[p][f]} -> {v}"
            if len(s.field[p]) > MAX_CREATURES:
                yield f"player {p} has {len(s.field[p])} creatures"
            if s.poison[p] < 0:
                yield f"player {p} poison {s.poison[p]} < 0"
        for c in s.exile:
            if c not in strange and s.owner[c] != -1:
                yield f"exiled card {c} belongs to {s.owner[c]}"
        self.alleg = [list(a) for a in s.alleg]
        self.ranged = False
        # Each Rite owned at most once and at most one per player.
        for p in (0, 1):
            r = s.rite_of[p]
            if r is not None and s.rite_owner[r.faction] != p:
                yield f"player {p} holds {r.id} but its owner is {s.rite_owner[r.faction]}"
        owned = [o for o in s.rite_owner if o >= 0]
        if len(owned) != len(set(owned)) or len(owned) != sum(r is not None for r in s.rite_of):
            yield f"Rites owned {s.rite_owner}, held {[r and r.id for r in s.rite_of]}"
        # The game ends exactly when a commander reaches 0.
        dead = [p for p in (0, 1) if s.health[p] <= 0]
        if s.terminal and s.capped is None:
            if s.winner is None or dead != [1 - s.winner]:
                yield f"game over with winner {s.winner} and health {s.health}"
        elif dead:
            yield f"health {s.health} but the game goes on"
        if not s.terminal and s.pending not in (0, 1):
            yield f"no decision pending ({s.pending}) in a running game"
