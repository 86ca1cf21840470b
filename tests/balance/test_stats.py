"""The balance lab's statistics (issue 12 §1): every figure with its interval, significance only when it is."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from forge.sim.analysis import CardTally, card_effects, seat_advantage
from forge.sim.stats import difference, holm, one_proportion_p, two_proportion_p, wilson


@pytest.mark.parametrize("k, n, low, high", [
    (50, 100, 0.4038, 0.5962),   # textbook values of the Wilson interval
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_matches_published_values(k, n, low, high):
    r = wilson(k, n)
    assert r.low == pytest.approx(low, abs=5e-4) and r.high == pytest.approx(high, abs=5e-4)


def test_an_empty_sample_has_no_rate():
    assert wilson(0, 0).value is None and wilson(0, 0).text() == "– (n=0)"


def test_the_interval_covers_the_truth_about_95_percent_of_the_time():
    rng = random.Random(7)
    hits = 0
    for _ in range(2000):
        k = sum(rng.random() < 0.3 for _ in range(60))
        r = wilson(k, 60)
        hits += r.low <= 0.3 <= r.high
    assert 0.92 <= hits / 2000 <= 0.97  # Wilson oscillates a little around 95 % (0.93 here)


def test_a_difference_and_its_interval():
    d = difference(wilson(60, 100), wilson(40, 100))
    assert d.value == pytest.approx(0.2) and d.low > 0 and d.high < 0.35
    assert d.p_value == pytest.approx(two_proportion_p(60, 100, 40, 100)) and d.p_value < 0.01
    same = difference(wilson(50, 100), wilson(50, 100))
    assert same.low < 0 < same.high and same.p_value == pytest.approx(1.0)


def test_holm_is_stricter_than_testing_each_alone():
    assert holm([0.01, 0.02, 0.03, 0.04, 0.5]) == [True, False, False, False, False]
    assert holm([0.001, 0.01, 0.5]) == [True, True, False]
    assert holm([None, 0.001]) == [False, True]


def test_pure_noise_cards_are_not_flagged():
    """64 cards used at random by winners and losers alike: nothing is significant after Holm."""
    rng = random.Random(3)
    tally = CardTally()
    cards = [f"card-{i}" for i in range(64)]
    for _ in range(600):
        cov = Counter()
        for player in (0, 1):
            for card in rng.sample(cards, 12):
                cov[("by", player, "bought", card)] += 1
        tally.add_game(cov, rng.randrange(2))
    rows = card_effects(tally, cards)
    assert [r["card"] for r in rows if r["significant"]] == []


def test_a_card_that_wins_is_flagged_with_its_interval():
    rng = random.Random(5)
    tally = CardTally()
    for _ in range(400):
        winner = rng.randrange(2)
        cov = Counter({("by", winner, "bought", "strong"): 1} if rng.random() < 0.8 else {})
        cov[("by", rng.randrange(2), "bought", "plain")] += 1
        tally.add_game(cov, winner)
    rows = {r["card"]: r for r in card_effects(tally, ["strong", "plain", "unused"], {"strong", "plain", "unused"})}
    assert rows["strong"]["significant"] == ["bought"] and rows["strong"]["bought"]["low"] > 0
    assert rows["plain"]["significant"] == []
    assert rows["unused"]["never_used"] and not rows["strong"]["never_used"]


def test_seat_advantage_is_significant_only_when_it_is():
    assert not seat_advantage(258, 500)["significant"]
    assert seat_advantage(300, 500)["significant"]
    assert one_proportion_p(250, 500) == pytest.approx(1.0)
