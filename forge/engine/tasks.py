"""The work on ``State``'s stack: one small class per kind of task, its fields named.

The work still to do (the card being read, waiting effects, decisions) is a stack of tasks, so
``State.clone()`` is a handful of list copies and no generator or closure ever holds game state.
A task is never changed once built: work that moves on replaces the top of the stack with a new
task, so clones share their tasks and never see each other's progress. Apart from ``state``
because every part of the engine builds them and the observers (``Observation``, forge.play's
views, ``proofs``) read them.

Why slotted classes with a plain ``__init__``: of NamedTuples, dataclasses and slotted classes,
they are the fastest to build and to read (issue 26 §3); the tasks without fields, and the two
states of the main decision and of a drain, are built once (``TURN``, ``MAIN``, ``DRAIN``...).
"""
from __future__ import annotations

from typing import NamedTuple

# Pick purposes (``Pick.purpose``).
(P_DESTROY, P_EXILE, P_RIFT, P_RECOVER, P_EXHAUST, P_BOUNCE, P_DISCARD, P_SACRIFICE, P_KEEP,
 P_SETASIDE, P_FACTION) = range(11)
PICK_NAMES = ("destroy", "exile", "rift", "recover", "exhaust", "bounce", "discard", "sacrifice",
              "keep", "set_aside", "allegiance")

# Window kinds (``Window.kind``).
W_IDLE, W_STEP3, W_WHEN = 0, 1, 2
WINDOW_NAMES = ("idle", "step3", "when")


class Armed(NamedTuple):
    """A "when" trap an event armed (``State._when``, ``Window.cands``): the trap's instance, its
    stamp then (a card that left the hand and came back is a new card, not against this event),
    and the event's (card, stamp), what the trap's "that" means."""

    cid: int
    stamp: int
    ref: tuple


class Listener(NamedTuple):
    """An "each time" trap in play until the end of the turn (``State.listeners``): its owner,
    its design, the event it waits for, its instance."""

    owner: int
    design: object
    event: str
    cid: int


class Task:
    """Work on the stack. ``name`` is what ``State.decision_kind`` says of a decision it poses."""

    __slots__ = ()
    name = ""

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Turn(Task):
    """A turn begins: initiation (poison), then the strategy phase's start."""

    __slots__ = ()
    name = "turn"


class Main(Task):
    """The active player's main decision; ``window_offered``: the opponent's idle trap window
    was already offered since the last action (``MAIN_OFFERED``)."""

    __slots__ = ("window_offered",)
    name = "main"

    def __init__(self, window_offered: bool) -> None:
        self.window_offered = window_offered


class Window(Task):
    """``player`` may play a trap: a "when" trap among ``cands`` (``Armed``, those the events
    armed) or, unless ``kind`` is W_WHEN, a trap without a trigger."""

    __slots__ = ("player", "cands", "kind")
    name = "window"

    def __init__(self, player: int, cands: tuple, kind: int) -> None:
        self.player = player
        self.cands = cands
        self.kind = kind


class Lines(Task):
    """``owner`` reads ``lines`` of ``design`` (instance ``cid``, -1 for a Rite), from line
    ``at`` on. ``ctx`` is the triggering event's (card, stamp) that "that" refers to, or None;
    ``from_trap``: a trap caused it (a trap never answers a trap, nor what a trap causes).
    A waiting effect (``State.pools``) is such a task, not started."""

    __slots__ = ("owner", "lines", "at", "ctx", "from_trap", "design", "cid")
    name = "lines"

    def __init__(self, owner: int, lines: tuple, at: int, ctx, from_trap: bool, design, cid: int) -> None:
        self.owner = owner
        self.lines = lines
        self.at = at
        self.ctx = ctx
        self.from_trap = from_trap
        self.design = design
        self.cid = cid


class Pick(Task):
    """``player`` chooses up to ``count`` things for ``purpose`` (a P_ value), one decision each;
    ``picked`` so far. ``optional``: they may stop early. ``line``: the line that asks (an exile's
    or a rift's ``zone``, a recover's ``card_kind``); ``cost_of``: the design whose Sacrifice cost
    this pays (None for a Sacrifice line of a triggered section)."""

    __slots__ = ("purpose", "player", "count", "optional", "picked", "line", "cost_of", "from_trap")
    name = "pick"

    def __init__(self, purpose: int, player: int, count: int, optional: bool, picked: tuple,
                 line, cost_of, from_trap: bool) -> None:
        self.purpose = purpose
        self.player = player
        self.count = count
        self.optional = optional
        self.picked = picked
        self.line = line
        self.cost_of = cost_of
        self.from_trap = from_trap

    def adding(self, chosen) -> Pick:
        """This pick with one more thing chosen (tasks are immutable: records and clones share them)."""
        return Pick(self.purpose, self.player, self.count, self.optional, self.picked + (chosen,), self.line,
                    self.cost_of, self.from_trap)


class May(Task):
    """``owner`` says yes or no to a "may" ``line``."""

    __slots__ = ("owner", "line", "ctx", "from_trap")
    name = "may"

    def __init__(self, owner: int, line, ctx, from_trap: bool) -> None:
        self.owner = owner
        self.line = line
        self.ctx = ctx
        self.from_trap = from_trap


class Finish(Task):
    """Step 6: spell or trap ``cid`` goes to its owner's discard pile."""

    __slots__ = ("cid",)
    name = "finish"

    def __init__(self, cid: int) -> None:
        self.cid = cid


class Drain(Task):
    """Resolve the waiting effects of the top pool (Chains 3); ``nested``: the pool is a trap's
    own, dropped once empty (``DRAIN``, ``DRAIN_NESTED``)."""

    __slots__ = ("nested",)
    name = "order"

    def __init__(self, nested: bool) -> None:
        self.nested = nested


class Cleanup(Task):
    """Cleanup steps 1-2: ready the creatures, "end of your turn" effects wait."""

    __slots__ = ()
    name = "cleanup"


class CleanupKeep(Task):
    """Cleanup steps 3-4: unspent essence is lost, keep up to KEEP_AT_CLEANUP cards."""

    __slots__ = ()
    name = "cleanup2"


class EndTurn(Task):
    """Cleanup step 5 and the turn's end: draw up to HAND_SIZE, "until end of turn" expires."""

    __slots__ = ()
    name = "endturn"


class Guard(Task):
    """``player`` may exhaust a Guard against ``damage`` from ``source``'s Wound effect."""

    __slots__ = ("player", "damage", "source", "from_trap")
    name = "guard"

    def __init__(self, player: int, damage: int, source: int, from_trap: bool) -> None:
        self.player = player
        self.damage = damage
        self.source = source
        self.from_trap = from_trap


class SetupEnd(Task):
    """Expert variant 3: the set-aside cards go back into the recruit deck."""

    __slots__ = ()
    name = "setup_end"


TURN, CLEANUP_START, CLEANUP_KEEP, END_TURN, SETUP_END = Turn(), Cleanup(), CleanupKeep(), EndTurn(), SetupEnd()
MAIN, MAIN_OFFERED = Main(False), Main(True)
DRAIN, DRAIN_NESTED = Drain(False), Drain(True)
#: The windows without a "when" trap armed, by player: most windows (every card played has one).
IDLE_WINDOWS = (Window(0, (), W_IDLE), Window(1, (), W_IDLE))
STEP3_WINDOWS = (Window(0, (), W_STEP3), Window(1, (), W_STEP3))
