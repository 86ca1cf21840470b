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

# -- forge check's box (issue 23 §4): the OS limits each stage's worker process runs under --------------------
# Measured on the shipped game (forge check, each stage's child; figures in benchmarks/check_bench.py --stages):
# the largest stage peaks at about XXX MB resident and XXX MB of address space, and uses at most XXX CPU s.
#: Address space of a stage (RLIMIT_AS): an allocation past it is a MemoryError, reported as a finding.
BOX_MEMORY = 2 << 30
#: CPU seconds of a stage (RLIMIT_CPU); the smoke simulation gets BOX_CPU_PER_GAME more per game asked.
BOX_CPU = 60
BOX_CPU_PER_GAME = 0.5
#: Wall seconds of a stage, per CPU second of its budget: a backstop for a child that waits instead of working,
#: generous for a CI machine shared with other jobs.
BOX_WALL_PER_CPU = 4
#: Bytes of the result a stage sends back (its findings and summary, pickled).
BOX_OUTPUT = 8 << 20
