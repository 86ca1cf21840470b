"""The turn (initiation, strategy, cleanup) and the active player's main decision.

Apart from the rest of ``State`` because this is the game's outer loop: what happens between
decisions of the active player, the options they have, and the cleanup's steps. What an option
sets going (a card played, a purchase) is ``playing``'s and ``chains``'.
"""
from __future__ import annotations

from ..carddb.vocabulary import MAX_ALLEGIANCE
from .actions import END, Action
from .rules import (CLEANUP, HAND_SIZE, INITIATION, KEEP_AT_CLEANUP, MAX_CREATURES, NF, PLAYERS, POISON_DECAY, RAISE_COST, ROW_SIZE,
                    STRATEGY, GameOver, count)
from .tasks import (CLEANUP_KEEP, CLEANUP_START, DRAIN, END_TURN, IDLE_WINDOWS, MAIN, MAIN_OFFERED, P_KEEP, TURN, Main,
                    Pick, Task)

_RAISE_ACTS = tuple(Action("raise", f) for f in range(NF))
_BUY_ACTS = tuple(Action("buy", s) for s in range(ROW_SIZE))
#: Cleanup step 4's choice, by player, before the first card is kept (built once: tasks never change).
_KEEP_PICKS = tuple(Pick(P_KEEP, p, KEEP_AT_CLEANUP, True, (), None, None, False) for p in range(PLAYERS))


