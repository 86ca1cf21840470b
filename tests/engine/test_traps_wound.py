"""Rulebook: Traps (three kinds, timing), Wound and protection, Destroy and Exile."""
from __future__ import annotations

import pytest

from .conftest import Keywords, TrapSpec, Trigger, act, card, cid, ids, line, scenario

SHIELD = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])
EACH_CAST = card("each-cast", "trap", ["red"], trap=TrapSpec("each_time", "cast"), effects=[line("wound", 1)])
WHEN_WOUND = card("when-wound", "trap", ["black"], trap=TrapSpec("when", "wound"), effects=[line("poison", 1)])
WHEN_CAST = card("when-cast", "trap", ["blue"], trap=TrapSpec("when", "cast"), effects=[line("discard", 1)])
DOUBLE = card("double", "spell", ["red"], effects=[line("wound", 2), line("wound", 3)])
GUARD = card("guard", "creature", ["white"], keywords=Keywords(guard=True), demise=[line("draw", 1)])
WALL1 = card("wall1", "creature", ["white"], keywords=Keywords(aegis=1))
WALL2 = card("wall2", "creature", ["white"], keywords=Keywords(aegis=2))
UNB = card("unb", "spell", ["red"], effects=[line("unblockable_wound", 3)])


@pytest.mark.rule("traps")
def test_traps_only_during_opponent_turn():
    s = scenario(SHIELD, players=[dict(hand=["shield", "filler"]), {}])
    assert not any(o.kind == "trap" for o in s.options)
    s = scenario(SHIELD, players=[dict(hand=["filler"]), dict(hand=["shield"])])
    assert s.current_player() == 1 and ("trap", cid(s, "shield"), -1) in s.options


@pytest.mark.rule("traps")
def test_traps_player_draws_a_card_and_trap_is_discarded_even_without_effect():
    s = scenario(players=[dict(hand=["filler"]), dict(hand=["dud-trap"], deck=["gold"])])
    act(s, "trap", cid(s, "dud-trap"))
    assert ids(s, s.hand[1]) == ["gold"] and ids(s, s.discard[1]) == ["dud-trap"]


@pytest.mark.rule("traps-none", "wound-order-2")
def test_traps_no_trigger_works_until_end_of_turn_but_not_retroactively():
    s = scenario(SHIELD, DOUBLE, players=[dict(hand=["double", "spark"]), dict(hand=["shield"])])
    act(s, "pass")
    act(s, "play", cid(s, "spark"))
    act(s, "pass")
    assert s.health[1] == 39
    act(s, "trap", cid(s, "shield"))  # idle window, after the spark resolved
    assert s.health[1] == 39          # nothing retroactive
    act(s, "play", cid(s, "double"))
    assert s.health[1] == 39 - 1 - 2  # both Wound effects reduced by 1
    s.apply(s.options[-1]) if s.current_player() == 0 and s.decision_kind() != "main" else None
    act(s, "end")
    assert s.shield == [0, 0]        # until the end of the turn only


@pytest.mark.rule("traps-each-time")
def test_traps_each_time_reacts_to_each_matching_event_and_waits():
    s = scenario(EACH_CAST, players=[dict(hand=["spark", "spark"], allegiance={"red": 1}), dict(hand=["each-cast"])])
    act(s, "trap", cid(s, "each-cast"))
    act(s, "play", cid(s, "spark"))
    # The trap's effect waited until the spark finished.
    i_spark = next(i for i, e in enumerate(s.log) if e == ("wound", 0, 1, 1))
    i_trap = next(i for i, e in enumerate(s.log) if e == ("wound", 1, 0, 1))
    assert i_spark < i_trap
    act(s, "play", cid(s, "spark"))
    assert s.health == [38, 38]


@pytest.mark.rule("traps-when")
def test_traps_when_trap_interrupts_card_mid_resolution():
    s = scenario(WHEN_WOUND, DOUBLE, players=[dict(hand=["double"]), dict(hand=["when-wound"])])
    act(s, "play", cid(s, "double"))
    assert s.health[1] == 38 and s.decision_kind() == "window:when"
    act(s, "trap", cid(s, "when-wound"), 0)
    assert s.poison[0] == 1 and s.health[1] == 35  # the trap resolved, then the card resumed
    i_poison = next(i for i, e in enumerate(s.log) if e[0] == "poison")
    wounds = [i for i, e in enumerate(s.log) if e[0] == "wound"]
    assert wounds[0] < i_poison < wounds[1]


