"""The reference rules engine of Rift Commanders.

Pure: it imports ``forge.model`` and ``forge.vocabulary`` only, does no I/O and
prints nothing. A game is reproducible from (card database, seed, agents).

    game = Game(db)
    state = game.new_state(seed=7, factions=("red", "blue"))
    while not state.is_terminal():
        action = agents[state.current_player()].act(Observation(state, p), state.legal_actions())
        state.apply(action)
"""
from __future__ import annotations

from .actions import Action, IllegalDecision
from .agents import HeuristicAgent, RandomAgent, make_agent
from .game import Game
from .observation import HiddenCard, Observation
from .play import run
from .state import State

__all__ = ["Action", "Game", "HeuristicAgent", "HiddenCard", "IllegalDecision", "Observation",
           "RandomAgent", "State", "make_agent", "run"]
