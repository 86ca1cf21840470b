"""Choosing cards (or factions) one at a time, then applying the effect to all of them together.

Apart from the rest of ``State`` because every targeted verb, the Sacrifice cost, the cleanup's
keep and the expert set-aside share one loop: the candidates, one decision per card (or a
forced one when there is no choice), then ``_pick_done`` acts on everything chosen at once.
"""
from __future__ import annotations

from ..carddb.vocabulary import MAX_ALLEGIANCE
from .actions import STOP, Action
from .rules import NF, count
from .tasks import (P_BOUNCE, P_DESTROY, P_DISCARD, P_EXHAUST, P_EXILE, P_FACTION, P_KEEP, P_RECOVER, P_RIFT,
                    P_SACRIFICE, P_SETASIDE, Pick)

_FACTION_ACTS = tuple(Action("faction", f) for f in range(NF))
#: Purposes whose candidates are creatures in play: each instance is an option (they differ by
#: their state), where in a hand or a pile the same design twice is one option.
_EACH_INSTANCE = (P_DESTROY, P_SACRIFICE, P_EXHAUST, P_BOUNCE)


class PicksMixin:
    """The pick loop: part of ``State``."""

    def _pick_cands(self, purpose: int, p: int, picked: tuple, line) -> list[int]:
        """Everything the chooser may still pick (before de-duplication)."""
        o = 1 - p
        if purpose == P_DESTROY:
            if self.protect[o]:
                return []
            return [c for c in self.field[o] if c not in picked]
        if purpose == P_SACRIFICE:
            if self.protect[p]:
                return []
            return [c for c in self.field[p] if c not in picked]
        if purpose == P_EXHAUST:
            return [c for c in self.field[o] if not self.exhausted[c] and c not in picked]
        if purpose == P_BOUNCE:
            return [c for c in self.field[o] if c not in picked]
        if purpose == P_EXILE:
            zone = line.zone
            src = (self.field[o] if zone == "opponent_creature" else self.discard[o]
                   if zone == "opponent_discard" else self.hand[p] if zone == "your_hand"
                   else self.discard[p])
            return [c for c in src if c not in picked]
        if purpose == P_RIFT:
            return [c for c in self.exile if c not in picked]
        if purpose == P_RECOVER:
            kind = line.card_kind
            return [c for c in self.discard[p] if c not in picked and
                    (kind == "any" or self.defs[c].type == kind)]
        if purpose in (P_DISCARD, P_KEEP):
            return [c for c in self.hand[p] if c not in picked]
        if purpose == P_SETASIDE:
            return [c for c in self.row if c >= 0]
        raise AssertionError(purpose)

    def _run_pick(self, task: Pick) -> None:
        purpose, p, picked = task.purpose, task.player, task.picked
        left = task.count - len(picked)
        if purpose == P_FACTION:
            al = self.alleg[p]
            cands = [f for f in range(NF) if al[f] + picked.count(f) < MAX_ALLEGIANCE]
            if left <= 0 or not cands:
                self.stack.pop()
                self._ft = task.from_trap
                self._gain_allegiance(p, list(picked))
                return
            opts = [_FACTION_ACTS[f] for f in cands]
        else:
            cands = self._pick_cands(purpose, p, picked, task.line)
            if left <= 0 or not cands:
                self._close_pick(task, picked)
                return
            optional = task.optional
            if not optional and len(cands) <= left:
                self._close_pick(task, picked + tuple(cands))  # no choice: all of them
                return
            act = self.game.act_pick
            if purpose in _EACH_INSTANCE or (purpose == P_EXILE and task.line.zone == "opponent_creature"):
                opts = [act[c] for c in cands]
            else:
                opts = []
                seen = set()
                defs = self.defs
                for c in cands:
                    i = defs[c].i
                    if i not in seen:
                        seen.add(i)
                        opts.append(act[c])
            if optional:
                opts.append(STOP)
        choice = self._ask(p, opts)
        if choice is not None:
            self._apply_pick(task, choice)

    def _apply_pick(self, task: Pick, action: Action) -> None:
        purpose, p = task.purpose, task.player
        if action.kind == "stop":
            self._close_pick(task, task.picked)
            return
        if purpose == P_SETASIDE:
            # Expert variant 2: each card set aside is replaced at once.
            cid = action.a
            slot = self.row.index(cid)
            self.set_aside.append(cid)
            self.row[slot] = self.recruit.pop() if self.recruit else -1
            if self.log is not None:
                self.log.append(("set_aside", p, cid))
        self.stack[-1] = task.adding(action.a)

    def _close_pick(self, task: Pick, picked: tuple) -> None:
        """The pick is over: off the stack, and its effect applied to ``picked``."""
        self.stack.pop()
        self._pick_done(task.purpose, task.player, picked, task.line, task.cost_of, task.from_trap)

    def _pick_done(self, purpose: int, p: int, picked: tuple, line, cost_of, ft: bool) -> None:
        """Apply a targeted effect to everything chosen, together (``line`` asked for it;
        ``cost_of``: the design whose Sacrifice cost is paid)."""
        log = self.log
        self._ft = ft
        if purpose == P_DESTROY:
            self._destroy_together(picked, p)
        elif purpose == P_SACRIFICE:
            if cost_of is not None and self.cov is not None:
                for ln in cost_of.sacrifice_lines:
                    count(self.cov, ln.k_res)
            self._destroy_together(picked, p)
        elif purpose == P_EXHAUST:
            for cid in picked:
                self.exhausted[cid] = True
                if log is not None:
                    log.append(("exhaust", p, cid))
        elif purpose == P_BOUNCE:
            for cid in picked:
                o = self._leave_field(cid)
                self.hand[o].append(cid)
                self._stamp(cid)
                self._cov_hand(o, cid)
                if log is not None:
                    log.append(("bounce", p, cid))
        elif purpose == P_EXILE:
            zone = line.zone
            for cid in picked:
                if zone == "opponent_creature":
                    self._leave_field(cid)
                elif zone == "opponent_discard":
                    self.discard[1 - p].remove(cid)
                elif zone == "your_hand":
                    self.hand[p].remove(cid)
                else:
                    self.discard[p].remove(cid)
                self.owner[cid] = -1
                self.exile.append(cid)
                if log is not None:
                    log.append(("exile", p, cid))
        elif purpose == P_RIFT:
            to_hand = line.zone == "hand"
            for cid in picked:
                self.exile.remove(cid)
                self.owner[cid] = p
                (self.hand[p] if to_hand else self.discard[p]).append(cid)
                self._stamp(cid)
                if to_hand:
                    self._cov_hand(p, cid)
                if log is not None:
                    log.append(("rift", p, cid))
        elif purpose == P_RECOVER:
            for cid in picked:
                self.discard[p].remove(cid)
                self.hand[p].append(cid)
                self._stamp(cid)
                self._cov_hand(p, cid)
                if log is not None:
                    log.append(("recover", p, cid))
        elif purpose == P_DISCARD:
            self._discard_cards(p, picked)
        elif purpose == P_KEEP:
            self._keep(p, picked)
        elif purpose == P_FACTION:
            self._gain_allegiance(p, list(picked))
