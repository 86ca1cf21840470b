"""The rules of Rift Commanders as a state machine (OpenSpiel-like protocol).

``State`` holds the whole game as plain lists and ints. The work still to do
(the card being read, waiting effects, decisions) is a stack of small immutable
*tasks* (``forge.engine.tasks``), so ``clone()`` is a handful of list copies and no
generator or closure ever holds game state. The driver asks ``current_player()`` and
``legal_actions()``, then calls ``apply(action)``; the state runs every automatic
step until the next decision or the end of the game.

Players are 0 and 1. Card instances are ints (indices into ``State.defs``). A
creature's identity on the battlefield is its *stamp*: a card that changes zones
is a new card (rulebook, Creatures), so "that creature" references carry the
stamp they were made with.

This module holds the state's data, its copy and the protocol; the rules are its parts, one
module each, mixed into ``State``: ``turn`` (the turn and the main decision), ``playing`` (the
six steps, trap windows), ``chains`` (events, waiting effects, reading lines), ``verbs``,
``picks``, ``wound`` and ``zones``. The rules' numbers live in ``rules`` and are re-exported here.
"""
from __future__ import annotations

import random

from ..carddb.vocabulary import MAX_ALLEGIANCE  # noqa: F401 - re-exported: the render aids read it here
from .actions import Action, IllegalDecision
from .cards import CardDef, CompiledCards
from .chains import ChainsMixin
from .picks import PicksMixin
from .playing import PlayingMixin
from .rules import (CLEANUP, HAND_SIZE, INITIATION, KEEP_AT_CLEANUP, MAX_CREATURES, NF, OVER, PLAY_STEPS,  # noqa: F401
                    PLAYERS, POISON_DECAY, RAISE_COST, RITE_SLOTS, ROW_SIZE, SETUP, START_ALLEGIANCE, START_HEALTH,
                    STRATEGY, TURN_PHASES, WOUND_PROTECTION, GameOver)
from .tasks import (P_BOUNCE, P_DESTROY, P_DISCARD, P_EXHAUST, P_EXILE, P_FACTION, P_KEEP, P_RECOVER,  # noqa: F401
                    P_RIFT, P_SACRIFICE, P_SETASIDE, PICK_NAMES, W_IDLE, W_STEP3, W_WHEN, WINDOW_NAMES, Cleanup,
                    Armed, CleanupKeep, Drain, EndTurn, Finish, Guard, Lines, Listener, Main, May, Pick, SetupEnd, Task,
                    Turn, Window)
from .turn import TurnMixin
from .verbs import HANDLED_VERBS, VERBS, VerbsMixin  # noqa: F401 - HANDLED_VERBS: re-exported
from .wound import WoundMixin
from .zones import ZonesMixin

#: decision_kind's answers, built once.
_PICK_KINDS = tuple("pick:" + name for name in PICK_NAMES)
_WINDOW_KINDS = tuple("window:" + name for name in WINDOW_NAMES)
#: The verbs' handlers (``verbs.VERBS``, the same dict: a test may replace one).
_VERBS = VERBS


