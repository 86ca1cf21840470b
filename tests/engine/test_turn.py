"""Rulebook: the turn (initiation, strategy phase, cleanup)."""
from __future__ import annotations

from forge.engine.actions import IllegalDecision

from .conftest import Keywords, TrapSpec, act, card, cid, ids, line, scenario

import pytest

AEGIS = card("wall", "creature", ["white"], keywords=Keywords(aegis=3))
SHIELD = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])


def test_initiation_poison_damage_then_remove_one():
    s = scenario(players=[dict(poison=3, hand=["filler"]), {}], start="turn")
    assert s.health[0] == 37 and s.poison[0] == 2 and s.decision_kind() == "main"


def test_initiation_poison_is_not_wound_nothing_stops_it():
    s = scenario(AEGIS, players=[dict(poison=2, field=["wall"], hand=["filler"]), {}], start="turn")
    s.shield[0] = 5
    assert s.health[0] == 38


def test_initiation_poison_at_zero_eliminates_in_own_initiation():
    s = scenario(players=[dict(poison=4, health=4, hand=["filler"]), {}], start="turn")
    assert s.terminal and s.winner == 1 and s.health[0] == 0


def test_strategy_actions_repeat_in_any_order_until_end():
    s = scenario(players=[dict(hand=["filler", "filler", "gold"]), {}])
    act(s, "play", cid(s, "gold"))
    act(s, "raise", 0)
    act(s, "play", cid(s, "filler"))
    assert s.essence[0] == 3 and s.decision_kind() == "main"


def test_strategy_an_action_starts_only_once_waiting_effects_are_over():
    demise = card("martyr", "creature", ["red"], demise=[line("draw", 2)])
    boom = card("boom", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(demise, boom, players=[dict(hand=["boom"], deck=["filler"] * 3),
                                        dict(field=["martyr"], deck=["filler"] * 3)])
    act(s, "play", cid(s, "boom"))
    # The Demise (the opponent's effect) resolved before the next decision.
    assert s.decision_kind() == "main" and len(s.hand[1]) == 2 and not s.pools[-1]


def test_cleanup_1_ready_all_your_creatures():
    s = scenario(players=[dict(field=[("dummy", True)]), dict(field=[("dummy", True)])])
    act(s, "end")
    assert s.exhausted[cid(s, "dummy", "field", 0)] is False
    assert s.exhausted[cid(s, "dummy", "field", 1)] is True  # only yours


def test_cleanup_2_end_of_turn_effects_ordered_by_the_active_player():
    a = card("a", "creature", ["red"], end_of_turn=[line("wound", 1)])
    b = card("b", "creature", ["red"], end_of_turn=[line("essence", 1)])
    s = scenario(a, b, players=[dict(field=["a", "b"], hand=["filler"]), {}])
    act(s, "end")
    assert s.decision_kind() == "order" and s.current_player() == 0 and len(s.options) == 2
    act(s, "order", 1)  # b first
    assert s.log[-1] == ("essence", 0, 1) or ("essence", 0, 1) in s.log
    assert s.health[1] == 39


def test_cleanup_3_unspent_essence_is_lost():
    s = scenario(players=[dict(essence=4, hand=["filler"]), {}])
    act(s, "end")
    assert s.essence[0] == 0


def test_cleanup_4_keep_up_to_two_discard_the_rest_and_souls_played():
    s = scenario(players=[dict(hand=["filler", "gold", "spark", "dummy"], deck=["filler"] * 8), {}])
    act(s, "play", cid(s, "filler"))
    act(s, "end")
    assert s.decision_kind() == "pick:keep"
    act(s, "pick", cid(s, "gold"))
    act(s, "pick", cid(s, "spark"))
    # Two kept: done; the rest and the Soul played are discarded, then draw to 5.
    assert sorted(ids(s, s.discard[0])) == ["dummy", "filler"]
    assert ids(s, s.hand[0])[:2] == ["gold", "spark"] and len(s.hand[0]) == 5


def test_cleanup_5_draw_until_five():
    s = scenario(players=[dict(hand=["gold"], deck=["filler"] * 9), {}])
    act(s, "end")
    act(s, "pick", cid(s, "gold"))  # nothing else to keep: the choice ends by itself
    assert len(s.hand[0]) == 5 and len(s.deck[0]) == 5


def test_cleanup_5_reshuffle_mid_effect():
    c = card("c", "spell", ["red"], effects=[line("draw", 3), line("wound", 1)])
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"], discard=["gold", "spark"]), {}])
    act(s, "play", cid(s, "c"))
    assert sorted(ids(s, s.hand[0])) == ["filler", "gold", "spark"]
    assert ("reshuffle", 0, 2) in s.log and s.health[1] == 39
    # The spell itself finished after the draw: it is the only card in the discard pile.
    assert ids(s, s.discard[0]) == ["c"]


def test_cleanup_5_both_empty_draw_what_you_can():
    c = card("c", "spell", ["red"], effects=[line("draw", 4)])
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"]), {}])
    act(s, "play", cid(s, "c"))
    assert ids(s, s.hand[0]) == ["filler"]


def test_cleanup_no_cards_played_during_cleanup():
    eot = card("eot", "creature", ["red"], end_of_turn=[line("wound", 1)])
    s = scenario(eot, SHIELD, players=[dict(field=["eot"], hand=["filler"]), dict(hand=["shield"])])
    act(s, "pass")
    act(s, "end")
    # The end-of-turn Wound resolved with no trap window for the opponent.
    assert s.health[1] == 39 and ids(s, s.hand[1]) == ["shield"]


def test_cleanup_cards_received_in_opponent_turn_join_the_hand_without_limit():
    gift = card("gift", "trap", ["white"], trap=TrapSpec("none"), effects=[line("draw", 4)])
    s = scenario(gift, players=[dict(hand=["filler"]), dict(hand=["gift", "filler", "filler", "filler", "filler"],
                                                              deck=["gold"] * 6)])
    act(s, "trap", cid(s, "gift"))
    assert len(s.hand[1]) == 9  # 4 left + 1 drawn for the trap + 4


def test_turn_order_initiation_strategy_cleanup(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    assert s.phase == "strategy" and s.turn == 1
    with pytest.raises(IllegalDecision):
        act(s, "trap", 0)
