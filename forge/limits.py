"""Defaults and caps the command line shows in its help, kept apart so that `forge --help` loads nothing else."""
from __future__ import annotations

#: Games of `forge check`'s smoke simulation: two rounds of the 12 ordered pairings.
SMOKE_GAMES_CHECK = 24
#: Games of `forge build`'s smoke simulation: every ordered pairing of factions, both seats, four times.
SMOKE_GAMES_BUILD = 48
#: The largest turn and decision caps a game (or a record) may ask for.
MAX_TURN_CAP = 100_000
MAX_DECISION_CAP = 1_000_000
#: forge simulate --budget: the search agent's imagined games per decision (each a few turns long).
DEFAULT_SEARCH_BUDGET = 64
MAX_SEARCH_BUDGET = 100_000
