"""Events, waiting effects and the reading of lines (Chains).

Apart from the rest of ``State`` because this is the engine's one path from "something
happened" to "its effects act": an event wakes triggered abilities and "when" traps, their
effects wait in the pool of the card being resolved (``State.pools``), the active player orders
them, and each is read line by line, conditions checked as they are read. What a line does is
``verbs``'.
"""
from __future__ import annotations

from .actions import NO, YES, Action
from .cards import CardDef, Line
from .rules import STRATEGY, GameOver, count
from .tasks import Armed, Drain, Lines, May
from .verbs import VERBS

_PLAYED_SECTIONS = ("effects", "activate")


class ChainsMixin:
    """Events, waiting effects and lines: part of ``State``."""

    def _fire(self, ev: str, actor: int, ref: tuple, victim: int) -> None:
        """An event happened: triggered abilities wait, "when" traps may answer.

        ``victim`` is the owner of a destroyed creature (``destroy`` only).
        """
        ft = self._ft
        defs = self.defs
        active = self.active
        if ev in self.cards.trigger_events:  # an event no design triggers on has nothing to look for
            for p in (active, 1 - active):
                for cid in self.field[p]:
                    d = defs[cid]
                    if d.triggers and ev in d.trigger_events and not (ev == "summon" and cid == ref[0]):
                        # A creature acts from the next event on: not on its own summon.
                        self._triggers_of(d, cid, p, ev, actor, victim, ref, ft)
                rite = self.rite_of[p]
                if rite is not None and ev in rite.trigger_events:
                    self._triggers_of(rite, -1, p, ev, actor, victim, ref, ft)
        if ft:
            return  # a trap never answers a trap, nor what a trap causes
        if self.listeners:
            for ls in self.listeners:
                if ls.event == ev and actor != ls.owner:
                    self._trigger(ls.owner, ls.design.effects, ref, True, ls.design, ls.cid)
        if actor == active and self.phase == STRATEGY and not self.when_traps.isdisjoint(self.hand[1 - active]):
            h = 1 - active
            for cid in self.hand[h]:
                d = defs[cid]
                if d.trap_kind == "when" and d.trap_event == ev and self._meets(self.alleg[h], d):
                    self._when.append(Armed(cid, self.stamp[cid], ref))

    def _triggers_of(self, d: CardDef, cid: int, p: int, ev: str, actor: int, victim: int,
                     ref: tuple, ft: bool) -> None:
        for (tev, by_you, lines) in d.triggers:
            if tev != ev:
                continue
            if ev == "destroy" and by_you:
                hit = victim == p  # "a creature of yours is destroyed"
            else:
                hit = (actor == p) == by_you
            if hit:
                self._trigger(p, lines, ref, ft, d, cid)

    def _trigger(self, owner: int, lines: tuple, ctx, ft: bool, d: CardDef, cid: int) -> None:
        """Put a triggered effect on hold; "immediately" lines act at once (Chains 5)."""
        if not lines:
            return
        now = [ln for ln in lines if ln.timing == "immediately"]
        if now:
            rest = tuple(ln for ln in lines if ln.timing != "immediately")
            if rest:
                self.pools[-1].append(Lines(owner, rest, 0, ctx, ft, d, cid))
            self._now.append(Lines(owner, tuple(now), 0, ctx, ft, d, cid))
        else:
            self.pools[-1].append(Lines(owner, lines, 0, ctx, ft, d, cid))

    def _run_drain(self, task: Drain) -> None:
        """Chains 3: the active player resolves one of theirs first, then the opponent."""
        pool = self.pools[-1]
        if not pool:
            self.stack.pop()
            if task.nested:
                self.pools.pop()
            return
        a = self.active
        mine = [i for i, w in enumerate(pool) if w.owner == a]
        if not mine:
            mine = list(range(len(pool)))
            chooser = 1 - a
        else:
            chooser = a
        if len(mine) > 1:
            # Identical waiting effects (same lines, same source, same target) are one option.
            seen, distinct = set(), []
            for i in mine:
                w = pool[i]
                key = (id(w.lines), w.ctx, w.cid)
                if key not in seen:
                    seen.add(key)
                    distinct.append(i)
            mine = distinct
        if len(mine) == 1:
            self._resolve_waiting(mine[0])
            return
        choice = self._ask(chooser, [Action("order", i) for i in mine])
        if choice is not None:
            self._resolve_waiting(choice.a)

    def _apply_drain(self, task: Drain, action: Action) -> None:
        self._resolve_waiting(action.a)

    def _resolve_waiting(self, i: int) -> None:
        self.stack.append(self.pools[-1].pop(i))  # a waiting effect is a Lines task not started

    # -- reading lines ----------------------------------------------------------------

    def _run_lines(self, task: Lines) -> None:
        """Read the lines from ``task.at`` on, one after the other while a line stacks no task and
        poses no decision. When one does, the task left under it says which line it was (``at``:
        the line after it), where the next turn of ``_advance`` and the observers look; while the
        lines stack nothing, the task is not rebuilt for each (a new object per line read cost the
        engine 7 % of its speed)."""
        stack, lines, owner, ctx, ft = self.stack, task.lines, task.owner, task.ctx, task.from_trap
        depth, n = len(stack), len(lines)
        cov = self.cov
        i = task.at
        try:
            while i < n:
                ln = lines[i]
                i += 1
                if ln.timing == "after_effects" and ln.section in _PLAYED_SECTIONS:
                    # "After its effects" waits for the end of the card or activation (Chains 5).
                    self.pools[-1].append(Lines(owner, (_AfterLine(ln),), 0, ctx, ft, task.design, task.cid))
                    continue
                if ln.threshold:
                    # Conditional lines are checked as they are read (Chains 6).
                    if self.alleg[owner][ln.threshold_faction] < ln.threshold:
                        if cov is not None:
                            count(cov, ln.k_not)
                        if self.log is not None:
                            self.log.append(("skip", owner, ln))
                        continue
                    if cov is not None:
                        count(cov, ln.k_met)
                elif cov is not None:
                    k = ln.k_res  # count, inlined: the line read most
                    cov[k] = cov.get(k, 0) + 1
                if self.log is not None:
                    self.log.append(("resolve", owner, ln))  # the cause of the events this line logs
                self._ft = ft
                if ln.may:
                    stack.append(May(owner, ln, ctx, ft))
                else:
                    VERBS[ln.verb](self, owner, ln, ctx)
                if len(stack) != depth or self.pending >= 0 or self._when or self._now:
                    stack[depth - 1] = Lines(owner, lines, i, ctx, ft, task.design, task.cid)
                    return
        except GameOver:
            raise  # the game is over: nothing is left on the stack
        except BaseException:
            # A bug in a line: the task says which line it was (forge.engine.proofs reports it).
            stack[depth - 1] = Lines(owner, lines, i, ctx, ft, task.design, task.cid)
            raise
        stack.pop()

    def _run_may(self, task: May) -> None:
        choice = self._ask(task.owner, [YES, NO])
        if choice is not None:
            self._apply_may(task, choice)

    def _apply_may(self, task: May, action: Action) -> None:
        self.stack.pop()
        if action.kind == "yes":
            self._ft = task.from_trap
            VERBS[task.line.verb](self, task.owner, task.line, task.ctx)


class _AfterLine:
    """A line marked "after its effects", read later with its timing cleared."""

    __slots__ = ("_ln",)

    def __init__(self, ln: Line) -> None:
        self._ln = ln

    def __getattr__(self, name):
        if name == "timing":
            return None
        return getattr(self._ln, name)
