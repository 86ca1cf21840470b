"""The numbers and names of the rules every part of the engine reads.

Apart from ``state`` because the parts of ``State`` (``turn``, ``playing``, ``chains``, ``picks``,
``verbs``, ``wound``, ``zones``) all read them and ``state`` imports those parts: here they have
one home below all of them. ``forge.engine.state`` re-exports each name, the place the books, the
render aids and the tests read them from.
"""
from __future__ import annotations

from ..carddb.vocabulary import FACTIONS

MAX_CREATURES = 5
#: Rites a player may own, on their Rite slot: ``_take_rite`` gives none to a player who has one.
RITE_SLOTS = 1
HAND_SIZE = 5
ROW_SIZE = 8
START_HEALTH = 40
#: A duel: players 0 and 1.
PLAYERS = 2
#: Allegiance a commander starts with in their own faction (setup 3); the others start at 0.
START_ALLEGIANCE = 1
#: Cards a player may keep from their hand at cleanup (step 4), the rest is discarded.
KEEP_AT_CLEANUP = 2
#: Soul essence the once-per-turn allegiance raise costs (strategy phase).
RAISE_COST = 1
#: Poison counters removed after poison damage (initiation phase).
POISON_DECAY = 1
NF = len(FACTIONS)

# Phases.
SETUP, INITIATION, STRATEGY, CLEANUP, OVER = "setup", "initiation", "strategy", "cleanup", "over"
#: The three phases of a turn, always in this order (The turn).
TURN_PHASES = (INITIATION, STRATEGY, CLEANUP)
#: The six steps every card played and every ability activated follows, in this order (The six
#: steps): ``_push_played`` stacks them so (the window, the Sacrifice cost, the lines, the finish).
PLAY_STEPS = ("announce", "played", "window", "cost", "resolve", "finish")
#: What meets a Wound effect aimed at you, in this order, before the rest is dealt
#: (Protection against Wounds 1-3): ``_wound`` applies them so.
WOUND_PROTECTION = ("aegis", "divine_shield", "guard")


class GameOver(Exception):
    """Raised the moment a commander reaches 0: everything left is ignored (GP 8)."""


def count(cov: dict, key: tuple) -> None:
    """One more use of ``key`` in the coverage counts (``State.cov``)."""
    cov[key] = cov.get(key, 0) + 1
