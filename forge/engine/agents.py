"""Agents: a uniformly random legal player and a sensible heuristic player.

An agent is anything with ``act(observation, legal) -> Action``. Both agents here
own a ``random.Random`` seeded at construction, so a game is reproducible from
(card database, seed, agents).

The heuristic agent is the one ``forge simulate`` plays by default: balance
figures are only as good as its play. It reads the printed effect lines of the
cards (never their names), so it plays any card database.
"""
from __future__ import annotations

import random
from typing import Protocol

from ..carddb.vocabulary import FACTIONS, MAX_ALLEGIANCE
from .actions import Action
from .cards import CardDef, Line
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


# -- what cards are worth ---------------------------------------------------------------------

#: Worth of one point of each verb, in "health points of the opponent" (Wound 1 = 1).
_VERB_WORTH = {"essence": 0.9, "wound": 1.0, "unblockable_wound": 1.3, "poison": 1.4, "draw": 1.0,
               "discard": 1.0, "destroy": 2.2, "rift": 1.0, "allegiance": 0.8, "recover": 0.9,
               "exhaust": 1.1, "bounce": 1.4, "divine_shield": 1.5, "protect_creatures": 1.2}
#: Turns a creature is expected to act for: its ⟳ ability is paid for once.
_CREATURE_USES = 2.5
_DAMAGE = ("wound", "unblockable_wound", "poison")


def line_power(ln: Line) -> float:
    """The rough worth of one effect line (the agent reads it from its ``_Table``)."""
    v = ln.verb
    if v == "exile":
        w = 2.2 if ln.zone == "opponent_creature" else 0.4 if ln.zone == "opponent_discard" else 0.2
    elif v == "sacrifice":
        w = -1.5
    else:
        w = _VERB_WORTH.get(v, 0.4)
    p = w * max(1, ln.amount)
    if ln.threshold:
        p *= 0.7
    return p


def card_power(d: CardDef) -> float:
    """What owning the card is worth: one use of a spell, a creature over a few turns."""
    if d.is_creature:
        act = sum(line_power(ln) for ln in d.activate) - 1.5 * d.sacrifice
        per_turn = act + sum(line_power(ln) for ln in d.end_of_turn)
        per_turn += sum(0.6 * sum(line_power(ln) for ln in lines) for _, _, lines in d.triggers)
        p = _CREATURE_USES * per_turn + 0.6 * sum(line_power(ln) for ln in d.demise)
        p += 1.5 if d.guard else 0.0
        p += 1.5 * d.aegis
        p += 0.5 * act if d.rush else 0.0
        return max(p, 0.5)
    p = sum(line_power(ln) for ln in d.effects) - 1.5 * d.sacrifice
    if d.is_trap:
        p = 1.3 * p + 0.5 + (1.5 if d.trap_kind == "each_time" else 0.0)
    return max(p, 0.3)


def _has(lines, verb: str, zone=None) -> bool:
    return any(ln.verb == verb and (zone is None or ln.zone == zone) for ln in lines)


def _lines(d: CardDef):
    """Every effect line of a design, in every section."""
    yield from d.effects
    yield from d.activate
    yield from d.demise
    yield from d.end_of_turn
    yield from d.sacrifice_lines
    for _, _, lines in d.triggers:
        yield from lines


