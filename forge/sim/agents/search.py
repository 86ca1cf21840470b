"""A search agent: information-set Monte Carlo tree search over determinized hidden information.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), guided by the heuristic
agent and compared with common random numbers. At each decision, in rounds:

1. one *determinization*: the observed state with every hidden thing redrawn
   (forge.engine.determinize: the opponent's hand, the decks' order, the state's RNG);
2. every legal option is tried on a copy of that same determinization, with the same seeds
   for the imagined players, so options are compared on the same cards and draws;
3. below the option, one tree of action sequences shared by every determinization: a node
   follows the heuristic agent's choice, then widens to other options as its visits grow
   (progressive widening), chosen by UCB1 among those legal in this determinization with
   *availability* counts (a move is judged against the times it could have been chosen);
4. two heuristic agents play on for ``horizon`` turns, and ``evaluate`` scores the position
   (health, poison and the worth of the cards each player owns), or the game's result;
5. the score goes to every node on the path, for the player who chose there.

Buying is weighed apart: a card bought pays off over many turns, past what ``evaluate`` sees
at the horizon, so each purchase the guide could make instead (one per card design, or buying
nothing) is tried on the same determinizations and played out by the guides to the end of the
game (``ROLLOUT_TURNS`` at most), and scored by who wins: a rollout policy-improvement step over
the heuristic agent's own buying. The other deck-shaping picks and raising allegiance stay the
guide's (``STRATEGIC``).

The agent plays the heuristic agent's choice unless another option beats it round by round
by more than chance would (``CONFIDENCE`` standard errors of the paired differences): a
tiny budget plays like the heuristic, a larger one corrects it where the imagined games
say so. The budget is a number of imagined games, never a time, so the same seed plays
the same game on any machine under any load. Every random draw comes from the agent's
``random.Random(seed)``; forge.sim.simulate derives that seed from the game's.
"""
from __future__ import annotations

import math
import random

from ...engine.actions import Action
from ...engine.agents import HeuristicAgent, card_power
from ...engine.determinize import determinize
from ...engine.observation import Observation
from ...engine.state import State
from ...core.limits import DEFAULT_SEARCH_BUDGET

#: Imagined games per decision unless told otherwise (forge simulate --budget); at least two per option.
DEFAULT_BUDGET = DEFAULT_SEARCH_BUDGET
#: Turns an imagined game goes on after the tree before its position is scored.
DEFAULT_HORIZON = 2
#: UCB1's exploration constant, for scores in [-1, 1].
EXPLORATION = 0.7
#: Health points a card's worth (forge.engine.agents.card_power) counts for, at the horizon.
CARD_WEIGHT = 0.5
#: The score of a position is tanh(advantage / SCALE): 12 points of advantage is about 0.75.
SCALE = 12.0
#: A node below the root tries a second option after WIDEN visits, a third after 4 * WIDEN...
#: (progressive widening: until then it follows the heuristic agent).
WIDEN = 8
#: Decisions left to the guide, and main-phase actions the search neither takes nor replaces.
STRATEGIC = frozenset({"pick:keep", "pick:set_aside", "pick:rift", "pick:recover", "pick:allegiance"})
STRATEGIC_ACTIONS = frozenset({"buy", "raise", "end"})
#: Another option replaces the heuristic agent's choice when its paired advantage is more than
#: CONFIDENCE standard errors above 0.
CONFIDENCE = 1.5
#: For a purchase, whose imagined games end in a win or a loss (noisier, and each option differs
#: from the guess by a whole card): BUY_CONFIDENCE standard errors. 1.0 measured stronger than
#: 1.5 and no weaker than 0 (benchmarks/search_strength.py).
BUY_CONFIDENCE = 1.0
#: Turns an imagined game after a purchase goes on, at most, before its position is scored instead.
ROLLOUT_TURNS = 60


