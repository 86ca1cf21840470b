"""Driving a game with agents."""
from __future__ import annotations

from typing import Callable, Sequence

from .observation import Observation
from .state import State


def run(state: State, agents: Sequence, on_step: Callable[[State], None] | None = None) -> State:
    """Ask each decision of ``state`` to its player's agent until the game ends."""
    views = (Observation(state, 0), Observation(state, 1))
    while not state.terminal:
        p = state.pending
        state.apply(agents[p].act(views[p], state.options))
        if on_step is not None:
            on_step(state)
    return state