class _Design:
    """What the agent asks of a card design at almost every decision, worked out once per design."""

    __slots__ = ("d", "power", "junk", "thins_effects", "thins_activate", "effects", "activate", "hand",
                 "hand_fixed", "demise", "keep", "threat", "soul", "summon", "thresholds", "essence",
                 "exhausts", "activation", "plain_activation")

    def __init__(self, d: CardDef, lp: dict) -> None:
        self.d = d
        self.power = card_power(d)  # HeuristicAgent.value
        self.junk = HeuristicAgent._is_junk(d)
        self.thins_effects = HeuristicAgent._thins(d.effects)
        self.thins_activate = HeuristicAgent._thins(d.activate)
        self.effects = frozenset(ln.verb for ln in d.effects)  # ``verb in t.effects`` is _has(d.effects, verb)
        self.activate = frozenset(ln.verb for ln in d.activate)
        # HeuristicAgent._hand_value's part that depends on the design only; ``hand_fixed``: no
        # allegiance discount applies (a Lost Soul, a Soul).
        self.hand_fixed = self.junk or d.is_soul
        if self.junk:
            self.hand = 0.0
        elif d.is_soul:
            self.hand = 1.0 + 1.5 * sum(ln.amount for ln in d.effects if ln.verb == "essence")
        else:
            self.hand = self.power + (3.0 if d.is_trap else 0.0)
        self.demise = sum(lp[ln] for ln in d.demise)  # what its Demise lines are worth
        # A creature's worth on the battlefield: a Demise makes it
        # cheaper to lose, one that recovers a creature (itself included) a free sacrifice.
        keep = self.power - 1.5 * self.demise
        if any(ln.verb == "recover" and ln.card_kind in ("creature", "any") for ln in d.demise):
            keep = min(keep, 1.0)
        self.keep = keep
        self.threat = self.power - 1.5 * self.demise + 0.1 * d.cost  # an opponent's card (_threat)
        # HeuristicAgent._main's scores of playing it as a Soul that does not thin, of summoning it.
        self.soul = 100.0 + (1.0 if "draw" in self.effects else 0.0)
        self.summon = 90.0 + self.power * 0.1
        # HeuristicAgent._activate_score's score of activating it when nothing else decides.
        self.exhausts = "exhaust" in self.activate
        self.activation = 76.0 if "draw" in self.activate else 74.0 if "essence" in self.activate \
            else 70.0 + 0.1 * self.power
        # No Sacrifice cost, no exile from hand, no exhaust: its score is ``activation``, always.
        self.plain_activation = not (d.sacrifice or self.thins_activate or self.exhausts)
        #: Its effect and ability lines with an allegiance threshold, in order (HeuristicAgent._needs_of).
        self.thresholds = tuple(ln for ln in d.effects + d.activate if ln.threshold)
        #: The essence it gives unconditionally when played or activated (HeuristicAgent._deck_essence).
        self.essence = sum(ln.amount for ln in (d.activate if d.is_creature else d.effects)
                           if ln.verb == "essence" and not ln.threshold)


class _Table:
    """The agent's worth of every line and design of one card database, built once per database
    (``Observation.derived``) and shared by every game and agent of it: these values depend on the
    designs only, so they are kept beside the compiled cards, not on them."""

    def __init__(self, defs: list[CardDef]) -> None:
        #: line_power by line (lines hash by identity: each printed line is one object).
        self.line: dict[Line, float] = {ln: line_power(ln) for d in defs for ln in _lines(d)}
        #: _Design by design index (``CardDef.i``).
        self.designs = [_Design(d, self.line) for d in defs]