@pytest.mark.rule("traps-when")
def test_traps_when_window_closes_when_reading_resumes():
    s = scenario(WHEN_WOUND, DOUBLE, players=[dict(hand=["double"]), dict(hand=["when-wound"])])
    act(s, "play", cid(s, "double"))
    act(s, "pass")
    # The second Wound is a new event: a new window.
    assert s.decision_kind() == "window:when" and s.health[1] == 35


@pytest.mark.rule("traps-when")
def test_traps_when_only_reacts_to_event_caused_by_opponent():
    own = card("own", "creature", ["black"], demise=[line("wound", 2)])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(WHEN_WOUND, own, kill, players=[dict(hand=["kill"]), dict(hand=["when-wound"], field=["own"])])
    act(s, "play", cid(s, "kill"))
    # The Demise (the trap holder's own effect) wounded player 0: no window for player 1.
    assert s.health[0] == 38 and s.decision_kind() == "main"


@pytest.mark.rule("traps-several")
def test_traps_several_when_traps_on_the_same_event():
    s = scenario(WHEN_WOUND, players=[dict(hand=["spark"]), dict(hand=["when-wound", "when-wound"])])
    act(s, "play", cid(s, "spark"))
    first = s.options[0]
    s.apply(first)
    assert s.decision_kind() == "window:when"  # the same window, for the second trap
    second = s.options[0]
    assert second.kind == "trap" and second.a != first.a
    s.apply(second)
    assert s.poison[0] == 2


@pytest.mark.rule("traps-several", "six-steps-summon-trap")
def test_traps_never_respond_to_a_trap_nor_what_a_trap_causes():
    hurt = card("hurt", "trap", ["red"], trap=TrapSpec("none"), effects=[line("wound", 1)])
    back = card("back", "trap", ["red"], trap=TrapSpec("each_time", "wound"), effects=[line("wound", 1)])
    s = scenario(hurt, back, WHEN_WOUND, players=[dict(hand=["spark"]), dict(hand=["hurt", "back"],
                                                                          deck=["filler"] * 3)])
    act(s, "trap", cid(s, "back"))
    act(s, "trap", cid(s, "hurt"))
    assert s.health[0] == 39  # "back" reacts to player 0's wounds only, not to a trap's
    act(s, "play", cid(s, "spark"))
    assert s.health == [38, 39]


@pytest.mark.rule("traps-several")
def test_traps_card_received_mid_turn_not_against_past_event():
    draw_trap = card("draw-trap", "trap", ["white"], trap=TrapSpec("when", "cast"), effects=[line("draw", 1)])
    s = scenario(draw_trap, WHEN_CAST, players=[dict(hand=["spark", "filler"]),
                                                 dict(hand=["draw-trap"], deck=["when-cast", "when-cast"])])
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "window:step3"
    act(s, "trap", cid(s, "draw-trap"), 0)
    # Two when-cast traps reached the hand after the cast: not playable against it.
    assert len(ids(s, s.hand[1])) == 2 and s.decision_kind() == "main"
    act(s, "play", cid(s, "filler"))


@pytest.mark.rule("wound-order-1", "wound-order-2", "wound-order-3", "wound-aegis", "wound-guard")
def test_wound_protection_order_aegis_then_divine_shield_then_guard():
    big = card("big", "spell", ["red"], effects=[line("wound", 5)])
    s = scenario(big, SHIELD, WALL1, WALL2, GUARD,
                 players=[dict(hand=["big", "big"]),
                          dict(hand=["shield"], field=["wall1", "wall2", "guard"], deck=["filler"] * 3)])
    act(s, "trap", cid(s, "shield"))
    act(s, "play", cid(s, "big"))
    assert s.decision_kind() == "guard"
    assert s.stack[-1].damage == 5 - 2 - 1  # only the strongest Aegis, then Divine Shield
    act(s, "pass")
    assert s.health[1] == 38
    act(s, "play", cid(s, "big"))
    act(s, "guard", cid(s, "guard", "field"))
    assert s.health[1] == 38 and "guard" in ids(s, s.discard[1])
    assert len(s.hand[1]) == 2  # the trap's draw, then the Guard's Demise


