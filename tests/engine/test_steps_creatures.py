"""Rulebook: the six steps of a played card or activation; Creatures; Spells."""
from __future__ import annotations

import pytest

from .conftest import Keywords, TrapSpec, Trigger, act, card, cid, ids, line, scenario

ANOINT = card("anoint", "trap", ["white"], trap=TrapSpec("none"), effects=[line("protect_creatures")])
KILL = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
SAC = card("sac", "spell", ["red"], effects=[line("wound", 1), line("sacrifice", 1)])
BLAZE = card("blaze", "rite", ["red"], set="rite", triggers=[Trigger("cast", "you", (line("essence", 5),))])
RUSHER = card("rusher", "creature", ["red"], keywords=Keywords(rush=True), activate=[line("wound", 1)])
PINGER = card("pinger", "creature", ["red"], activate=[line("wound", 1)])


@pytest.mark.rule("six-steps-1")
def test_six_steps_1_announce_checks_allegiance_slot_and_sacrifice():
    big = card("big", "creature", ["red"], allegiance={"red": 3})
    s = scenario(big, SAC, players=[dict(hand=["big", "sac", "dummy"], field=["dummy"] * 5), {}])
    opts = s.options
    assert ("summon", cid(s, "big"), -1) not in opts          # allegiance
    assert ("summon", cid(s, "dummy"), -1) not in opts        # no free slot
    assert ("play", cid(s, "sac"), -1) in opts                # a creature to sacrifice
    s = scenario(SAC, players=[dict(hand=["sac"]), {}])
    assert ("play", cid(s, "sac"), -1) not in s.options       # Sacrifice cannot be paid


@pytest.mark.rule("six-steps-2")
def test_six_steps_2_played_event_triggers_wait():
    s = scenario(BLAZE, players=[dict(hand=["spark"], rite="blaze"), {}])
    act(s, "play", cid(s, "spark"))
    i_wound = next(i for i, e in enumerate(s.log) if e[0] == "wound")
    i_gain = next(i for i, e in enumerate(s.log) if e == ("essence", 0, 5))
    assert i_wound < i_gain  # the Rite's effect waited for the card to finish


@pytest.mark.rule("six-steps-3")
def test_six_steps_3_opponent_window_anointing_protects_before_destroy():
    s = scenario(ANOINT, KILL, players=[dict(hand=["kill"]), dict(hand=["anoint"], field=["dummy"])])
    act(s, "pass")
    act(s, "play", cid(s, "kill"))
    assert s.decision_kind() == "window:step3" and s.current_player() == 1
    act(s, "trap", cid(s, "anoint"))
    assert ids(s, s.field[1]) == ["dummy"]


@pytest.mark.rule("six-steps-4")
def test_six_steps_4_every_sacrifice_paid_together_before_resolution():
    demise = card("dm", "creature", ["red"], demise=[line("essence", 1)])
    s = scenario(SAC, demise, players=[dict(hand=["sac"], field=["dm", "dummy"]), {}])
    act(s, "play", cid(s, "sac"))
    assert s.decision_kind() == "pick:sacrifice"
    act(s, "pick", cid(s, "dm", "field"))
    i_destroy = next(i for i, e in enumerate(s.log) if e[0] == "destroy")
    i_wound = next(i for i, e in enumerate(s.log) if e[0] == "wound")
    assert i_destroy < i_wound  # written below the Wound, paid before it
    assert s.essence[0] == 1    # a sacrificed creature is destroyed: its Demise waited and resolved


@pytest.mark.rule("six-steps-5", "principle-4")
def test_six_steps_5_each_line_does_what_it_can_then_reading_continues():
    c = card("c", "spell", ["red"], effects=[line("destroy", 2), line("draw", 1), line("wound", 2)])
    s = scenario(c, players=[dict(hand=["c"]), dict(field=["dummy"])])
    act(s, "play", cid(s, "c"))
    assert s.field[1] == [] and s.health[1] == 38


