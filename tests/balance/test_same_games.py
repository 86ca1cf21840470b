"""The engine's speed work changes no game (issue 12 §2): seeded games and reports are pinned.

Digests taken before the simulation path was optimised: the same seeds must give byte-identical
game records (every logged event, decision and the final state's digest) and the identical
``forge simulate`` report, for each agent and the expert variant. The sample database is used
(forge.engine.sample), not cards/, so that tuning the shipped cards does not move these pins.
A digest that changes means the engine, an agent or the invariant checks now behave differently:
that is a rules change, to be made on purpose and re-pinned with the reason in the commit.
"""
from __future__ import annotations

import hashlib
import json

import pytest

from forge.engine import Game
from forge.engine.record import make_record, to_jsonl
from forge.engine.sample import sample_database
from forge.sim.simulate import PAIRINGS, Settings, _play, game_seed, run, to_json


@pytest.fixture(scope="module")
def db():
    return sample_database()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def records_digest(db, settings: Settings) -> str:
    """One digest over the JSON-lines records of games 0..N-1 (invariants checked at every step)."""
    game = Game(db, turn_cap=settings.turn_cap, decision_cap=settings.decision_cap)
    parts = []
    for i in range(settings.games):
        state = _play(game, settings, game_seed(settings.seed, i), PAIRINGS[i % len(PAIRINGS)], log=True)
        parts.append(_sha(to_jsonl(make_record(state, (settings.agents, settings.agents)))))
    return _sha("".join(parts))


def report_digest(db, settings: Settings) -> str:
    return _sha(json.dumps(to_json(run(db, settings), db), sort_keys=True))


RECORDS = {
    "heuristic": (Settings(games=72, seed=5, agents="heuristic"), "bbd4a25d5ddb4c7c2bb8"),
    "random": (Settings(games=24, seed=5, agents="random"), "e4d1429743ced51f6e31"),
    "heuristic expert": (Settings(games=24, seed=6, agents="heuristic", expert=True), "42c1e5930ca50289e061"),
    "search": (Settings(games=2, seed=5, agents="search", budget=2), "237159f30c153280cdb0"),  # purchases searched
}

REPORTS = {
    "heuristic": (Settings(games=48, seed=7, agents="heuristic"), "f8057bf64bbc12a5bfb2"),
    "random": (Settings(games=24, seed=7, agents="random"), "d9944ea19806e7fd52e2"),
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "search" else n
                                  for n in sorted(RECORDS)])  # the search agent: 20 s under load
def test_seeded_game_records_are_unchanged(db, name):
    settings, pinned = RECORDS[name]
    assert records_digest(db, settings) == pinned


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_seeded_simulate_report_is_unchanged(db, name):
    settings, pinned = REPORTS[name]
    assert report_digest(db, settings) == pinned
