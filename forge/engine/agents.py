"""Agents: a uniformly random legal player and a sensible heuristic player.

An agent is anything with ``act(observation, legal) -> Action``. Both agents here
own a ``random.Random`` seeded at construction, so a game is reproducible from
(card database, seed, agents).
"""
from __future__ import annotations

import random
from typing import Protocol

from .actions import Action
from .cards import CardDef
from .observation import Observation


class Agent(Protocol):
    def act(self, obs: Observation, legal: list[Action]) -> Action: ...


class RandomAgent:
    """Chooses uniformly among the legal options."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]


_WOUNDY = ("wound", "unblockable_wound", "poison", "destroy", "discard")


def line_value(d: CardDef) -> float:
    """A rough worth of a card's printed effects."""
    v = 0.0
    for ln in d.effects + d.activate + d.demise + d.end_of_turn:
        w = {"wound": 1.0, "unblockable_wound": 1.3, "poison": 1.2, "essence": 0.8, "draw": 0.9,
             "destroy": 1.5, "discard": 0.7, "exile": 0.5, "allegiance": 0.6}.get(ln.verb, 0.4)
        v += w * max(1, ln.n) * (0.6 if ln.tn else 1.0)
    for _, _, lines in d.triggers:
        v += 0.8 * len(lines)
    v += d.aegis * 0.8 + (1.0 if d.guard else 0) + (0.4 if d.rush else 0)
    return v


