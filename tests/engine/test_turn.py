"""Rulebook: the turn (initiation, strategy phase, cleanup)."""
from __future__ import annotations

from forge.engine.actions import IllegalDecision

from .conftest import Keywords, TrapSpec, act, card, cid, ids, line, scenario

import pytest

AEGIS = card("wall", "creature", ["white"], keywords=Keywords(aegis=3))
SHIELD = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])


@pytest.mark.rule("initiation-1")
def test_initiation_poison_damage_then_remove_one():
    s = scenario(players=[dict(poison=3, hand=["filler"]), {}], start="turn")
    assert s.health[0] == 37 and s.poison[0] == 2 and s.decision_kind() == "main"


@pytest.mark.rule("initiation-1", "wound")
def test_initiation_poison_is_not_wound_nothing_stops_it():
    s = scenario(AEGIS, players=[dict(poison=2, field=["wall"], hand=["filler"]), {}], start="turn")
    s.shield[0] = 5
    assert s.health[0] == 38


@pytest.mark.rule("initiation-2", "defeat")
def test_initiation_poison_at_zero_eliminates_in_own_initiation():
    s = scenario(players=[dict(poison=4, health=4, hand=["filler"]), {}], start="turn")
    assert s.terminal and s.winner == 1 and s.health[0] == 0
    # Initiation 1 removes a counter *after* the damage; the game ended first (General principle 8).
    assert s.poison[0] == 4


@pytest.mark.rule("strategy", "strategy-soul", "strategy-raise")
def test_strategy_actions_repeat_in_any_order_until_end():
    s = scenario(players=[dict(hand=["filler", "filler", "gold"]), {}])
    act(s, "play", cid(s, "gold"))
    act(s, "raise", 0)
    act(s, "play", cid(s, "filler"))
    assert s.essence[0] == 3 and s.decision_kind() == "main"