@pytest.mark.rule("six-steps-6")
def test_six_steps_6_spell_to_discard_then_waiting_effects():
    dm = card("dm", "creature", ["red"], demise=[line("wound", 1)])
    s = scenario(KILL, dm, players=[dict(hand=["kill"]), dict(field=["dm"])])
    act(s, "play", cid(s, "kill"))
    assert ids(s, s.discard[0]) == ["kill"] and s.health[0] == 39


@pytest.mark.rule("six-steps-summon-trap", "six-steps-3")
def test_six_steps_summon_goes_from_step_3_to_step_6():
    watcher = card("hand-trap", "trap", ["red"], trap=TrapSpec("when", "summon"), effects=[line("wound", 2)])
    s = scenario(watcher, players=[dict(hand=["dummy"]), dict(hand=["hand-trap"])])
    act(s, "summon", cid(s, "dummy"))
    assert s.decision_kind() == "window:step3"
    act(s, "trap", cid(s, "hand-trap"), 0)
    assert s.health[0] == 38 and s.decision_kind() == "main"


@pytest.mark.rule("six-steps-summon-trap")
def test_six_steps_trap_follows_steps_1_2_5_6_no_window():
    t1 = card("t1", "trap", ["white"], trap=TrapSpec("none"), effects=[line("wound", 1)])
    s = scenario(t1, players=[dict(hand=["filler"], field=["dummy"]), dict(hand=["t1", "t1"])])
    act(s, "trap", cid(s, "t1"))
    # Back to the same window for the trap's owner: nobody got a window against the trap.
    assert s.current_player() == 1 and s.decision_kind() == "window:idle"


@pytest.mark.rule("creatures-summon")
def test_creatures_at_most_five_in_play():
    s = scenario(players=[dict(hand=["dummy"], field=["dummy"] * 4), {}])
    act(s, "summon", cid(s, "dummy"))
    assert len(s.field[0]) == 5
    s = scenario(players=[dict(hand=["dummy"], field=["dummy"] * 5), {}])
    assert not any(o.kind == "summon" for o in s.options)


@pytest.mark.rule("creatures-summon", "creatures-rush", "creatures-activate", "strategy-summon")
def test_creatures_summoned_exhausted_unless_rush():
    s = scenario(RUSHER, PINGER, players=[dict(hand=["rusher", "pinger"]), {}])
    act(s, "summon", cid(s, "pinger"))
    act(s, "summon", cid(s, "rusher"))
    assert ("activate", cid(s, "rusher", "field"), -1) in s.options
    assert ("activate", cid(s, "pinger", "field"), -1) not in s.options


@pytest.mark.rule("creatures-activate", "strategy-activate")
def test_creatures_activated_once_per_turn():
    s = scenario(PINGER, players=[dict(field=["pinger"]), {}])
    act(s, "activate", cid(s, "pinger", "field"))
    assert not any(o.kind == "activate" for o in s.options)


@pytest.mark.rule("creatures-ready", "wound-guard")
def test_creatures_readied_at_end_of_owner_turn_so_guard_works_next_turn():
    g = card("g", "creature", ["white"], keywords=Keywords(guard=True))
    s = scenario(g, PINGER, players=[dict(hand=["g", "filler"]), dict(field=["pinger"], hand=["filler"])])
    act(s, "summon", cid(s, "g"))
    assert s.exhausted[cid(s, "g", "field")]
    act(s, "end")
    act(s, "stop")
    assert not s.exhausted[cid(s, "g", "field")]
    act(s, "activate", cid(s, "pinger", "field"))
    assert s.decision_kind() == "guard"


@pytest.mark.rule("creatures-passive")
def test_creatures_passive_abilities_work_while_exhausted():
    wall = card("wall", "creature", ["white"], keywords=Keywords(aegis=1))
    s = scenario(wall, PINGER, players=[dict(field=["pinger"]), dict(field=[("wall", True)])])
    act(s, "activate", cid(s, "pinger", "field"))
    assert s.health[1] == 40