class _Node:
    """One action sequence: how often it was chosen, could have been chosen, and what it scored."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def evaluate(state: State, player: int, worth: list[float] | None = None) -> float:
    """How good ``state`` is for ``player``, in [-1, 1]: ±1 for a won or lost game, else the
    difference in health (poison counts double: it hits again next turn) plus the worth of
    the cards each one owns, squashed. ``worth``: each card instance's worth, if already known."""
    if state.terminal:
        if state.winner is None:
            return 0.0
        return 1.0 if state.winner == player else -1.0
    if worth is None:
        worth = card_worths(state)
    opp = 1 - player
    adv = (state.health[player] - 2 * state.poison[player]) - (state.health[opp] - 2 * state.poison[opp])
    owned = [0.0, 0.0]
    for cid, owner in enumerate(state.owner):
        if owner >= 0:
            owned[owner] += worth[cid]
    adv += CARD_WEIGHT * (owned[player] - owned[opp])
    return math.tanh(adv / SCALE)


def card_worths(state: State) -> list[float]:
    """The worth of every card instance of a game (forge.engine.agents.card_power), by instance."""
    return [card_power(d) for d in state.defs]


class SearchAgent:
    """Chooses by ISMCTS within a budget of imagined games (see the module's docstring)."""

    name = "search"

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, horizon: int = DEFAULT_HORIZON,
                 guide=HeuristicAgent, defer: bool = True, tactics: bool = True) -> None:
        if budget < 1:
            raise ValueError("the search budget is at least 1 imagined game")
        self.rng = random.Random(seed)
        self.budget = budget
        self.horizon = horizon
        #: The agent class that plays the imagined games and whose choice is kept unless beaten.
        self.guide = guide
        self._guide = guide(seed)
        #: Leave the STRATEGIC decisions to the guide (``candidates``); False: weigh every option.
        self.defer = defer
        #: Search the tactical decisions too (False: only purchases, about ten times cheaper a game).
        self.tactics = tactics
        self._worth: list[float] = []  # card_worths of this agent's game, computed once
        #: After each decision: {action: (visits, mean score)} at the root (tests and diagnostics).
        self.last_stats: dict[Action, tuple[int, float]] = {}

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        guess = self._guide.act(obs, legal)  # keeps the guide's memory of the game up to date too
        self.last_stats = {}
        buys = self.purchases(obs, legal, guess) if self.defer else []
        if len(buys) > 1:
            return self._weigh_purchases(obs, buys, guess)
        if not self.tactics:
            return guess
        options = self.candidates(obs, legal, guess) if self.defer else legal
        if len(options) == 1:
            return guess
        root = _Node()
        for a in options:
            root.children[a] = _Node()
        rounds = max(2, self.budget // len(options))
        scores: dict[Action, list[float]] = {a: [] for a in options}
        for _ in range(rounds):
            # One determinization and one set of guide seeds for every option: common random
            # numbers, so options are compared on the same imagined cards and draws.
            world = determinize(obs, self.rng)
            seeds = (self.rng.getrandbits(32), self.rng.getrandbits(32))
            for a in options:
                scores[a].append(self._iterate(world.clone(), seeds, root, a))
        self.last_stats = {a: (n.visits, n.total / n.visits) for a, n in root.children.items()}
        return self._choose(options, guess, scores)

    @staticmethod
    def purchases(obs: Observation, legal: list[Action], guess: Action) -> list[Action]:
        """When the guide would buy or end its main phase with a purchase open: the guess, one purchase
        of each other card design on offer, and ending the turn (buying nothing); else nothing."""
        if obs.decision != "main" or guess.kind not in ("buy", "end"):
            return []
        row = obs.recruitment_row()  # a purchase names its slot in the row
        options, designs = [guess], {obs.defn(row[guess.a]).i} if guess.kind == "buy" else set()
        for a in legal:
            if a.kind == "buy":
                design = obs.defn(row[a.a]).i
                if design not in designs:
                    designs.add(design)
                    options.append(a)
            elif a.kind == "end" and a != guess:
                options.append(a)
        return options if len(designs) > (guess.kind == "buy") else []

    def _weigh_purchases(self, obs: Observation, options: list[Action], guess: Action) -> Action:
        """Each purchase played out to the end on the same determinizations; the guess unless beaten."""
        rounds = max(2, self.budget // len(options))
        scores: dict[Action, list[float]] = {a: [] for a in options}
        me = obs.player
        for _ in range(rounds):
            world = determinize(obs, self.rng)
            seeds = (self.rng.getrandbits(32), self.rng.getrandbits(32))
            for a in options:
                scores[a].append(self._play_out(world.clone(), seeds, a, me))
        self.last_stats = {a: (len(v), sum(v) / len(v)) for a, v in scores.items()}
        return self._choose(options, guess, scores, BUY_CONFIDENCE)

    def _play_out(self, s: State, seeds: tuple[int, int], first: Action, me: int) -> float:
        """An imagined game from ``s`` after ``first``, the guides playing both sides to the end:
        ±1 for a win or a loss (0 a draw), or ``evaluate`` if it runs past ROLLOUT_TURNS."""
        guides = (self.guide(seeds[0]), self.guide(seeds[1]))
        views = (Observation(s, 0), Observation(s, 1))
        s.apply(first)
        end = s.turn + ROLLOUT_TURNS
        while not s.terminal and s.turn < end:
            p = s.pending
            s.apply(guides[p].act(views[p], s.options))
        return self._score(s, me)

    def _score(self, s: State, player: int) -> float:
        """``evaluate`` for ``player``, with this game's card worths computed once."""
        if len(self._worth) != len(s.defs):
            self._worth = card_worths(s)
        return evaluate(s, player, self._worth)

    @staticmethod
    def candidates(obs: Observation, legal: list[Action], guess: Action) -> list[Action]:
        """The options the search weighs against the guide's ``guess``: those whose worth shows within
        the horizon (what to play, activate, target, guard, spring). Buying, raising allegiance, ending
        the turn and the picks that shape the deck (STRATEGIC) pay off over many turns, past what
        ``evaluate`` can see: there the guide's long-term judgement is kept (purchases are then weighed
        apart, by games played to the end: ``purchases``)."""
        decision = obs.decision
        if decision in STRATEGIC or guess.kind in STRATEGIC_ACTIONS:
            return [guess]
        if decision == "pick:exile" and any(a.a in obs.hand() or a.a in obs.discard_pile(obs.player) for a in legal):
            return [guess]  # thinning one's own deck: strategic too
        return [a for a in legal if a.kind not in STRATEGIC_ACTIONS]

    @staticmethod
    def _choose(legal: list[Action], guess: Action, scores: dict[Action, list[float]],
                confidence: float = CONFIDENCE) -> Action:
        """The heuristic agent's choice, unless another option beats it round by round by more
        than chance would (the lower end of the paired differences' interval is above 0)."""
        base = scores[guess]
        n = len(base)
        best, best_low = guess, 0.0
        for a in legal:
            if a == guess:
                continue
            d = [x - y for x, y in zip(scores[a], base)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            low = mean - confidence * math.sqrt(var / n)
            if low > best_low:
                best, best_low = a, low
        return best

    def _iterate(self, s: State, seeds: tuple[int, int], root: _Node, first: Action) -> float:
        """One imagined game from ``s`` that starts with ``first``: its score for the chooser."""
        rng = self.rng
        guides = (self.guide(seeds[0]), self.guide(seeds[1]))
        views = (Observation(s, 0), Observation(s, 1))
        me = s.pending
        node = root.children[first]
        path: list[tuple[_Node, int]] = [(node, me)]
        s.apply(first)
        while not s.terminal:
            p = s.pending
            opts = s.options
            guess = guides[p].act(views[p], opts)
            children = node.children
            if guess not in children:
                children[guess] = _Node()
                a = guess
                leaf = True
            else:
                legal_here = [o for o in opts if o in children]
                fresh = [o for o in opts if o not in children]
                if fresh and len(legal_here) < 1 + int(math.sqrt(node.visits / WIDEN)):
                    a = fresh[int(rng.random() * len(fresh))]
                    children[a] = _Node()
                    leaf = True
                else:
                    a = self._select(node, legal_here)
                    leaf = False
            for o in opts:
                c = children.get(o)
                if c is not None:
                    c.avail += 1
            node = children[a]
            path.append((node, p))
            s.apply(a)
            if leaf:
                break
        end = s.turn + self.horizon
        while not s.terminal and s.turn < end:
            p = s.pending
            s.apply(guides[p].act(views[p], s.options))
        score0 = self._score(s, 0)
        for n, p in path:
            n.visits += 1
            n.total += score0 if p == 0 else -score0
        return score0 if me == 0 else -score0

    @staticmethod
    def _select(node: _Node, opts: list[Action]) -> Action:
        best, best_v = opts[0], -math.inf
        children = node.children
        for a in opts:
            c = children[a]
            v = c.total / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits) if c.visits else math.inf
            if v > best_v:
                best, best_v = a, v
        return best