class HeuristicAgent:
    """Plays its Souls, builds allegiance toward its cards, buys well, activates, guards, traps.

    Strategy phase, in order: thin the deck (a Volatile Essence or a creature that
    exiles from hand, while a Lost Soul is in hand), play the Souls, summon,
    activate (exhaust and draw first, Sacrifice costs last), cast the spells that
    have something to do, play the last Volatile Essence, then spend the essence:
    the allegiance raise and the purchases are chosen together as a knapsack over
    the recruitment row, so that essence is saved for an expensive card when it
    is worth more than two cheap ones and the raise does not eat the last point.
    """

    name = "heuristic"

    #: Main-phase actions per turn before the agent ends its turn (breaks draw-spell loops).
    ACTIONS_PER_TURN = 40
    #: Traps the agent springs per opponent turn, at most (breaks trap-cycling loops).
    TRAPS_PER_TURN = 3

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._turn = -1
        self._actions = 0
        self._sprung: set[int] = set()
        self._trap_turn = -1
        self._traps = 0
        self._mine: dict[int, CardDef] = {}  # every card instance seen as ours, with its design
        self._owned: dict = {}  # what follows from _mine (and the keys' other inputs): _needs, plans, creatures
        self._last: Action | None = None
        self._aegis_turn, self._aegis = -1, 0
        self._thin = False  # whether to thin the deck this turn (_main, when a turn starts)
        # _spend's buy scores by design, for one turn and allegiance (allegiance only grows: a score
        # kept for an earlier one would never be asked again).
        self._memo_turn, self._memo_al, self._memo = -1, (), {}
        self._row: tuple[int, ...] = ()  # the recruitment row _row_designs last read, and its designs
        self._row_d: list[CardDef | None] = []
        self._t: _Table | None = None  # this database's worth of designs and lines (the first act)
        self._rec: dict[int, _Design] = {}  # card instance seen -> its design's _Design (never changes)

    # -- card worth ------------------------------------------------------------------------
    # A design's worth and traits are the same in every game: worked out once per database (_Table).
    def value(self, d: CardDef) -> float:
        return self._t.designs[d.i].power

    def _info(self, obs: Observation, cid: int) -> _Design:
        """What we know of a card instance we can see (its design never changes: asked once)."""
        r = self._rec.get(cid)
        if r is None:
            r = self._rec[cid] = self._t.designs[obs.defn(cid).i]
        return r

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        if self._t is None:
            self._t = obs.derived(_Table)
        kind = obs.decision
        if kind == "main":
            a = self._main(obs, legal)
        elif kind.startswith("window"):
            a = self._window(obs, legal, kind)
        elif kind == "guard":
            a = self._guard(obs, legal)
        elif kind == "may":
            a = self._may(obs, legal)
        elif kind.startswith("pick:"):
            a = self._pick(obs, legal, kind[5:])
        else:
            a = legal[0]
        self._last = a
        return a

    # -- what we own -----------------------------------------------------------------------
    def _remember(self, obs: Observation) -> None:
        me = obs.player
        mine = self._mine
        before = len(mine)
        for zone in (obs.hand(), obs.discard_pile(me), obs.battlefield(me), obs.played(me)):
            for cid in zone:
                if cid not in mine:
                    mine[cid] = obs.defn(cid)
        gone = set(obs.exile_pile())
        opp = obs.opponent
        gone.update(obs.discard_pile(opp))
        gone.update(obs.battlefield(opp))
        lost = gone.intersection(mine)
        for cid in lost:
            del mine[cid]
        if lost or len(mine) != before:
            # What _owned remembers was worked out from the cards we owned until now.
            self._owned.clear()

    def _home(self, obs: Observation) -> int:
        return FACTIONS.index(obs.faction(obs.player))

    @staticmethod
    def _is_junk(d: CardDef) -> bool:
        """A card the deck is better without: a Soul worth at most 1 essence and nothing else."""
        return d.is_soul and len(d.effects) == 1 and d.effects[0].verb == "essence" and d.effects[0].amount <= 1

    @staticmethod
    def _thins(lines) -> bool:
        return any(ln.verb == "exile" and ln.zone == "your_hand" for ln in lines)

    # -- allegiance ------------------------------------------------------------------------
    def _needs(self, obs: Observation) -> list[float]:
        """How much each faction's next allegiance point is worth to us (a new list each time)."""
        me = obs.player
        al = obs.allegiance(me)
        have_rite = obs.rite(me) is not None
        free_rites = obs.rites_available()
        key = ("needs", al, have_rite, free_rites)  # with _mine, everything the answer depends on
        need = self._owned.get(key)
        if need is None:
            need = self._owned[key] = self._needs_of(obs, al, have_rite, free_rites)
        return list(need)

    def _needs_of(self, obs: Observation, al: tuple[int, ...], have_rite: bool,
                  free_rites: tuple[int, ...]) -> list[float]:
        nf = len(al)
        need = [0.0] * nf
        home = self._home(obs)
        lp, designs = self._t.line, self._t.designs
        for d in self._mine.values():
            miss = 0
            for f, n in d.reqs:
                if al[f] < n:
                    miss += n - al[f]
            if miss:
                for f, n in d.reqs:
                    if al[f] < n:
                        need[f] += 0.6 * designs[d.i].power / miss
            for ln in designs[d.i].thresholds:
                if al[ln.threshold_faction] < ln.threshold <= al[ln.threshold_faction] + 2:
                    need[ln.threshold_faction] += 0.4 * lp[ln] / (ln.threshold - al[ln.threshold_faction])
        need[home] += 1.5
        if not have_rite:
            for f in free_rites:
                if al[f] >= 3:
                    need[f] += 0.5 * al[f]
        for f in range(nf):
            if al[f] >= MAX_ALLEGIANCE:
                need[f] = -1.0
        return need

    def _wanted_faction(self, obs: Observation) -> int:
        need = self._needs(obs)
        return need.index(max(need))  # the most needed faction, the first of equals

    def _plan_factions(self, obs: Observation) -> tuple[int, int]:
        """Our home faction and the second one we build toward (-1 if none yet)."""
        al = obs.allegiance(obs.player)
        plan = self._owned.get(al)  # with _mine, the only input that changes
        if plan is None:
            plan = self._owned[al] = self._plan_of(obs, al)
        return plan

    def _plan_of(self, obs: Observation, al: tuple[int, ...]) -> tuple[int, int]:
        home = self._home(obs)
        lean = [0.0] * len(al)
        designs = self._t.designs
        for d in self._mine.values():
            for f, _n in d.reqs:
                if f != home:
                    lean[f] += 0.3 * designs[d.i].power
        # The other faction with the most allegiance and lean (the first of equals).
        second, best = -1, 0.0
        for f in range(len(al)):
            if f != home:
                score = 2.0 * al[f] + lean[f]
                if second < 0 or score > best:
                    second, best = f, score
        if al[second] == 0 and lean[second] == 0:
            second = -1
        return home, second

    @staticmethod
    def _fit(d: CardDef, plan: tuple[int, int], al: tuple[int, ...]) -> float:
        """How soon we can play a card at our allegiance ``al``: 1 when playable, less per missing
        allegiance point."""
        miss, off = 0, False
        for f, n in d.reqs:
            if al[f] < n:
                miss += n - al[f]
                if f not in plan:
                    off = True
        fit = 0.82 ** miss
        if off:
            # No second faction yet: this card would choose it. Otherwise it is a third one.
            fit *= 0.75 if plan[1] < 0 else 0.35
        return fit

    def _buy_score(self, d: CardDef, plan: tuple[int, int], creatures: int, al: tuple[int, ...],
                   aegis: int) -> float:
        """What buying ``d`` is worth at our allegiance ``al`` against the opponent's ``aegis`` (cheap
        enough to work out again: a game seldom asks twice with the same inputs, and _spend keeps a
        turn's scores)."""
        p = self._t.designs[d.i].power  # value(d)
        if aegis:
            # Aegis shaves every Wound effect: small ones are worth little against it.
            lost = sum(min(ln.amount, aegis) for ln in (d.activate if d.is_creature else d.effects)
                       if ln.verb == "wound")
            p = max(0.3, p - lost * (_CREATURE_USES if d.is_creature else 1.0))
        if d.is_creature and creatures >= 6:
            p *= 0.6
        if d.faction == plan[0]:
            p *= 1.15  # the home faction: its allegiance is already there, and its Rite
        return p * self._fit(d, plan, al) - 1.0

    def _opp_aegis(self, obs: Observation) -> int:
        """The strongest Aegis the opponent has shown (in play or in their discard pile)."""
        if obs.turn == self._aegis_turn:
            return self._aegis
        best = 0
        opp = obs.opponent
        for zone in (obs.battlefield(opp), obs.discard_pile(opp)):
            for cid in zone:
                a = self._info(obs, cid).d.aegis
                if a > best:
                    best = a
        self._aegis_turn, self._aegis = obs.turn, best
        return best

    # -- strategy phase --------------------------------------------------------------------
    def _main(self, obs: Observation, legal: list[Action]) -> Action:
        me = obs.player
        turn = obs.turn
        if turn != self._turn:
            self._turn, self._actions = turn, 0
            self._remember(obs)
            # Exile a Lost Soul this turn while the deck keeps enough essence to buy with (what we
            # own changes only here, when a turn starts).
            self._thin = self._deck_essence()
        self._actions += 1
        if self._actions > self.ACTIONS_PER_TURN:
            return legal[-1]  # end the turn
        opp = 1 - me
        recs, info = self._rec, self._info
        # Thin the deck when it is worth it this turn and a Lost Soul is in hand.
        thin = False
        if self._thin:
            for c in obs.hand():
                if (recs.get(c) or info(obs, c)).junk:
                    thin = True
                    break
        opp_field = mine = None  # the battlefields, read once a spell or an ability is weighed
        best, best_score = None, 0.0
        buys: list[Action] = []
        raises: list[Action] = []
        for a in legal:
            k = a.kind
            # The raises and purchases first: most options are (they wait for _spend).
            if k == "raise":
                raises.append(a)
                continue
            if k == "buy":
                buys.append(a)
                continue
            if k == "play":
                t = recs.get(a.a) or info(obs, a.a)
                if t.d.is_soul:
                    if t.thins_effects:
                        s = 101.0 if thin else self._late_thinner(obs, a.a)
                    else:
                        s = t.soul
                else:
                    if opp_field is None:
                        opp_field, mine = obs.battlefield(opp), obs.battlefield(me)
                    s = self._spell_score(obs, t, opp_field, mine)
            elif k == "summon":
                s = (recs.get(a.a) or info(obs, a.a)).summon
            elif k == "activate":
                t = recs.get(a.a) or info(obs, a.a)
                if t.plain_activation:
                    s = t.activation  # what _activate_score gives it, whatever the battlefields
                else:
                    if opp_field is None:
                        opp_field, mine = obs.battlefield(opp), obs.battlefield(me)
                    s = self._activate_score(obs, t, a.a, opp_field, mine, thin)
            else:
                continue
            if s > best_score:
                best, best_score = a, s
        if best is not None:
            return best
        plan = self._spend(obs, buys, raises)
        return plan if plan is not None else legal[-1]

    def _late_thinner(self, obs: Observation, cid: int) -> float:
        """A Soul that exiles from hand, with no Lost Soul left to exile: play it last, unless
        every other card in hand is worth more than its essence."""
        hand = obs.hand()
        if len(hand) < 2:
            return 30.0
        al = obs.allegiance(obs.player)
        for c in hand:
            if c != cid and self._hand_worth(obs, c, al) < 4.0:
                return 30.0
        return 0.0

    def _deck_essence(self) -> bool:
        designs = self._t.designs
        ess = 0
        for d in self._mine.values():
            ess += designs[d.i].essence
        return ess >= 9 and len(self._mine) >= 10

    def _fodder(self, obs: Observation, mine: tuple, exclude: int = -1) -> float:
        """What the cheapest creature we could sacrifice is worth to us (inf: none)."""
        best = float("inf")
        for cid in mine:
            if cid == exclude:
                continue
            best = min(best, self._info(obs, cid).keep)
        return best

    def _spell_score(self, obs: Observation, t: _Design, opp_field: tuple, mine: tuple) -> float:
        d = t.d
        lp = self._t.line
        useful = 0.0
        for ln in d.effects:
            v = ln.verb
            if v in ("destroy", "bounce", "exhaust") or (v == "exile" and ln.zone == "opponent_creature"):
                if opp_field:
                    useful += lp[ln]
            elif v == "rift":
                if obs.exile_pile():
                    useful += lp[ln]
            elif v == "exile" and ln.zone == "opponent_discard":
                if obs.discard_pile(obs.opponent):
                    useful += lp[ln]
            elif v == "recover":
                if any(self._recoverable(obs, ln)):
                    useful += lp[ln]
            elif ln.threshold and obs.allegiance(obs.player)[ln.threshold_faction] < ln.threshold:
                continue
            else:
                useful += lp[ln]
        if useful < 0.5:
            return 0.0  # hold it for a better moment
        if d.sacrifice:
            gain = useful
            fodder = self._fodder(obs, mine)
            if fodder == float("inf") or fodder > gain + 1.0:
                return 0.0
            return 50.0 + gain
        s = 80.0 + useful * 0.1
        if "draw" in t.effects:
            s += 5.0  # see more cards before deciding the rest
        return s

    def _recoverable(self, obs: Observation, ln: Line):
        kind = ln.card_kind
        for cid in obs.discard_pile(obs.player):
            if kind == "any" or self._info(obs, cid).d.type == kind:
                yield cid

    def _activate_score(self, obs: Observation, t: _Design, cid: int, opp_field: tuple, mine: tuple,
                        thin: bool) -> float:
        d = t.d
        if d.sacrifice:
            # Sacrifice costs last, once the fodder has acted this turn.
            if "recover" in t.activate or "rift" in t.activate:
                return 40.0  # the sacrificed creature comes back
            lp = self._t.line
            gain = sum(lp[ln] for ln in d.activate if ln.verb not in ("destroy", "exile") or opp_field)
            fodder = self._fodder(obs, mine)
            if fodder == float("inf"):
                fodder = t.keep
            return 35.0 if fodder <= gain + 2.0 else 0.0
        if t.thins_activate and thin:
            return 105.0  # exile a Lost Soul before it is played
        if t.exhausts and any(not obs.is_exhausted(c) for c in opp_field):
            return 78.0
        return t.activation  # draw first, then essence, then the rest

    def _spend(self, obs: Observation, buys: list[Action], raises: list[Action]) -> Action | None:
        """Raise and buy together: the best use of the essence left (a small knapsack)."""
        me = obs.player
        ess = obs.essence(me)
        if ess <= 0:
            return None
        al = obs.allegiance(me)
        turn = obs.turn
        if self._memo_turn != turn or self._memo_al != al:
            self._memo_turn, self._memo_al, self._memo = turn, al, {}
        memo = self._memo
        plan = self._owned.get(al)  # _plan_factions
        if plan is None:
            plan = self._plan_factions(obs)
        creatures = self._owned.get("creatures")
        if creatures is None:
            creatures = self._owned["creatures"] = [d.is_creature for d in self._mine.values()].count(True)
        items: list[tuple[int, float, Action]] = []
        if buys:
            aegis = self._opp_aegis(obs)
            designs = self._row_designs(obs)
            by_design = {designs[a.a].i: a for a in buys}
            for d in designs:
                if d is None:
                    continue
                i = d.i
                a = by_design.get(i)
                if a is None:
                    continue
                s = memo.get(i)  # the score's other inputs (plan, creatures, Aegis) follow from al this turn
                if s is None:
                    s = memo[i] = self._buy_score(d, plan, creatures, al, aegis)
                if s > 0:
                    items.append((d.cost, s, a))
        if raises:
            need = self._needs(obs)
            f = need.index(max(need))  # the most needed faction, the first of equals
            if need[f] > 0:
                for a in raises:
                    if a.a == f:
                        items.append((1, min(need[f], 6.0), a))
                        break
        if not items:
            return self._refresh(obs, buys, plan, creatures, al)
        # 0/1 knapsack over the essence: worth[e], chosen[e] = the best value within e essence, its items
        # (bit j for items[j])
        worth = [0.0] * (ess + 1)
        chosen_at = [0] * (ess + 1)
        for j, (c, v, _) in enumerate(items):
            bit = 1 << j
            for e in range(ess, c - 1, -1):
                cand = worth[e - c] + v
                if cand > worth[e]:
                    worth[e] = cand
                    chosen_at[e] = chosen_at[e - c] | bit
        chosen = chosen_at[worth.index(max(worth))]  # the first of equals, as max() gives
        if not chosen:
            return self._refresh(obs, buys, plan, creatures, al)
        picks = [item for j, item in enumerate(items) if chosen >> j & 1]
        for _c, _v, a in picks:
            if a.kind == "raise":
                return a
        return max(picks, key=lambda t: (t[0], t[1]))[2]

    def _refresh(self, obs: Observation, buys: list[Action], plan, creatures: int,
                 al: tuple[int, ...]) -> Action | None:
        """Nothing worth its slot in the deck: essence would be lost, so buy the least bad card
        (which also refreshes a recruitment row nobody buys from, and denies the opponent)."""
        opp_al = obs.allegiance(obs.opponent)
        best, best_s = None, -1.0
        designs = self._row_designs(obs)
        for a in buys:
            d = designs[a.a]
            s = self._buy_score(d, plan, creatures, al, self._opp_aegis(obs))
            if d.reqs and all(opp_al[f] >= n - 1 for f, n in d.reqs):
                s += 0.3 * self.value(d)  # the opponent could use it soon
            if s > best_s:
                best, best_s = a, s
        return best

    def _row_designs(self, obs: Observation) -> list[CardDef | None]:
        """The design in each slot of the recruitment row (None: an empty slot), kept while the row
        stays as it is (it changes when a card is bought, a few times a turn at most)."""
        row = obs.recruitment_row()
        if row != self._row:
            self._row = row
            recs, info = self._rec, self._info
            self._row_d = [(recs.get(c) or info(obs, c)).d if c >= 0 else None for c in row]
        return self._row_d

    # -- traps -----------------------------------------------------------------------------
    def _window(self, obs: Observation, legal: list[Action], kind: str) -> Action:
        if obs.turn != self._trap_turn:
            self._trap_turn, self._traps, self._sprung = obs.turn, 0, set()
        if self._traps >= self.TRAPS_PER_TURN:
            return legal[-1]
        opp = obs.opponent
        for a in legal:
            if a.kind != "trap":
                continue
            d = self._info(obs, a.a).d
            if a.b < 0 and d.i in self._sprung:
                continue  # the same design is already working this turn
            if self._spring(obs, d, a, kind, opp):
                self._traps += 1
                self._sprung.add(d.i)
                return a
        return legal[-1]

    def _spring(self, obs: Observation, d: CardDef, a: Action, kind: str, opp: int) -> bool:
        lines = d.effects
        if a.b >= 0:  # a "when" trap, answering its event
            if _has(lines, "destroy") or (_has(lines, "exile", "opponent_creature")):
                field = obs.battlefield(opp)
                return bool(field) and self._info(obs, field[-1]).power >= 3.0
            if _has(lines, "exile", "opponent_discard"):
                pile = obs.discard_pile(opp)
                return bool(pile) and self._info(obs, pile[-1]).d.cost >= 3
            return True
        if d.trap_kind == "each_time":
            return True
        # No trigger: protect when it matters.
        if _has(lines, "protect_creatures"):
            if kind != "window:step3" or not obs.battlefield(obs.player):
                return False
            cid = obs.announced()
            if cid < 0:
                return False
            ann = obs.defn(cid)
            return _has(ann.effects + ann.activate, "destroy") or bool(ann.sacrifice and False)
        if _has(lines, "divine_shield"):
            return True
        return kind == "window:step3"

    # -- other decisions -------------------------------------------------------------------
    def _guard(self, obs: Observation, legal: list[Action]) -> Action:
        dmg = obs.wound_pending()
        guards = [a for a in legal if a.kind == "guard"]
        if not guards:
            return legal[-1]
        g = min(guards, key=lambda a: (self._info(obs, a.a).keep, a.a))
        cheap = self._info(obs, g.a).keep
        me = obs.player
        if dmg >= 3 or obs.health(me) <= dmg + 8 or (dmg >= 2 and cheap <= 5.0) or cheap <= 0.5:
            return g
        return legal[-1]

    def _may(self, obs: Observation, legal: list[Action]) -> Action:
        last = self._last
        if last is not None and last.kind == "activate":
            try:
                d = obs.defn(last.a)
            except LookupError:
                d = None
            if d is not None and self._thins(d.activate):
                junk = any(self._is_junk(obs.defn(c)) for c in obs.hand())
                want = "yes" if junk else "no"
                for a in legal:
                    if a.kind == want:
                        return a
        return legal[0]

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
        val = lambda a: self._info(obs, a.a).power
        if purpose == "sacrifice":
            src = self._last_card(obs)
            if src is not None and _has(src.activate + src.effects, "recover"):
                # The card brings a creature back afterwards: sacrifice the best Demise, one that
                # has already acted this turn.
                return max(picks, key=lambda a: (self._info(obs, a.a).demise, obs.is_exhausted(a.a),
                                                 -self._info(obs, a.a).keep, -a.a))
            return min(picks, key=lambda a: (self._info(obs, a.a).keep, a.a))
        if purpose == "discard":
            return min(picks, key=lambda a: (self._hand_value(obs, a.a), a.a))
        if purpose == "keep":
            best = max(picks, key=lambda a: (self._keep_score(obs, a.a), -a.a))
            if self._keep_score(obs, best.a) < 3.0:
                return legal[-1]
            return best
        if purpose == "exile":
            me = obs.player
            hand = obs.hand()
            own = [a for a in picks if a.a in hand or a.a in obs.discard_pile(me)]
            if own:
                return min(own, key=lambda a: (self._hand_value(obs, a.a), a.a))
            return max(picks, key=lambda a: (self._threat(obs, a.a), -a.a))
        if purpose in ("destroy", "bounce"):
            return max(picks, key=lambda a: (self._threat(obs, a.a), -a.a))
        if purpose == "exhaust":
            return max(picks, key=lambda a: (self._threat(obs, a.a) + (3.0 if self._info(obs, a.a).d.guard else 0.0),
                                             -a.a))
        if purpose in ("rift", "recover"):
            plan = self._plan_factions(obs)
            best = max(picks, key=lambda a: (self._take_value(obs, a.a, plan), -a.a))
            if self._take_value(obs, best.a, plan) <= 1.0 and legal[-1].kind == "stop":
                return legal[-1]  # only Lost Souls: better not to draw them again
            return best
        if purpose == "set_aside":
            opp = obs.allegiance(obs.opponent)
            hot = [a for a in picks if any(opp[f] > 0 for f, _ in self._info(obs, a.a).d.reqs)]
            if hot:
                return max(hot, key=lambda a: (val(a), -a.a))
            return legal[-1]
        return max(picks, key=lambda a: (val(a), -a.a))

    def _last_card(self, obs: Observation) -> CardDef | None:
        """The card we last played or activated (the one whose choices are being asked)."""
        last = self._last
        if last is None or last.kind not in ("play", "activate"):
            return None
        try:
            return obs.defn(last.a)
        except LookupError:
            return None

    def _take_value(self, obs: Observation, cid: int, plan) -> float:
        t = self._info(obs, cid)
        if t.junk:
            return 0.0
        return t.power * self._fit(t.d, plan, obs.allegiance(obs.player))

    def _threat(self, obs: Observation, cid: int) -> float:
        return self._info(obs, cid).threat

    def _hand_value(self, obs: Observation, cid: int) -> float:
        """What a card in hand is worth keeping (exile and discard the least): a Lost Soul nothing,
        a Soul its essence, another card its worth (a trap more), halved while we cannot play it."""
        return self._hand_worth(obs, cid, obs.allegiance(obs.player))

    def _hand_worth(self, obs: Observation, cid: int, al: tuple[int, ...]) -> float:
        """_hand_value at allegiance ``al`` (ours, read once by the caller)."""
        t = self._rec.get(cid) or self._info(obs, cid)
        if t.hand_fixed or not t.d.reqs:
            return t.hand
        for f, n in t.d.reqs:
            if al[f] < n:
                return t.hand * 0.5
        return t.hand

    def _keep_score(self, obs: Observation, cid: int) -> float:
        t = self._info(obs, cid)
        d = t.d
        al = obs.allegiance(obs.player)
        playable = all(al[f] >= n for f, n in d.reqs)
        if d.is_trap:
            return (10.0 if playable else 0.0) + t.power
        if d.is_soul:
            return 0.0
        if not playable:
            return 0.0
        return t.power


#: The agents that need nothing but the rules; forge.sim.agents.make_agent is the one registry that seats them.
AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}
