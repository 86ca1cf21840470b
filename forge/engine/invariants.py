"""Invariants that hold after every step of every game (checked by simulate and the tests)."""
from __future__ import annotations

from ..vocabulary import MAX_ALLEGIANCE
from .state import MAX_CREATURES, State


class InvariantError(AssertionError):
    """A state broke a rule that must always hold."""


class InvariantChecker:
    """Checks one game step by step; remembers allegiance to see that it never decreases."""

    def __init__(self, state: State) -> None:
        self.n = len(state.defs)
        self.alleg = [list(a) for a in state.alleg]

    def __call__(self, state: State) -> None:
        self.check(state)

    def check(self, state: State) -> None:
        if self.holds(state):
            return
        problems = list(self.problems(state))
        if problems:
            raise InvariantError(f"turn {state.turn}, decision {state.decisions}: " + "; ".join(problems))

    def holds(self, s: State) -> bool:
        """Every invariant of ``problems`` at once, the work done by built-ins over whole zones (it runs
        after each step of each simulated game); False sends the caller to ``problems`` for the wording."""
        owner = s.owner.__getitem__
        deck, hand, discard, field, played = s.deck, s.hand, s.discard, s.field, s.played
        zones = (s.recruit, s.exile, s.set_aside, s.resolving, deck[0], hand[0], discard[0], field[0], played[0],
                 deck[1], hand[1], discard[1], field[1], played[1])
        row = [c for c in s.row if c >= 0]
        n = self.n
        if sum(map(len, zones)) + len(row) != n or len(set(row).union(*zones)) != n:
            return False
        if set(map(owner, deck[0] + hand[0] + discard[0] + field[0] + played[0])) - {0} or \
                set(map(owner, deck[1] + hand[1] + discard[1] + field[1] + played[1])) - {1}:
            return False
        if s.exile and set(map(owner, s.exile)) != {-1}:
            return False
        essence, poison = s.essence, s.poison
        if essence[0] < 0 or essence[1] < 0 or poison[0] < 0 or poison[1] < 0 or \
                len(field[0]) > MAX_CREATURES or len(field[1]) > MAX_CREATURES:
            return False
        a0, a1 = s.alleg
        if min(a0) < 0 or min(a1) < 0 or max(a0) > MAX_ALLEGIANCE or max(a1) > MAX_ALLEGIANCE:
            return False
        before = self.alleg
        if a0 != before[0] or a1 != before[1]:
            if any(map(int.__lt__, a0, before[0])) or any(map(int.__lt__, a1, before[1])):
                return False
        if not self._rites_hold(s) or not self._end_holds(s):
            return False
        if a0 != before[0] or a1 != before[1]:
            self.alleg = [a0[:], a1[:]]
        return True

    @staticmethod
    def _rites_hold(s: State) -> bool:
        if s.rite_of[0] is None and s.rite_of[1] is None:
            return max(s.rite_owner) < 0  # no Rite taken yet: none may have an owner
        for p in (0, 1):
            r = s.rite_of[p]
            if r is not None and s.rite_owner[r.faction] != p:
                return False
        owned = [o for o in s.rite_owner if o >= 0]
        return len(owned) == len(set(owned)) and len(owned) == sum(r is not None for r in s.rite_of)

    @staticmethod
    def _end_holds(s: State) -> bool:
        dead = [p for p in (0, 1) if s.health[p] <= 0]
        if s.terminal and s.capped is None:
            return s.winner is not None and dead == [1 - s.winner]
        return not dead and (s.terminal or s.pending in (0, 1))

    def problems(self, s: State):
        # No card created or lost across zones.
        zones = [s.recruit, [c for c in s.row if c >= 0], s.exile, s.set_aside, s.resolving]
        for p in (0, 1):
            zones += [s.deck[p], s.hand[p], s.discard[p], s.field[p], s.played[p]]
        total = sum(len(z) for z in zones)
        if total != self.n or len(set().union(*zones)) != self.n:
            yield f"cards across zones: {total} placed, {len(set().union(*zones))} distinct, {self.n} exist"
        for p in (0, 1):
            for zone in (s.deck[p], s.hand[p], s.discard[p], s.field[p], s.played[p]):
                for c in zone:
                    if s.owner[c] != p:
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
            if s.owner[c] != -1:
                yield f"exiled card {c} belongs to {s.owner[c]}"
        self.alleg = [list(a) for a in s.alleg]
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