@pytest.mark.rule("wound-guard")
def test_wound_guard_only_during_your_opponent_turn():
    hurt = card("hurt", "trap", ["red"], trap=TrapSpec("none"), effects=[line("wound", 2)])
    s = scenario(hurt, GUARD, players=[dict(field=["guard"], hand=["filler"]), dict(hand=["hurt"])])
    act(s, "trap", cid(s, "hurt"))
    assert s.health[0] == 38  # no Guard decision in your own turn


@pytest.mark.rule("wound")
def test_wound_unblockable_and_poison_bypass_all_protection():
    s = scenario(UNB, SHIELD, WALL2, GUARD, players=[dict(hand=["unb"]),
                                                     dict(hand=["shield"], field=["wall2", "guard"])])
    act(s, "trap", cid(s, "shield"))
    act(s, "play", cid(s, "unb"))
    assert s.health[1] == 37 and s.decision_kind() == "main"


@pytest.mark.rule("wound-zero")
def test_wound_reduced_to_zero_triggers_nothing():
    watcher = card("watcher", "creature", ["red"], triggers=[Trigger("wound", "you", (line("essence", 1),))])
    s = scenario(watcher, WALL1, WHEN_WOUND, players=[dict(hand=["spark"], field=["watcher"]),
                                                      dict(field=["wall1"], hand=["when-wound"])])
    act(s, "play", cid(s, "spark"))
    assert s.health[1] == 40 and s.essence[0] == 0 and s.decision_kind() == "main"


@pytest.mark.rule("wound", "chains-3")
def test_wound_always_targets_the_opposing_commander_of_its_producer():
    dm = card("dm", "creature", ["red"], demise=[line("wound", 2)])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(dm, kill, players=[dict(hand=["kill"]), dict(field=["dm"])])
    act(s, "play", cid(s, "kill"))
    assert s.health == [38, 40]  # the Demise belongs to player 1: it wounds player 0


@pytest.mark.rule("principle-6")
def test_destroy_targets_opposing_creatures_only():
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(kill, players=[dict(hand=["kill"], field=["dummy"]), dict(field=["dummy", "dummy-white"])])
    act(s, "play", cid(s, "kill"))
    assert s.decision_kind() == "pick:destroy"
    assert {o.a for o in s.options} == set(s.field[1])


@pytest.mark.rule("destroy-exile", "exile-pile", "principle-2")
def test_exile_goes_to_shared_pile_triggers_nothing_rift_gives_it_to_taker():
    dm = card("dm", "creature", ["red"], demise=[line("wound", 9)])
    ex = card("ex", "spell", ["blue"], effects=[line("exile", 1)])
    rift = card("rift", "spell", ["blue"], effects=[line("rift", 1)])
    s = scenario(dm, ex, rift, players=[dict(hand=["ex", "rift"]), dict(field=["dm"])])
    c = cid(s, "dm", "field")
    act(s, "play", cid(s, "ex"))
    assert s.exile == [c] and s.owner[c] == -1 and s.health == [40, 40]
    act(s, "play", cid(s, "rift"))
    assert c in s.hand[0] and s.owner[c] == 0


@pytest.mark.rule("exile-pile")
def test_exile_from_each_zone():
    for zone, where in (("opponent_discard", "discard1"), ("your_hand", "hand0"), ("your_discard", "discard0")):
        ex = card("ex", "spell", ["blue"], effects=[line("exile", 1, **{"from": zone})])
        s = scenario(ex, players=[dict(hand=["ex", "gold"], discard=["gold"]), dict(discard=["gold"])])
        act(s, "play", cid(s, "ex"))
        zone_list = {"discard1": s.discard[1], "hand0": s.hand[0], "discard0": s.discard[0]}[where]
        assert "gold" not in ids(s, zone_list) and ids(s, s.exile) == ["gold"], zone


@pytest.mark.rule("principle-1", "wound-guard")
def test_anointing_stops_destroy_and_guard_destruction_not_exile():
    anoint = card("anoint", "trap", ["white"], trap=TrapSpec("none"), effects=[line("protect_creatures")])
    ex = card("ex", "spell", ["blue"], effects=[line("exile", 1)])
    s = scenario(anoint, GUARD, ex, players=[dict(hand=["spark", "ex"]), dict(hand=["anoint"], field=["guard"])])
    act(s, "trap", cid(s, "anoint"))
    act(s, "play", cid(s, "spark"))
    act(s, "guard", cid(s, "guard", "field"))
    assert ids(s, s.field[1]) == ["guard"] and s.health[1] == 40  # cancelled, not destroyed
    act(s, "play", cid(s, "ex"))
    assert ids(s, s.exile) == ["guard"]