@pytest.mark.rule("creatures-destroyed", "destroy-exile")
def test_creatures_destroyed_go_to_owner_discard_and_demise_waits():
    dm = card("dm", "creature", ["red"], demise=[line("draw", 1)], activate=[line("wound", 5)])
    s = scenario(KILL, dm, players=[dict(hand=["kill"]), dict(field=["dm"], deck=["filler"])])
    act(s, "play", cid(s, "kill"))
    assert ids(s, s.discard[1]) == ["dm"] and ids(s, s.hand[1]) == ["filler"]


@pytest.mark.rule("creatures-new-card")
def test_creatures_a_card_that_changes_zones_is_a_new_card():
    bounce = card("bounce", "spell", ["blue"], effects=[line("bounce", 1)])
    s = scenario(bounce, RUSHER, players=[dict(hand=["bounce"]), dict(field=["rusher"])])
    c = cid(s, "rusher", "field")
    old_stamp = s.stamp[c]
    act(s, "play", cid(s, "bounce"))
    assert c in s.hand[1] and s.stamp[c] != old_stamp
    s._enter(1, c)
    assert s.stamp[c] != old_stamp
    # A "that creature" reference made before the move no longer finds it.
    assert s._that(0, 0, s.defs[cid(s, "bounce", "discard")].effects[0], (c, old_stamp)) == -1


@pytest.mark.rule("creatures-summon")
def test_creatures_returned_and_summoned_again_enter_exhausted():
    s = scenario(PINGER, players=[dict(hand=["pinger"]), {}])
    c = cid(s, "pinger")
    act(s, "summon", c)
    assert s.exhausted[c]


@pytest.mark.rule("spells", "strategy-spell")
def test_spells_cast_in_strategy_phase_resolve_then_discard():
    s = scenario(players=[dict(hand=["spark"], allegiance={"red": 1}), {}])
    act(s, "play", cid(s, "spark"))
    assert s.health[1] == 39 and ids(s, s.discard[0]) == ["spark"] and s.resolving == []


@pytest.mark.rule("six-steps-4")
def test_sacrifice_of_the_activated_creature_itself_is_allowed():
    selfsac = card("selfsac", "creature", ["red"], activate=[line("sacrifice", 1), line("wound", 3)])
    s = scenario(selfsac, players=[dict(field=["selfsac"]), {}])
    act(s, "activate", cid(s, "selfsac", "field"))
    assert s.field[0] == [] and s.health[1] == 37


@pytest.mark.rule("six-steps-4", "creatures-destroyed")
def test_six_steps_4_creatures_sacrificed_together_leave_play_together_whatever_the_pick_order():
    # "Every Sacrifice on the card is paid now, together": the creatures sacrificed leave play at
    # once, so none of them sees the others' destruction, whichever order they were picked in.
    mourner = card("mourner", "creature", ["red"], triggers=[Trigger("destroy", "you", (line("essence", 1),))])
    sac2 = card("sac2", "spell", ["red"], effects=[line("sacrifice", 1), line("draw", 1), line("sacrifice", 1)])
    gains = []
    for first, second in (("mourner", "dummy"), ("dummy", "mourner")):
        s = scenario(mourner, sac2, players=[dict(hand=["sac2"], field=["mourner", "dummy", "dummy"],
                                                  deck=["filler"]), {}])
        act(s, "play", cid(s, "sac2"))
        assert s.decision_kind() == "pick:sacrifice"  # one payment of 2, before any line is read
        act(s, "pick", cid(s, first, "field"))
        act(s, "pick", cid(s, second, "field"))
        assert ids(s, s.field[0]) == ["dummy"] and ids(s, s.hand[0]) == ["filler"]
        gains.append(s.essence[0])
    assert gains == [0, 0]