class HeuristicAgent:
    """Plays its Souls, builds allegiance toward its cards, buys well, activates, guards, traps."""

    name = "heuristic"

    #: Main-phase actions per turn before the agent ends its turn (breaks draw-spell loops).
    ACTIONS_PER_TURN = 40

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._values: dict[int, float] = {}
        self._turn = -1
        self._actions = 0
        self._sprung: set[int] = set()
        self._trap_turn = -1
        self._traps = 0

    def value(self, d: CardDef) -> float:
        v = self._values.get(d.i)
        if v is None:
            v = self._values[d.i] = d.cost + line_value(d)
        return v

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        kind = obs.decision
        if kind == "main":
            return self._main(obs, legal)
        if kind.startswith("window"):
            return self._window(obs, legal, kind)
        if kind == "guard":
            dmg = obs.wound_pending()
            if dmg >= 2 or obs.health(obs.player) <= dmg + 6:
                return legal[0]
            return legal[-1]
        if kind == "may":
            return legal[0]
        if kind == "order":
            return legal[0]
        if kind.startswith("pick:"):
            return self._pick(obs, legal, kind[5:])
        return legal[0]

    # -- strategy phase --------------------------------------------------------------------
    def _main(self, obs: Observation, legal: list[Action]) -> Action:
        me = obs.player
        if obs.turn != self._turn:
            self._turn, self._actions = obs.turn, 0
        self._actions += 1
        if self._actions > self.ACTIONS_PER_TURN:
            return legal[-1]  # end the turn
        best, best_score = legal[-1], 0.0
        want = self._wanted_faction(obs)
        ess = obs.essence(me)
        for a in legal:
            k = a.kind
            if k == "play":
                d = obs.defn(a.a)
                s = 100.0 if d.is_soul else 60.0 + self.value(d) - (25.0 if d.sacrifice else 0.0)
            elif k == "summon":
                s = 80.0 + self.value(obs.defn(a.a))
            elif k == "activate":
                d = obs.defn(a.a)
                s = 70.0 + self.value(d) - (40.0 if d.sacrifice else 0.0)
            elif k == "buy":
                d = obs.defn(obs.recruitment_row()[a.a])
                s = 30.0 + self._buy_score(obs, d)
            elif k == "raise":
                s = (45.0 if a.a == want else 0.0) + (10.0 if ess == 1 else 0.0)
            else:
                continue
            s += self.rng.random() * 0.01
            if s > best_score:
                best, best_score = a, s
        return best

    def _buy_score(self, obs: Observation, d: CardDef) -> float:
        al = obs.allegiance(obs.player)
        gap = sum(max(0, n - al[f]) for f, n in d.reqs)
        return self.value(d) - 2.0 * gap

    def _wanted_faction(self, obs: Observation) -> int:
        """The faction whose missing allegiance blocks the most value in hand and discard pile."""
        me = obs.player
        al = obs.allegiance(me)
        need = [0.0] * len(al)
        for cid in obs.hand() + obs.discard_pile(me):
            d = obs.defn(cid)
            for f, n in d.reqs:
                if al[f] < n:
                    need[f] += self.value(d) / (n - al[f])
            for ln in d.effects + d.activate:
                if ln.tn and al[ln.tf] < ln.tn:
                    need[ln.tf] += 0.5
        home = max(range(len(al)), key=lambda f: (al[f], -f))
        if al[home] < 6:
            need[home] += 1.0
        for f in range(len(al)):
            if al[f] >= 6:
                need[f] = -1.0
        return max(range(len(al)), key=lambda f: (need[f], -f))

    # -- traps --------------------------------------------------------------------------
    #: Traps the agent springs per opponent turn, at most (breaks trap-cycling loops).
    TRAPS_PER_TURN = 3

    def _window(self, obs: Observation, legal: list[Action], kind: str) -> Action:
        if obs.turn != self._trap_turn:
            self._trap_turn, self._traps, self._sprung = obs.turn, 0, set()
        if self._traps >= self.TRAPS_PER_TURN:
            return legal[-1]
        for a in legal:
            if a.kind != "trap":
                continue
            d = obs.defn(a.a)
            if a.b < 0 and d.i in self._sprung:
                continue  # the same design is already working this turn
            # A "when" trap answers its event; "each time" and no-trigger traps right after a card.
            if a.b >= 0 or d.trap_kind == "each_time" or kind == "window:step3":
                self._traps += 1
                self._sprung.add(d.i)
                return a
        return legal[-1]

    # -- choices --------------------------------------------------------------------------
    def _pick(self, obs: Observation, legal: list[Action], purpose: str) -> Action:
        picks = [a for a in legal if a.kind == "pick"]
        if purpose == "allegiance":
            want = self._wanted_faction(obs)
            for a in legal:
                if a.a == want:
                    return a
            return legal[0]
        if not picks:
            return legal[-1]
        val = lambda a: self.value(obs.defn(a.a))  # noqa: E731
        if purpose in ("sacrifice", "discard"):
            return min(picks, key=lambda a: (val(a), a.a))
        if purpose == "keep":
            if len(obs.hand()) - self._kept(obs) <= 0:
                return legal[-1]
            best = max(picks, key=lambda a: (self._keep_score(obs, a.a), -a.a))
            if self._keep_score(obs, best.a) < 3.0:
                return legal[-1]
            return best
        if purpose == "exile":
            mine = [a for a in picks if obs.defn(a.a).is_soul or obs.defn(a.a).cost == 0]
            if mine and all(a.a in obs.hand() or a.a in obs.discard_pile(obs.player) for a in picks):
                return min(mine, key=lambda a: (val(a), a.a))
        if purpose == "set_aside":
            opp = obs.allegiance(obs.opponent)
            hot = [a for a in picks if any(opp[f] > 0 for f, _ in obs.defn(a.a).reqs)]
            if hot:
                return max(hot, key=lambda a: (val(a), -a.a))
            return legal[-1]
        return max(picks, key=lambda a: (val(a), -a.a))

    def _kept(self, obs: Observation) -> int:
        return 0

    def _keep_score(self, obs: Observation, cid: int) -> float:
        d = obs.defn(cid)
        if d.is_trap:
            return 10.0 + self.value(d)
        return self.value(d) - (2.0 if d.is_soul else 0.0)


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(name: str, seed: int):
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; choose from {sorted(AGENTS)}") from None