@pytest.mark.rule("traps", "traps-each-time")
def test_traps_effect_no_longer_depends_on_the_card_once_discarded():
    dig = card("dig", "spell", ["blue"], effects=[line("exile", 1, **{"from": "opponent_discard"})])
    s = scenario(EACH_CAST, dig, players=[dict(hand=["dig", "spark"]), dict(hand=["each-cast"])])
    act(s, "trap", cid(s, "each-cast"))
    assert ids(s, s.discard[1]) == ["each-cast"]
    act(s, "play", cid(s, "dig"))  # exiles the trap card from its owner's discard pile
    assert ids(s, s.exile) == ["each-cast"] and s.health[0] == 39
    act(s, "play", cid(s, "spark"))
    assert s.health[0] == 38  # it still reacts until the end of the turn


@pytest.mark.rule("traps-when", "chains-3")
def test_traps_when_the_effects_it_triggers_follow_the_priority_then_the_card_resumes():
    snare = card("snare", "trap", ["white"], trap=TrapSpec("when", "wound"),
                 effects=[line("destroy", 1), line("allegiance", 1, faction="white")])
    dm0 = card("dm0", "creature", ["red"], demise=[line("essence", 3)])
    m0 = card("m0", "creature", ["red"], triggers=[Trigger("destroy", "you", (line("essence", 1),))])
    p1 = card("p1", "creature", ["white"], triggers=[Trigger("allegiance", "you", (line("draw", 1),))])
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("essence", 10)])
    s = scenario(snare, dm0, m0, p1, c, players=[dict(hand=["c"], field=["dm0", "m0"]),
                                                 dict(hand=["snare"], field=["p1"], deck=["gold"] * 2)])
    act(s, "play", cid(s, "c"))
    act(s, "trap", cid(s, "snare"), 0)
    act(s, "pick", cid(s, "dm0", "field"))
    # The trap is over: its effects wait; the active player resolves theirs first, in their order.
    assert s.decision_kind() == "order" and s.current_player() == 0
    s.apply(next(o for o in s.options if s.pools[-1][o.a].design.id == "m0"))
    log = [e for e in s.log if e[0] in ("essence", "draw")]
    assert log == [("draw", 1, 1), ("essence", 0, 1), ("essence", 0, 3), ("draw", 1, 1), ("essence", 0, 10)]


@pytest.mark.rule("traps-several", "six-steps-summon-trap", "traps-when")
def test_traps_a_when_trap_never_answers_what_a_trap_causes():
    zap = card("zap", "trap", ["black"], trap=TrapSpec("none"), effects=[line("destroy", 1)])
    dm = card("dm", "creature", ["red"], demise=[line("wound", 2)])
    s = scenario(zap, dm, WHEN_WOUND, players=[dict(hand=["spark"], field=["dm"]),
                                               dict(hand=["zap", "when-wound"], deck=["filler"])])
    act(s, "trap", cid(s, "zap"))
    # The Demise is player 0's effect, but a trap caused it: no "when" window for player 1.
    assert s.health[1] == 38 and s.decision_kind() == "main" and s.poison[0] == 0
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "window:when"  # the opponent's own Wound: the trap may answer


@pytest.mark.rule("wound-order-4", "defeat", "principle-8")
def test_wound_order_4_remaining_damage_is_dealt_and_the_game_ends_at_0():
    big = card("big", "spell", ["red"], effects=[line("wound", 3), line("essence", 5)])
    s = scenario(big, WALL1, players=[dict(hand=["big"]), dict(health=2, field=["wall1"])])
    act(s, "play", cid(s, "big"))
    assert s.terminal and s.winner == 0 and s.health[1] == 0 and s.essence[0] == 0


@pytest.mark.rule("wound-guard", "wound-order-3")
def test_wound_guard_one_guard_cancels_a_single_effect():
    s = scenario(GUARD, DOUBLE, players=[dict(hand=["double"]), dict(field=["guard", "guard"], deck=["filler"] * 2)])
    act(s, "play", cid(s, "double"))
    g1, g2 = s.field[1]
    assert s.decision_kind() == "guard" and {o.a for o in s.options if o.kind == "guard"} == {g1, g2}
    act(s, "guard", g1)
    assert s.health[1] == 40 and s.decision_kind() == "guard"
    assert [o.a for o in s.options if o.kind == "guard"] == [g2]  # the first guard is gone
    act(s, "pass")
    assert s.health[1] == 37 and ids(s, s.field[1]) == ["guard"]