@pytest.mark.rule("strategy-sequence")
def test_strategy_an_action_starts_only_once_waiting_effects_are_over():
    demise = card("martyr", "creature", ["red"], demise=[line("draw", 2)])
    boom = card("boom", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(demise, boom, players=[dict(hand=["boom"], deck=["filler"] * 3),
                                        dict(field=["martyr"], deck=["filler"] * 3)])
    act(s, "play", cid(s, "boom"))
    # The Demise (the opponent's effect) resolved before the next decision.
    assert s.decision_kind() == "main" and len(s.hand[1]) == 2 and not s.pools[-1]


@pytest.mark.rule("cleanup-1", "creatures-ready")
def test_cleanup_1_ready_all_your_creatures():
    s = scenario(players=[dict(field=[("dummy", True)]), dict(field=[("dummy", True)])])
    act(s, "end")
    assert s.exhausted[cid(s, "dummy", "field", 0)] is False
    assert s.exhausted[cid(s, "dummy", "field", 1)] is True  # only yours


@pytest.mark.rule("cleanup-2")
def test_cleanup_2_end_of_turn_effects_ordered_by_the_active_player():
    a = card("a", "creature", ["red"], end_of_turn=[line("wound", 1)])
    b = card("b", "creature", ["red"], end_of_turn=[line("essence", 1)])
    s = scenario(a, b, players=[dict(field=["a", "b"], hand=["filler"]), {}])
    act(s, "end")
    assert s.decision_kind() == "order" and s.current_player() == 0 and len(s.options) == 2
    act(s, "order", 1)  # b first
    assert s.log[-1] == ("essence", 0, 1) or ("essence", 0, 1) in s.log
    assert s.health[1] == 39


@pytest.mark.rule("cleanup-3")
def test_cleanup_3_unspent_essence_is_lost():
    s = scenario(players=[dict(essence=4, hand=["filler"]), {}])
    act(s, "end")
    assert s.essence[0] == 0


@pytest.mark.rule("cleanup-4")
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


@pytest.mark.rule("cleanup-5")
def test_cleanup_5_draw_until_five():
    s = scenario(players=[dict(hand=["gold"], deck=["filler"] * 9), {}])
    act(s, "end")
    act(s, "pick", cid(s, "gold"))  # nothing else to keep: the choice ends by itself
    assert len(s.hand[0]) == 5 and len(s.deck[0]) == 5


@pytest.mark.rule("cleanup-5")
def test_cleanup_5_reshuffle_mid_effect():
    c = card("c", "spell", ["red"], effects=[line("draw", 3), line("wound", 1)])
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"], discard=["gold", "spark"]), {}])
    act(s, "play", cid(s, "c"))
    assert sorted(ids(s, s.hand[0])) == ["filler", "gold", "spark"]
    assert ("reshuffle", 0, 2) in s.log and s.health[1] == 39
    # The spell itself finished after the draw: it is the only card in the discard pile.
    assert ids(s, s.discard[0]) == ["c"]


@pytest.mark.rule("cleanup-5")
def test_cleanup_5_both_empty_draw_what_you_can():
    c = card("c", "spell", ["red"], effects=[line("draw", 4)])
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"]), {}])
    act(s, "play", cid(s, "c"))
    assert ids(s, s.hand[0]) == ["filler"]


@pytest.mark.rule("cleanup")
def test_cleanup_no_cards_played_during_cleanup():
    eot = card("eot", "creature", ["red"], end_of_turn=[line("wound", 1)])
    s = scenario(eot, SHIELD, players=[dict(field=["eot"], hand=["filler"]), dict(hand=["shield"])])
    act(s, "pass")
    act(s, "end")
    # The end-of-turn Wound resolved with no trap window for the opponent.
    assert s.health[1] == 39 and ids(s, s.hand[1]) == ["shield"]


@pytest.mark.rule("cleanup-hand")
def test_cleanup_cards_received_in_opponent_turn_join_the_hand_without_limit():
    gift = card("gift", "trap", ["white"], trap=TrapSpec("none"), effects=[line("draw", 4)])
    s = scenario(gift, players=[dict(hand=["filler"]), dict(hand=["gift", "filler", "filler", "filler", "filler"],
                                                              deck=["gold"] * 6)])
    act(s, "trap", cid(s, "gift"))
    assert len(s.hand[1]) == 9  # 4 left + 1 drawn for the trap + 4


@pytest.mark.rule("turn")
def test_turn_order_initiation_strategy_cleanup(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    assert s.phase == "strategy" and s.turn == 1
    with pytest.raises(IllegalDecision):
        act(s, "trap", 0)


@pytest.mark.rule("turn", "initiation-1", "cleanup-1", "cleanup-2")
def test_turn_three_phases_always_in_order():
    eot = card("eot", "creature", ["red"], end_of_turn=[line("essence", 1)])
    s = scenario(eot, players=[dict(poison=1, hand=["filler"], field=[("eot", True)], deck=["gold"] * 5),
                               dict(hand=["filler"])], start="turn")
    # Initiation ran before the first strategy decision.
    assert s.phase == "strategy" and s.health[0] == 39 and s.decision_kind() == "main"
    act(s, "end")
    assert s.phase == "cleanup" and s.decision_kind() == "pick:keep"
    assert not s.exhausted[cid(s, "eot", "field")] and ("essence", 0, 1) in s.log
    act(s, "stop")
    kinds = [e[0] for e in s.log]
    assert kinds.index("poison_damage") < kinds.index("essence") < kinds.index("keep") < kinds.index("draw")
    assert s.active == 1 and s.phase == "strategy"


@pytest.mark.rule("initiation-2", "defeat", "victory")
def test_initiation_2_poison_kills_the_active_player_before_any_action():
    s = scenario(players=[dict(poison=6, health=6, hand=["gold"], essence=0), dict(health=1)], start="turn")
    assert s.terminal and s.winner == 1 and s.phase == "over" and s.legal_actions() == []
    assert s.history == []  # no decision was asked: the game ended in initiation


@pytest.mark.rule("traps-keeping", "cleanup-4", "cleanup-hand", "traps")
def test_traps_keeping_a_trap_at_cleanup_to_play_it_in_the_opponent_turn():
    shield = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])
    s = scenario(shield, players=[dict(faction="white", allegiance={"white": 1}, hand=["shield", "gold", "filler"],
                                       deck=["filler"] * 6),
                                  dict(faction="red", allegiance={"red": 1}, hand=["spark", "filler"])])
    act(s, "end")
    act(s, "pick", cid(s, "shield"))
    act(s, "stop")
    assert len(s.hand[0]) == 5 and "shield" in ids(s, s.hand[0])
    # Player 1's turn: the kept trap is offered before their first action.
    assert s.active == 1 and s.current_player() == 0 and ("trap", cid(s, "shield"), -1) in s.options
    act(s, "trap", cid(s, "shield"))
    act(s, "play", cid(s, "spark"))
    assert s.health[0] == 40


@pytest.mark.rule("cleanup-hand", "principle-6")
def test_cleanup_hand_an_opposing_discard_hits_the_hand_kept_for_next_turn():
    rip = card("rip", "spell", ["red"], effects=[line("discard", 1)])
    s = scenario(rip, players=[dict(hand=["rip"]), dict(hand=["gold", "gold", "filler", "filler", "spark"])])
    act(s, "play", cid(s, "rip"))
    assert s.decision_kind() == "pick:discard" and s.current_player() == 1
    act(s, "pick", cid(s, "spark"))
    assert len(s.hand[1]) == 4 and ids(s, s.discard[1]) == ["spark"]


@pytest.mark.rule("strategy-sequence", "strategy-activate")
def test_strategy_wound_is_dealt_as_the_effect_resolves_no_attack_phase():
    pinger = card("pinger", "creature", ["red"], activate=[line("wound", 2), line("essence", 1)])
    s = scenario(pinger, players=[dict(field=["pinger"]), {}])
    act(s, "activate", cid(s, "pinger", "field"))
    i_wound = next(i for i, e in enumerate(s.log) if e[0] == "wound")
    assert i_wound < s.log.index(("essence", 0, 1)) and s.health[1] == 38 and s.decision_kind() == "main"
