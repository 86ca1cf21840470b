"""Seeded games give the very records base's engine gave: a change of the engine's code that is
meant to change nothing (issue 26 §3: typed tasks, named line fields, State split) must leave
every decision, event and coverage count of these games as they were.

The records under ``records/`` were written by ``python tests/engine/test_seeded_records.py``
with the engine of main before that change; run it again only for a change of the rules.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

if __name__ == "__main__":  # the writer: run from the tree whose engine is the reference
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from forge.engine import Game, HeuristicAgent, RandomAgent, run
from forge.engine.record import make_record, to_jsonl
from forge.engine.sample import sample_database

RECORDS = Path(__file__).with_name("records")
#: (seed, factions, expert, agents): both agents, both variants, every faction; whole games.
GAMES = (
    (11, ("red", "blue"), False, ("random", "random")),
    (12, ("white", "black"), True, ("heuristic", "random")),
    (14, ("black", "red"), True, ("random", "heuristic")),
)
_AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}


def play(game: Game, seed: int, factions: tuple[str, str], expert: bool, agents: tuple[str, str]) -> str:
    """The game's record (JSON lines) followed by its coverage counts, one JSON line."""
    s = game.new_state(seed, factions, expert=expert, log=True, coverage=True)
    run(s, [_AGENTS[agents[0]](seed), _AGENTS[agents[1]](seed + 1)])
    cov = sorted([list(k), v] for k, v in s.cov.items())
    return to_jsonl(make_record(s, agents)) + json.dumps({"coverage": cov}, separators=(",", ":")) + "\n"


def _name(seed: int) -> str:
    return f"game-{seed}.jsonl"


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(sample_database())


@pytest.mark.parametrize("seed,factions,expert,agents", GAMES)
def test_a_seeded_game_gives_the_record_base_gave(game, seed, factions, expert, agents):
    expected = (RECORDS / _name(seed)).read_text(encoding="utf-8")
    got = play(game, seed, factions, expert, agents)
    assert got.count("\n") > 50  # a whole game, not an empty one
    if got != expected:  # the first line that differs, not two pages of JSON
        for n, (a, b) in enumerate(zip(got.splitlines(), expected.splitlines()), 1):
            assert a == b, f"{_name(seed)} line {n}"
        assert got == expected


if __name__ == "__main__":
    RECORDS.mkdir(exist_ok=True)
    g = Game(sample_database())
    for spec in GAMES:
        (RECORDS / _name(spec[0])).write_text(play(g, *spec), encoding="utf-8")