class TurnMixin:
    """The turn's structure: part of ``State``."""

    def _run_turn(self, task: Task) -> None:
        self.turn += 1
        if self.turn > self.game.turn_cap:
            self._cap("turns")
            raise GameOver
        p = self.active
        if self.log is not None:
            self.log.append(("turn", self.turn, p))
        # Initiation: poison damage, then remove 1; nothing stops it.
        self.phase = INITIATION
        if self.poison[p] > 0:
            dmg = self.poison[p]
            if self.log is not None:
                self.log.append(("poison_damage", p, dmg))
            self._damage(p, dmg)  # a commander at 0 loses here: the removal below never happens (GP 8)
            self.poison[p] -= POISON_DECAY
        # Strategy phase.
        self.phase = STRATEGY
        self.raised[p] = False
        if self.bonus[p]:
            # Setup 7: the second player's 2 extra essence, at their first strategy phase.
            self.bonus[p] = False
            self.essence[p] += 2
            if self.log is not None:
                self.log.append(("essence", p, 2))
        self.stack[-1] = MAIN

    def _run_main(self, task: Main) -> None:
        p = self.active
        if not task.window_offered:
            # Nothing is resolving: the opponent may play a trap without trigger / "each time" (a
            # hand without one has no window: _trap_options' first test, before the call).
            self.stack[-1] = MAIN_OFFERED
            if not self.free_traps.isdisjoint(self.hand[1 - p]) and self._trap_options(1 - p, (), True):
                self.stack.append(IDLE_WINDOWS[1 - p])
                return
            # No window: nothing waits either (_advance emptied _when and _now before this task).
        # Always posed, even when ending the turn is the only option.
        self.pending = p
        self.options = self._main_options()

    def _main_options(self) -> list[Action]:
        p = self.active
        defs = self.defs
        al = self.alleg[p]
        g = self.game
        opts: list[Action] = []
        seen = set()
        field = self.field[p]
        room = len(field) < MAX_CREATURES
        sac = 0 if self.protect[p] else len(field)  # _sacrificable
        for cid in self.hand[p]:
            d = defs[cid]
            if d.is_trap or d.i in seen:
                continue
            seen.add(d.i)
            for f, n in d.reqs:
                if al[f] < n:
                    break
            else:
                if d.is_creature:
                    if room:
                        opts.append(g.act_summon[cid])
                elif d.sacrifice <= sac:
                    opts.append(g.act_play[cid])
        exh = self.exhausted
        for cid in field:
            d = defs[cid]
            if d.has_activate and not exh[cid] and d.sacrifice <= sac:
                opts.append(g.act_activate[cid])
        ess = self.essence[p]
        if ess >= RAISE_COST and not self.raised[p]:
            if max(al) < MAX_ALLEGIANCE:
                opts.extend(_RAISE_ACTS)  # no faction at 6 yet: each one
            else:
                for f in range(NF):
                    if al[f] < MAX_ALLEGIANCE:
                        opts.append(_RAISE_ACTS[f])
        row = self.row
        if row != self._row_seen:
            self._row_seen, self._row_buys = row[:], self._offers(row)
        offers, cheapest, dearest, every = self._row_buys
        if ess >= dearest:
            opts.extend(every)  # each design on offer is affordable
        elif ess >= cheapest:
            for cost, act in offers:
                if cost <= ess:
                    opts.append(act)
        opts.append(END)
        return opts

    def _offers(self, row: list[int]) -> tuple:
        """The row's purchase options, each design's first slot with its cost, in slot order (the
        same design twice in the row is one option); the cheapest and the dearest cost, and every
        option (so that essence enough for all, or for none, costs no loop). Kept while the row
        stays as it is: it changes only when a card leaves it."""
        defs = self.defs
        seen = set()
        offers = []
        for slot in range(ROW_SIZE):
            cid = row[slot]
            if cid >= 0:
                d = defs[cid]
                if d.i not in seen:
                    seen.add(d.i)
                    offers.append((d.cost, _BUY_ACTS[slot]))
        costs = [cost for cost, _ in offers]
        return tuple(offers), min(costs, default=0), max(costs, default=0), tuple(act for _, act in offers)

    def _apply_main(self, task: Main, action: Action) -> None:
        p = self.active
        self.stack[-1] = MAIN
        kind = action.kind
        if kind == "play":
            self._play_card(p, action.a)
        elif kind == "summon":
            self._summon(p, action.a)
        elif kind == "activate":
            self._activate(p, action.a)
        elif kind == "buy":
            self._buy(p, action.a)
        elif kind == "raise":
            self._raise_action(p, action.a)
        elif kind == "end":
            self.stack[-1] = CLEANUP_START
        else:  # pragma: no cover - options are built by _main_options
            raise AssertionError(action)

    def _buy(self, p: int, slot: int) -> None:
        cid = self.row[slot]
        d = self.defs[cid]
        self.essence[p] -= d.cost
        self.owner[cid] = p
        self.discard[p].append(cid)
        # Replace it at once, before any reaction; an empty recruit deck leaves the slot empty.
        self.row[slot] = self.recruit.pop() if self.recruit else -1
        if self.cov is not None:
            count(self.cov, d.k_bought)
            count(self.cov, d.k_by_bought[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("buy", p, cid, d.cost))
        self._ft = False
        self._fire("buy", p, (cid, 0), -1)
        self.stack.append(DRAIN)

    def _raise_action(self, p: int, f: int) -> None:
        self.essence[p] -= RAISE_COST
        self.raised[p] = True
        self._ft = False
        self._gain_allegiance(p, [f])
        self.stack.append(DRAIN)

    # -- cleanup ------------------------------------------------------------------------

    def _run_cleanup(self, task: Task) -> None:
        p = self.active
        self.phase = CLEANUP
        # 1. Ready all your creatures.
        for cid in self.field[p]:
            self.exhausted[cid] = False
        # 2. "End of your turn" effects wait; the active player orders them.
        for cid in self.field[p]:
            d = self.defs[cid]
            if d.end_of_turn:
                self._trigger(p, d.end_of_turn, None, False, d, cid)
        rite = self.rite_of[p]
        if rite is not None and rite.end_of_turn:
            self._trigger(p, rite.end_of_turn, None, False, rite, -1)
        self.stack[-1] = CLEANUP_KEEP
        self.stack.append(DRAIN)

    def _run_cleanup_keep(self, task: Task) -> None:
        p = self.active
        # 3. Unspent essence is lost.
        self.essence[p] = 0
        # 4. Keep 0 up to KEEP_AT_CLEANUP (2) cards.
        self.stack[-1] = END_TURN
        if self.hand[p]:
            self.stack.append(_KEEP_PICKS[p])
        else:
            self._discard_played(p)

    def _keep(self, p: int, kept: tuple) -> None:
        hand = self.hand[p]
        rest = [c for c in hand if c not in kept]
        self.hand[p] = list(kept)
        self.discard[p].extend(rest)
        if self.log is not None:
            self.log.append(("keep", p, len(kept), len(rest)))
        self._discard_played(p)

    def _discard_played(self, p: int) -> None:
        if self.played[p]:
            self.discard[p].extend(self.played[p])
            self.played[p] = []

    def _run_endturn(self, task: Task) -> None:
        p = self.active
        # 5. Draw until 5 cards in hand.
        need = HAND_SIZE - len(self.hand[p])
        if need > 0:
            self._draw(p, need)
        # "Until the end of the turn" effects expire.
        self.shield = [0, 0]
        self.protect = [False, False]
        self.listeners = []
        self.active = 1 - p
        self.stack[-1] = TURN

    def _run_setup_end(self, task: Task) -> None:
        """Expert variant 3: shuffle the set-aside cards back into the recruit deck."""
        if self.set_aside:
            self.recruit.extend(self.set_aside)
            self.set_aside = []
            self.rng.shuffle(self.recruit)
        self.stack[-1] = TURN