class State(TurnMixin, PlayingMixin, ChainsMixin, PicksMixin, VerbsMixin, WoundMixin, ZonesMixin):
    """One game in progress. Build it with ``Game.new_state`` or ``forge.engine.builder``."""

    # -- construction -----------------------------------------------------------------

    def __init__(self, game, seed: int) -> None:
        self.game = game
        self.cards: CompiledCards = game.cards
        self.seed = seed
        self.rng = random.Random(seed)
        self.defs: list[CardDef] = []
        self.owner: list[int] = []
        self.exhausted: list[bool] = []
        self.stamp: list[int] = []
        #: The trap instances, "when" traps apart from the others (new_card): a hand without any
        #: is passed over by one set operation when a window opens or an event fires.
        self.when_traps: set[int] = set()
        self.free_traps: set[int] = set()
        self.next_stamp = 1
        self.turn = 0
        self.active = 0
        self.first = 0
        self.expert = False
        self.phase = SETUP
        self.factions = ["", ""]
        self.health = [START_HEALTH] * PLAYERS
        self.poison = [0, 0]
        self.essence = [0, 0]
        self.alleg = [[0] * NF, [0] * NF]
        self.raised = [False, False]
        self.bonus = [False, False]
        self.deck: list[list[int]] = [[], []]
        self.hand: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.field: list[list[int]] = [[], []]
        self.played: list[list[int]] = [[], []]
        self.resolving: list[int] = []
        self.recruit: list[int] = []
        self.row: list[int] = [-1] * ROW_SIZE
        self._row_seen: list[int] = []  # the row _offers last read, and what it found (_main_options)
        self._row_buys: tuple = ((), 0, 0, ())
        self.exile: list[int] = []
        self.set_aside: list[int] = []
        self.rite_of: list[CardDef | None] = [None, None]
        self.rite_owner = [-1] * NF
        self.shield = [0, 0]
        self.protect = [False, False]
        self.listeners: list[Listener] = []  # "each time" traps in play this turn
        #: Waiting effects (Lines tasks not started), one pool per card being resolved (a trap
        #: opens its own): Drain tasks resolve the top one.
        self.pools: list[list[Lines]] = [[]]
        self.stack: list[Task] = []
        self.pending = -1
        self.options: list[Action] = []
        self._when: list[Armed] = []  # "when" traps the last events armed
        self._now: list[Lines] = []  # "immediately" lines triggered by the last step
        self._ft = False  # what happens now comes from a trap (Lines.from_trap)
        self.terminal = False
        self.winner: int | None = None
        self.capped: str | None = None
        #: The phase the loser was in when their health reached 0: initiation is poison (the balance lab).
        self.lost_in: str | None = None
        self.decisions = 0
        self.history: list[Action] = []
        self.log: list[tuple] | None = None
        self.cov: dict | None = None

    def new_card(self, d: CardDef, owner: int) -> int:
        """Create a physical card instance (scenarios and the position builder): its id."""
        return self.new_cards((d,), owner)[0]

    def new_cards(self, ds: tuple[CardDef, ...], owner: int) -> range:
        """A physical card instance for each design of ``ds``, in one go (setup deals a hundred
        cards a game): their ids."""
        first = len(self.defs)
        n = len(ds)
        self.defs.extend(ds)
        self.owner.extend([owner] * n)
        self.exhausted.extend([False] * n)
        self.stamp.extend([0] * n)
        for cid, d in enumerate(ds, first):
            if d.is_trap:
                (self.when_traps if d.trap_kind == "when" else self.free_traps).add(cid)
        return range(first, first + n)

    def clone(self) -> "State":
        """A fast independent copy for search (no log, no coverage); the tasks, never changed
        once built, are shared."""
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        for name in ("owner", "exhausted", "stamp", "health", "poison", "essence", "raised",
                     "resolving", "recruit", "row", "exile", "set_aside", "rite_of", "rite_owner",
                     "shield", "protect", "listeners", "bonus", "stack", "options", "_when", "_now", "history",
                     "factions"):
            setattr(s, name, getattr(self, name)[:])
        for name in ("alleg", "deck", "hand", "discard", "field", "played", "pools"):
            setattr(s, name, [x[:] for x in getattr(self, name)])
        s.when_traps, s.free_traps = set(self.when_traps), set(self.free_traps)
        s.log = None
        s.cov = None
        return s

    # -- the protocol -----------------------------------------------------------------

    def current_player(self) -> int:
        """The player to decide, or -1 when the game is over."""
        return -1 if self.terminal else self.pending

    def legal_actions(self) -> list[Action]:
        """The options of the current decision, in a stable order (do not mutate)."""
        return self.options

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def decision_kind(self) -> str:
        """What the current decision is about, e.g. ``main``, ``window:when``, ``pick:destroy``."""
        if self.terminal or not self.stack:
            return "none"
        t = self.stack[-1]
        if type(t) is Pick:
            return _PICK_KINDS[t.purpose]
        if type(t) is Window:
            return _WINDOW_KINDS[t.kind]
        return t.name

    def apply(self, action: Action) -> None:
        """Play the current player's decision and run the game to the next one."""
        if self.terminal:
            raise IllegalDecision(f"illegal decision {tuple(action)!r}: the game is over")
        if action not in self.options:
            raise IllegalDecision(
                f"illegal decision {tuple(action)!r} for player {self.pending} at "
                f"{self.decision_kind()!r} (turn {self.turn}); legal options: "
                + ", ".join(repr(tuple(o)) for o in self.options))
        player = self.pending
        self.decisions += 1
        self.history.append(action)
        if self.log is not None:
            self.log.append(("decision", player, action))
        self.pending = -1
        task = self.stack[-1]
        try:
            _APPLY[type(task)](self, task, action)
        except GameOver:
            return
        if self.decisions >= self.game.decision_cap and not self.terminal:
            self._cap("decisions")
            return
        self._advance()

    # -- the automatic loop -----------------------------------------------------------

    def _advance(self) -> None:
        """Run tasks until a decision is posed or the game ends."""
        stack, when, now = self.stack, self._when, self._now  # (the tasks change these lists, never replace them)
        run = _RUN
        try:
            while self.pending < 0:
                if when:
                    cands = tuple(when)
                    when.clear()
                    stack.append(Window(1 - self.active, cands, W_WHEN))
                if now:
                    # "Immediately" acts right away: before the next line, window or action.
                    stack.extend(reversed(now))
                    now.clear()
                task = stack[-1]
                run[type(task)](self, task)
        except GameOver:
            pass

    def _ask(self, player: int, options: list[Action]) -> Action | None:
        """Pose a decision; a single option is applied at once (no real choice)."""
        if len(options) == 1:
            return options[0]
        self.pending = player
        self.options = options
        return None

    def _cap(self, reason: str) -> None:
        self.terminal = True
        self.capped = reason
        self.phase = OVER
        self.pending = -1
        self.options = []
        self.stack.clear()
        if self.log is not None:
            self.log.append(("capped", reason))

    def _lose(self, p: int) -> None:
        """A commander at 0 loses at once (The end; GP 8)."""
        self.health[p] = 0
        self.terminal = True
        self.winner = 1 - p
        self.lost_in = self.phase
        self.phase = OVER
        self.pending = -1
        self.options = []
        self.stack.clear()
        self.pools = [[]]
        if self.log is not None:
            self.log.append(("win", 1 - p))
        raise GameOver


def _no_apply(state: State, task: Task, action: Action) -> None:  # pragma: no cover
    raise AssertionError(f"no decision at task {task!r}")


#: What each kind of task does when it comes to the top of the stack, and with the decision it posed.
_RUN = {Turn: State._run_turn, Main: State._run_main, Window: State._run_window, Lines: State._run_lines,
        Pick: State._run_pick, May: State._run_may, Finish: State._run_finish, Drain: State._run_drain,
        Cleanup: State._run_cleanup, CleanupKeep: State._run_cleanup_keep, EndTurn: State._run_endturn,
        Guard: State._run_guard, SetupEnd: State._run_setup_end}
_APPLY = {**dict.fromkeys(_RUN, _no_apply), Main: State._apply_main, Window: State._apply_window,
          Pick: State._apply_pick, May: State._apply_may, Drain: State._apply_drain, Guard: State._apply_guard}
