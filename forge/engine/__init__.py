"""The reference rules engine of Rift Commanders.

Pure: it imports ``forge.carddb.model``, ``forge.carddb.vocabulary`` and ``forge.core.limits`` (constants)
only, does no I/O and prints nothing. A game is reproducible from (card database, seed, agents): all
the game's randomness comes from ``random.Random(seed)`` owned by the state.

    game = Game(db)                                    # compile once per database
    state = game.new_state(seed=7, factions=("red", "blue"), expert=False, log=True)
    agents = (RandomAgent(1), HeuristicAgent(2))
    while not state.is_terminal():
        p = state.current_player()
        state.apply(agents[p].act(Observation(state, p), state.legal_actions()))
    state.winner, state.capped, state.turn

Modules: ``state`` (the game's data and protocol; its rules in ``turn``, ``playing``, ``chains``,
``picks``, ``verbs``, ``wound``, ``zones``), ``tasks`` (the work on its stack), ``rules`` (the rules'
numbers), ``cards`` (the designs compiled), ``game`` (setup), ``actions`` (decisions),
``observation`` (what a player sees), ``agents``, ``record`` (JSON-lines records,
replay; their logs in words are ``forge.text.narrate``'s), ``invariants``, ``proofs`` (``prove_cards(db)``),
``builder`` (hand-built positions), ``sample`` (a small game in code).
"""
from __future__ import annotations

from .actions import Action, IllegalDecision
from .agents import HeuristicAgent, RandomAgent
from .game import Game
from .observation import HiddenCard, Observation
from .play import run
from .state import State

__all__ = ["Action", "Game", "HeuristicAgent", "HiddenCard", "IllegalDecision", "Observation",
           "RandomAgent", "State", "run"]
