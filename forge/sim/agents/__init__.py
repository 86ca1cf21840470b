"""Every player forge can seat: the engine's random and heuristic agents, and the search agent.

The engine keeps the agents that need nothing but the rules; the search agent lives here
because it plays imagined games (it needs the engine as a whole). ``make_agent`` is what
forge.sim.simulate and the benchmarks call: one name space, one ``budget`` knob.
"""
from __future__ import annotations

from ...engine.agents import AGENTS as ENGINE_AGENTS
from .search import DEFAULT_BUDGET, SearchAgent

NAMES = (*ENGINE_AGENTS, "search")


def make_agent(name: str, seed: int, budget: int = DEFAULT_BUDGET):
    """A fresh agent called ``name`` seeded ``seed``; ``budget`` is the search agent's iterations."""
    if name == "search":
        return SearchAgent(seed, budget=budget)
    if name in ENGINE_AGENTS:
        return ENGINE_AGENTS[name](seed)
    raise ValueError(f"unknown agent {name!r}; choose from {', '.join(NAMES)}")


__all__ = ["DEFAULT_BUDGET", "NAMES", "SearchAgent", "make_agent"]
