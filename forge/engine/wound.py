"""Wounds and damage: Aegis, Divine Shield, a Guard, then the commander's health.

Apart from the rest of ``State`` because a Wound effect meets the protections in a fixed order
(``WOUND_PROTECTION``, Protection against Wounds 1-3) and may stop on the defender's Guard
decision; damage at 0 health ends the game at once.
"""
from __future__ import annotations

from .actions import PASS, Action
from .tasks import Guard


class WoundMixin:
    """Wounds, guards and damage: part of ``State``."""

    def _wound(self, src: int, n: int, ft: bool) -> None:
        """Facing a Wound effect: Aegis, then Divine Shield, then a Guard, then damage."""
        t = 1 - src
        aegis = 0
        defs = self.defs
        for cid in self.field[t]:
            a = defs[cid].aegis
            if a > aegis:
                aegis = a
        dmg = n - aegis - self.shield[t]
        if dmg <= 0:
            if self.log is not None:
                self.log.append(("prevented", t, n))
            return
        if t != self.active:
            guards = [cid for cid in self.field[t] if defs[cid].guard and not self.exhausted[cid]]
            if guards:
                act = self.game.act_guard
                opts = [act[cid] for cid in guards]
                opts.append(PASS)
                self.stack.append(Guard(t, dmg, src, ft))
                self.pending = t
                self.options = opts
                return
        self._deal_wound(src, t, dmg, ft)

    def _run_guard(self, task: Guard) -> None:  # pragma: no cover - posed directly by _wound
        raise AssertionError("guard task without decision")

    def _apply_guard(self, task: Guard, action: Action) -> None:
        self.stack.pop()
        if action.kind == "guard":
            cid = action.a
            self.exhausted[cid] = True
            if self.log is not None:
                self.log.append(("guard", task.player, cid, task.damage))
            self._ft = task.from_trap
            self._destroy(cid, task.player)
            return
        self._deal_wound(task.source, task.player, task.damage, task.from_trap)

    def _deal_wound(self, src: int, t: int, dmg: int, ft: bool) -> None:
        if dmg <= 0:
            return
        if self.log is not None:
            self.log.append(("wound", src, t, dmg))
        self._damage(t, dmg)
        self._ft = ft
        self._fire("wound", src, (-1, dmg), -1)

    def _damage(self, p: int, dmg: int) -> None:
        h = self.health[p] - dmg
        if h <= 0:
            self._lose(p)
        self.health[p] = h
