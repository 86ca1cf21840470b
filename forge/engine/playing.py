"""Playing cards (the six steps) and the opponent's trap windows.

Apart from the rest of ``State`` because this is where a card starts its way: out of the hand
or into play, the tasks of its steps stacked in the rulebook's order (``PLAY_STEPS``), and the
windows in which the other player may answer with a trap. What its lines then do is ``chains``'
and ``verbs``'.
"""
from __future__ import annotations

from .actions import PASS, Action
from .cards import CardDef
from .rules import STRATEGY, count
from .tasks import DRAIN, DRAIN_NESTED, P_SACRIFICE, STEP3_WINDOWS, W_STEP3, W_WHEN, Finish, Lines, Listener, Pick, Window


class PlayingMixin:
    """The six steps and the trap windows: part of ``State``."""

    def _play_card(self, p: int, cid: int) -> None:
        """Steps 2-6 of a Soul or spell played from hand."""
        d = self.defs[cid]
        self.hand[p].remove(cid)
        if self.cov is not None:
            count(self.cov, d.k_played)
            count(self.cov, d.k_by_played[p])  # per player: the balance lab
        if d.is_soul:
            self.played[p].append(cid)
            ev = "play_soul"
        else:
            self.resolving.append(cid)
            ev = "cast"
        if self.log is not None:
            self.log.append(("play", p, cid))
        self._ft = False
        self._fire(ev, p, (cid, 0), -1)
        self._push_played(p, cid, d, d.effects, True)

    def _push_played(self, p: int, cid: int, d: CardDef, lines: tuple, finish: bool) -> None:
        cands = ()
        if self._when:
            cands = tuple(self._when)
            self._when.clear()
        st = self.stack
        st.append(DRAIN)
        if finish:
            st.append(self.game.finish_tasks[cid])
        if lines:
            st.append(Lines(p, lines, 0, None, False, d, cid))
        if d.sacrifice:
            st.append(Pick(P_SACRIFICE, p, d.sacrifice, False, (), None, d, False))
        st.append(Window(1 - p, cands, W_STEP3) if cands else STEP3_WINDOWS[1 - p])

    def _summon(self, p: int, cid: int) -> None:
        d = self.defs[cid]
        self.hand[p].remove(cid)
        self._enter(p, cid)
        if self.cov is not None:
            count(self.cov, d.k_played)
            count(self.cov, d.k_by_played[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("summon", p, cid))
        self._ft = False
        self._fire("summon", p, (cid, self.stamp[cid]), -1)
        cands = tuple(self._when)
        self._when.clear()
        self.stack.append(DRAIN)
        self.stack.append(Window(1 - p, cands, W_STEP3) if cands else STEP3_WINDOWS[1 - p])

    def _enter(self, p: int, cid: int) -> None:
        self.field[p].append(cid)
        self.exhausted[cid] = not self.defs[cid].rush
        self.stamp[cid] = self.next_stamp
        self.next_stamp += 1

    def _activate(self, p: int, cid: int) -> None:
        d = self.defs[cid]
        self.exhausted[cid] = True
        if self.cov is not None:
            count(self.cov, d.k_activated)
            count(self.cov, d.k_by_activated[p])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("activate", p, cid))
        self._ft = False
        self._fire("activate", p, (cid, self.stamp[cid]), -1)
        self._push_played(p, cid, d, d.activate, False)

    def _play_trap(self, h: int, cid: int, ctx: tuple | None) -> None:
        """Steps 1, 2, 5, 6 of a trap: it never opens a window of its own."""
        d = self.defs[cid]
        self.hand[h].remove(cid)
        self.resolving.append(cid)
        if self.cov is not None:
            count(self.cov, ("trap", d.id, d.trap_kind))
            count(self.cov, d.k_played)
            count(self.cov, d.k_by_played[h])  # per player: the balance lab
        if self.log is not None:
            self.log.append(("trap", h, cid))
        # When you play a trap, draw a card.
        self._draw(h, 1)
        self.pools.append([])
        st = self.stack
        st.append(DRAIN_NESTED)
        st.append(self.game.finish_tasks[cid])
        if d.trap_kind == "each_time":
            self.listeners.append(Listener(h, d, d.trap_event, cid))
        elif d.effects:
            st.append(Lines(h, d.effects, 0, ctx, True, d, cid))
        if d.sacrifice:
            st.append(Pick(P_SACRIFICE, h, d.sacrifice, False, (), None, d, True))

    def _run_finish(self, task: Finish) -> None:
        self.stack.pop()
        cid = task.cid
        if cid in self.resolving:
            self.resolving.remove(cid)
            # Finished and still ours: a spell or trap goes to its owner's discard pile.
            self.discard[self.owner[cid]].append(cid)

    # -- trap windows -----------------------------------------------------------------

    def _trap_options(self, h: int, cands: tuple, untriggered: bool) -> list[Action]:
        """Traps player ``h`` may play now (never in their own turn, never in cleanup)."""
        if h == self.active or self.phase != STRATEGY:
            return []
        hand = self.hand[h]
        if not cands and (not untriggered or self.free_traps.isdisjoint(hand)):
            return []
        defs = self.defs
        al = self.alleg[h]
        opts: list[Action] = []
        if untriggered:
            seen = set()
            sac = -1
            for cid in hand:
                d = defs[cid]
                if not d.is_trap or d.trap_kind == "when" or d.i in seen:
                    continue
                seen.add(d.i)
                if self._meets(al, d):
                    if d.sacrifice:
                        sac = self._sacrificable(h) if sac < 0 else sac
                        if d.sacrifice > sac:
                            continue
                    opts.append(self.game.act_trap[cid])
        for j, (cid, stamp, _ref) in enumerate(cands):  # Armed
            # A card that left the hand and came back is a new card: not against this event.
            if cid in hand and self.stamp[cid] == stamp and self._meets(al, defs[cid]) and \
                    (not defs[cid].sacrifice or defs[cid].sacrifice <= self._sacrificable(h)):
                opts.append(Action("trap", cid, j))
        if opts:
            opts.append(PASS)
        return opts

    def _run_window(self, task: Window) -> None:
        h, cands = task.player, task.cands
        # No event to answer and no trap without a trigger in hand: no window (_trap_options' first
        # test, before the call: the most frequent case, after every card played).
        opts = self._trap_options(h, cands, task.kind != W_WHEN) \
            if cands or not self.free_traps.isdisjoint(self.hand[h]) else None
        if not opts:
            self.stack.pop()
            return
        self.pending = h
        self.options = opts

    def _apply_window(self, task: Window, action: Action) -> None:
        if action.kind == "pass":
            self.stack.pop()
            return
        ctx = task.cands[action.b].ref if action.b >= 0 else None
        self._play_trap(task.player, action.a, ctx)

    @staticmethod
    def _meets(al: list[int], d: CardDef) -> bool:
        for f, n in d.reqs:
            if al[f] < n:
                return False
        return True