@pytest.mark.rule("wound-aegis", "wound-order-1", "creatures-passive")
def test_wound_aegis_only_the_strongest_neither_exhausted_nor_destroyed():
    big = card("big", "spell", ["red"], effects=[line("wound", 3)])
    s = scenario(big, WALL1, WALL2, players=[dict(hand=["big"]), dict(field=["wall1", ("wall2", True)])])
    act(s, "play", cid(s, "big"))
    assert s.health[1] == 39
    assert ids(s, s.field[1]) == ["wall1", "wall2"] and s.exhausted[s.field[1][0]] is False


@pytest.mark.rule("wound-order-2", "wound-zero", "chains-7")
def test_wound_reduced_to_0_by_aegis_then_divine_shield_no_guard_no_event():
    three = card("three", "spell", ["red"], effects=[line("wound", 3)])
    watcher = card("watcher", "creature", ["red"], triggers=[Trigger("wound", "you", (line("essence", 1),))])
    s = scenario(three, SHIELD, WALL2, GUARD, WHEN_WOUND, watcher,
                 players=[dict(hand=["three"], field=["watcher"]),
                          dict(hand=["shield", "when-wound"], field=["wall2", "guard"], deck=["filler"])])
    act(s, "trap", cid(s, "shield"))
    act(s, "play", cid(s, "three"))
    # 3 - Aegis 2 - Divine Shield 1 = 0: no Guard asked, no "when" window, no trigger.
    assert s.health[1] == 40 and s.essence[0] == 0 and s.decision_kind() != "guard"
    assert ("prevented", 1, 3) in s.log and not any(e[0] == "wound" for e in s.log)


@pytest.mark.rule("wound-guard", "cleanup-2")
def test_wound_guard_works_in_the_opponent_cleanup():
    eot = card("eot", "creature", ["red"], end_of_turn=[line("wound", 2)])
    s = scenario(eot, GUARD, players=[dict(field=["eot"], hand=["filler"]), dict(field=["guard"], deck=["filler"])])
    act(s, "end")
    assert s.phase == "cleanup" and s.decision_kind() == "guard" and s.current_player() == 1
    act(s, "guard", cid(s, "guard", "field"))
    assert s.health[1] == 40 and s.field[1] == []


@pytest.mark.rule("vocabulary", "wound")
def test_vocabulary_creatures_never_take_damage_and_destroys_means_every_destruction():
    last = card("last", "trap", ["black"], trap=TrapSpec("each_time", "destroy"), effects=[line("poison", 1)])
    feed = card("feed", "spell", ["red"], effects=[line("sacrifice", 1), line("wound", 2)])
    s = scenario(last, feed, players=[dict(hand=["feed"], field=["dummy"]),
                                      dict(field=["dummy-white", "dummy-white"], hand=["last"])])
    act(s, "trap", cid(s, "last"))
    act(s, "play", cid(s, "feed"))
    # Wound hits the commander, never a creature; the Sacrifice is a destruction (lowercase
    # "destroys" on the trap), though it is not the Destroy keyword.
    assert s.health[1] == 38 and len(s.field[1]) == 2 and s.poison[0] == 1


@pytest.mark.rule("wound-guard")
def test_wound_guard_needs_a_ready_creature():
    s = scenario(GUARD, players=[dict(hand=["spark"]), dict(field=[("guard", True)])])
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "main" and s.health[1] == 39


@pytest.mark.rule("traps-several", "traps-when")
def test_traps_a_when_trap_drawn_during_the_turn_answers_later_events():
    draw_trap = card("draw-trap", "trap", ["white"], trap=TrapSpec("none"), effects=[line("draw", 1)])
    s = scenario(draw_trap, WHEN_WOUND, players=[dict(hand=["spark", "spark"]),
                                                 dict(hand=["draw-trap"], deck=["when-wound", "filler"])])
    act(s, "trap", cid(s, "draw-trap"))  # draws a card for the trap, then one for its effect
    assert sorted(ids(s, s.hand[1])) == ["filler", "when-wound"]
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "window:when"
    act(s, "trap", cid(s, "when-wound"), 0)
    assert s.poison[0] == 1
