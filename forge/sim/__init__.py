"""Simulation: games played in bulk (locally or on Ray), the agents that play them, the statistics of balance.

Beside the renderer, above the engine and text.
"""
