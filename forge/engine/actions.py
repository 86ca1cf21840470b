"""Decisions: the typed, hashable options a player's agent chooses from.

An ``Action`` is a small named tuple ``(kind, a, b)`` of a string and two ints, so
it hashes, compares, sorts and serialises to JSON as ``[kind, a, b]``. What ``a``
and ``b`` mean depends on ``kind``:

=========== ======================================= ==============================
kind        a                                       b
=========== ======================================= ==============================
``play``    card instance played (Soul or spell)    -1
``summon``  creature instance summoned              -1
``activate`` creature instance activated            -1
``buy``     recruitment slot (0..7)                 -1
``raise``   faction index (``FACTIONS``)            -1
``end``     -1 (end the strategy phase)             -1
``trap``    trap instance played                    event index for a "when" trap, else -1
``pass``    -1 (play no trap, use no Guard)         -1
``guard``   creature instance that guards           -1
``pick``    card instance chosen (target, kept card, set-aside card)
``faction`` faction index for one point of an allegiance split
``stop``    -1 (stop choosing: "up to X", keep fewer cards)
``yes`` / ``no`` answer to "you may"
``order``   index of the waiting effect resolved next (in the pool)
=========== ======================================= ==============================
"""
from __future__ import annotations

from typing import NamedTuple


class Action(NamedTuple):
    """One legal option of a decision."""

    kind: str
    a: int = -1
    b: int = -1

    def to_json(self) -> list:
        return [self.kind, self.a, self.b]

    @classmethod
    def from_json(cls, data: list) -> "Action":
        return cls(str(data[0]), int(data[1]), int(data[2]))


END = Action("end")
PASS = Action("pass")
STOP = Action("stop")
YES = Action("yes")
NO = Action("no")


class IllegalDecision(ValueError):
    """An agent (or a replay) chose an option that is not legal at this decision."""