@pytest.mark.rule("creatures-destroyed", "destroy-exile")
def test_creatures_destroyed_together_none_sees_the_others_destruction():
    mourner = card("mourner", "creature", ["white"], triggers=[Trigger("destroy", "you", (line("essence", 1),))])
    witness = card("witness", "creature", ["white"], triggers=[Trigger("destroy", "you", (line("essence", 10),))])
    kill2 = card("kill2", "spell", ["red"], effects=[line("destroy", 2)])
    for order in (("mourner", "dummy"), ("dummy", "mourner")):
        s = scenario(mourner, witness, kill2, players=[dict(hand=["kill2"]),
                                                       dict(field=["mourner", "dummy", "witness"])])
        act(s, "play", cid(s, "kill2"))
        for c in order:
            act(s, "pick", cid(s, c, "field"))
        while s.decision_kind() == "order":
            s.apply(s.options[0])
        # The witness, still in play, saw both; the mourner, destroyed with the other, saw none.
        assert s.essence[1] == 20, order


@pytest.mark.rule("six-steps", "six-steps-3", "strategy-soul")
def test_six_steps_a_soul_and_an_activation_follow_the_same_steps():
    s = scenario(ANOINT, PINGER, players=[dict(hand=["gold"], field=["pinger"]),
                                          dict(hand=["anoint", "anoint"], deck=["filler"] * 2)])
    act(s, "pass")
    act(s, "play", cid(s, "gold"))
    # Step 3 of a Soul: the opponent's window, before its essence is gained.
    assert s.decision_kind() == "window:step3" and s.essence[0] == 0 and ids(s, s.played[0]) == ["gold"]
    act(s, "pass")
    assert s.essence[0] == 3
    act(s, "pass")
    act(s, "activate", cid(s, "pinger", "field"))
    assert s.decision_kind() == "window:step3" and s.exhausted[cid(s, "pinger", "field")] and s.health[1] == 40
    act(s, "pass")
    assert s.health[1] == 39


@pytest.mark.rule("six-steps-2", "six-steps-5", "traps-none")
def test_six_steps_2_card_leaves_hand_stays_in_front_and_no_untriggered_trap_between_lines():
    when_wound = card("when-wound", "trap", ["white"], trap=TrapSpec("when", "wound"), effects=[line("essence", 1)])
    shield = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])
    double = card("double", "spell", ["red"], effects=[line("wound", 1), line("wound", 1)])
    s = scenario(when_wound, shield, double, players=[dict(hand=["double"]), dict(hand=["when-wound", "shield"])])
    c = cid(s, "double")
    act(s, "pass")
    act(s, "play", c)
    act(s, "pass")  # step 3
    # Between the two lines only the "when" trap may be played, never Divine Shield.
    assert s.decision_kind() == "window:when"
    assert c in s.resolving and c not in s.hand[0] and c not in s.discard[0]
    assert [o.a for o in s.options if o.kind == "trap"] == [cid(s, "when-wound")]


@pytest.mark.rule("six-steps-3", "traps-when", "six-steps-summon-trap")
def test_six_steps_3_call_from_the_grave_destroys_the_creature_just_summoned():
    grave = card("grave", "trap", ["black"], trap=TrapSpec("when", "summon"), effects=[line("destroy", 1, target="that")])
    dm = card("dm", "creature", ["red"], demise=[line("essence", 2)])
    s = scenario(grave, dm, players=[dict(hand=["dm"], field=["dummy"]), dict(hand=["grave"])])
    act(s, "summon", cid(s, "dm"))
    assert s.decision_kind() == "window:step3" and ids(s, s.field[0]) == ["dummy", "dm"]
    act(s, "trap", cid(s, "grave"), 0)
    assert ids(s, s.field[0]) == ["dummy"] and ids(s, s.discard[0]) == ["dm"] and s.essence[0] == 2


