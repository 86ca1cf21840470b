"""The balance lab's analytics (issue 12 §1), each on constructed data with a known answer."""
from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from forge.sim.analysis import (HealthTrack, add_health, card_effects, CardTally, cost_curve, ending, endings,
                                    faction_matrix, health_curves, length_summary)
from forge.engine import Game, HeuristicAgent, run
from forge.engine.builder import build
from forge.engine.sample import sample_database

FACTIONS = ["red", "white", "black", "blue"]


def test_how_a_game_ended():
    assert ending(1, None, "initiation") == "poison"
    assert ending(0, None, "strategy") == "wound"
    assert ending(0, None, "cleanup") == "wound"
    assert ending(None, "turns", None) == "turns"
    assert ending(None, "decisions", None) == "decisions"


def test_endings_share_with_intervals():
    out = endings(Counter({"wound": 30, "poison": 10}), 40, no_cards=4, market_empty=0)
    assert out["kinds"]["wound"]["k"] == 30 and out["kinds"]["wound"]["value"] == 0.75
    assert out["kinds"]["poison"]["value"] == 0.25 and out["kinds"]["turns"]["k"] == 0
    assert out["kinds"]["turns"]["high"] > 0  # 0 of 40 is not "never": its interval says how rare
    assert out["no_cards"]["value"] == 0.1 and out["market_empty"]["value"] == 0.0


def test_faction_matrix_by_seat():
    wins = Counter({"red-white": 3, "white-red": 1, "red-black": 2})
    games = Counter({"red-white": 4, "white-red": 4, "red-black": 2, "black-red": 2})
    m = faction_matrix(wins, games, FACTIONS)
    assert m["first_seat_wins"]["red"]["red"] is None
    assert m["first_seat_wins"]["red"]["white"]["value"] == 0.75
    assert m["first_seat_wins"]["white"]["red"]["value"] == 0.25
    assert m["first_seat_wins"]["red"]["blue"]["n"] == 0 and m["first_seat_wins"]["red"]["blue"]["value"] is None
    # red first: 3 of 4 against white, 2 of 2 against black; red second: white won 1 of 4, black 0 of 2
    assert (m["by_seat"]["red"]["first"]["k"], m["by_seat"]["red"]["first"]["n"]) == (5, 6)
    assert (m["by_seat"]["red"]["second"]["k"], m["by_seat"]["red"]["second"]["n"]) == (5, 6)
    assert (m["by_seat"]["white"]["second"]["k"], m["by_seat"]["white"]["second"]["n"]) == (1, 4)
    assert (m["by_seat"]["black"]["second"]["k"], m["by_seat"]["black"]["second"]["n"]) == (0, 2)
    low, high = m["by_seat"]["red"]["first"]["low"], m["by_seat"]["red"]["first"]["high"]
    assert low < 5 / 6 < high


def test_length_quartiles():
    out = length_summary(Counter({10: 1, 20: 2, 30: 1}))
    assert (out["p10"], out["q1"], out["median"], out["q3"], out["p90"]) == (10, 10, 20, 20, 30)
    assert out["median_per_player"] == 10 and out["mean"] == 20 and out["n"] == 4
    assert out["histogram"] == {"10": 1, "20": 2, "30": 1}
    assert length_summary(Counter())["median"] is None


def test_health_track_records_each_turn_once():
    s = SimpleNamespace(turn=1, health=[40, 40])
    track = HealthTrack(s)
    track(s)
    s.health = [40, 35]
    track(s)  # the same turn: not recorded again
    s.turn, s.health = 2, [33, 35]
    track(s)
    s.health = [0, 35]
    assert track.finish(s) == [(1, 40, 40), (2, 33, 35), (3, 0, 35)]


def test_health_curves_by_winner_and_loser():
    hist = Counter()
    add_health(hist, [(1, 40, 40), (2, 30, 38), (3, 0, 36)], winner=1)
    add_health(hist, [(1, 40, 40), (2, 20, 39), (3, 10, 0)], winner=0)
    curves = health_curves(hist)
    assert [c["turn"] for c in curves["loser"]] == [1, 2, 3]
    loser2 = curves["loser"][1]
    assert loser2["n"] == 2 and (loser2["p10"], loser2["median"], loser2["p90"]) == (30, 30, 39)
    assert curves["loser"][2]["median"] == 0 and curves["winner"][2]["median"] == 10
    assert curves["winner"][2]["p90"] == 36


def test_card_rates_and_in_hand_effect():
    tally = CardTally()
    for game in range(40):
        winner = game % 2
        cov = Counter({("by", winner, "in_hand", "ace"): 1, ("by", 1 - winner, "in_hand", "dud"): 1})
        if game % 4 == 0:
            cov[("by", winner, "bought", "ace")] += 1
        tally.add_game(cov, winner)
    rows = {r["card"]: r for r in card_effects(tally, ["ace", "dud"], {"ace", "dud"})}
    assert rows["ace"]["rate"]["in_hand"]["k"] == 40 and rows["ace"]["rate"]["in_hand"]["n"] == 80
    assert rows["ace"]["rate"]["bought"]["value"] == 10 / 80
    # Whoever had the ace in hand won every game, whoever had the dud lost every game.
    assert rows["ace"]["in_hand"]["value"] == 1.0 and rows["ace"]["in_hand"]["significant"]
    assert rows["dud"]["in_hand"]["value"] == -1.0 and "in_hand" in rows["dud"]["significant"]
    assert not rows["ace"]["never_used"] and rows["dud"]["never_used"]  # the dud was only ever drawn


def test_cost_curve_takes_recruitment_cards():
    cards = [SimpleNamespace(id="a", cost=1, faction="red"), SimpleNamespace(id="b", cost=None, faction=None)]
    rows = [{"card": "a", "rate": {"bought": {"value": 0.5}}}, {"card": "b", "rate": {"bought": {"value": 0.1}}}]
    assert cost_curve(rows, cards) == [{"card": "a", "cost": 1, "faction": "red", "bought": {"value": 0.5}}]


# -- what the engine counts for the lab --------------------------------------------------------------

@pytest.fixture(scope="module")
def db():
    return sample_database()


def test_every_card_drawn_is_counted_as_in_hand(db):
    state = Game(db).new_state(3, ("red", "white"), coverage=True)
    for p in (0, 1):
        assert state.hand[p]
        for cid in state.hand[p]:
            assert state.cov[("by", p, "in_hand", state.defs[cid].id)] >= 1


def test_a_poison_death_is_told_from_a_wound(db):
    poisoned = build(db, players=[dict(health=2, poison=3, deck=["flame-lash"] * 5), {}], active=0, start="turn")
    assert poisoned.terminal and poisoned.winner == 1 and poisoned.lost_in == "initiation"
    assert ending(poisoned.winner, poisoned.capped, poisoned.lost_in) == "poison"
    game = Game(db)
    for seed in range(6):
        s = game.new_state(seed, ("red", "black"))
        run(s, [HeuristicAgent(seed), HeuristicAgent(seed + 100)])
        if s.winner is not None and s.lost_in != "initiation":
            assert ending(s.winner, s.capped, s.lost_in) == "wound"
            assert s.lost_in in ("strategy", "cleanup")