@pytest.mark.rule("six-steps-3", "traps-each-time", "principle-5")
def test_six_steps_3_window_even_with_effects_waiting_each_time_trap_not_retroactive():
    backdraft = card("backdraft", "trap", ["red"], trap=TrapSpec("each_time", "activate"), effects=[line("wound", 1)])
    s = scenario(backdraft, PINGER, BLAZE, players=[dict(field=["pinger", "pinger"], hand=["spark"], rite="blaze"),
                                                    dict(hand=["backdraft"])])
    act(s, "pass")
    act(s, "play", cid(s, "spark"))
    # The Rite's effect already waits, and the opponent still has their window.
    assert s.decision_kind() == "window:step3" and len(s.pools[-1]) == 1
    act(s, "pass")
    act(s, "pass")
    act(s, "activate", cid(s, "pinger", "field", nth=0))
    act(s, "trap", cid(s, "backdraft"))
    assert s.health[0] == 40  # played after this activation: it does not react to it
    act(s, "activate", cid(s, "pinger", "field", nth=1))
    assert s.health[0] == 39


@pytest.mark.rule("creatures-summon", "six-steps-4")
def test_creatures_summon_as_soon_as_a_slot_frees_up():
    s = scenario(SAC, players=[dict(hand=["dummy", "sac"], field=["dummy"] * 5), {}])
    assert not any(o.kind == "summon" for o in s.options)
    act(s, "play", cid(s, "sac"))
    act(s, "pick", s.field[0][0])
    assert len(s.field[0]) == 4 and ("summon", cid(s, "dummy"), -1) in s.options


@pytest.mark.rule("creatures-new-card", "creatures-activate", "creatures-summon")
def test_creatures_returned_to_hand_and_summoned_again_enter_exhausted_with_no_memory():
    bounce = card("bounce", "spell", ["blue"], effects=[line("bounce", 1)])
    s = scenario(bounce, PINGER, players=[dict(hand=["bounce", "filler"]),
                                          dict(faction="red", allegiance={"red": 1}, field=["pinger"], hand=[])])
    c = cid(s, "pinger", "field")
    assert not s.exhausted[c]
    act(s, "play", cid(s, "bounce"))
    # Only the active player activates, in their strategy phase.
    assert not any(o.kind == "activate" for o in s.options)
    act(s, "end")
    act(s, "stop")
    assert s.active == 1 and c in s.hand[1]
    act(s, "summon", c)
    assert s.exhausted[c] and ("activate", c, -1) not in s.options


@pytest.mark.rule("creatures-rush", "creatures-passive", "creatures-ready")
def test_creatures_rush_enters_ready_is_activated_then_ready_for_the_opponent_turn():
    s = scenario(RUSHER, players=[dict(hand=["rusher", "filler"]), dict(hand=["filler"])])
    act(s, "summon", cid(s, "rusher"))
    c = cid(s, "rusher", "field")
    assert not s.exhausted[c]
    act(s, "activate", c)
    assert s.exhausted[c] and s.health[1] == 39 and ("activate", c, -1) not in s.options
    act(s, "end")
    act(s, "stop")
    assert not s.exhausted[c]  # readied at the end of its owner's turn


@pytest.mark.rule("six-steps-1")
def test_six_steps_1_an_action_that_is_not_allowed_does_not_happen():
    from forge.engine.actions import IllegalDecision
    big = card("big", "creature", ["red"], allegiance={"red": 3})
    s = scenario(big, players=[dict(hand=["big", "dummy"], field=["dummy"] * 5, essence=2), {}])
    before = (list(s.hand[0]), list(s.field[0]), s.essence[0], len(s.log))
    for bad in (("summon", cid(s, "big")), ("summon", cid(s, "dummy")), ("activate", 99)):
        with pytest.raises(IllegalDecision):
            act(s, *bad)
    assert (s.hand[0], s.field[0], s.essence[0], len(s.log)) == before and s.decision_kind() == "main"
