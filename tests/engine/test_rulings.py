"""Tests that pin the rulings of docs/rulings.md not covered by a rulebook-section test."""
from __future__ import annotations

import pytest

from .conftest import Keywords, TrapSpec, Trigger, act, card, cid, ids, line, scenario

SHIELD = card("shield", "trap", ["white"], trap=TrapSpec("none"), effects=[line("divine_shield")])


@pytest.mark.rule("wound-order-2")
def test_ruling_divine_shield_does_not_stack():
    big = card("big", "spell", ["red"], effects=[line("wound", 4)])
    s = scenario(SHIELD, big, players=[dict(hand=["big"]), dict(hand=["shield", "shield"], deck=["filler"] * 4)])
    act(s, "trap", cid(s, "shield"))
    act(s, "trap", cid(s, "shield"))
    act(s, "play", cid(s, "big"))
    assert s.health[1] == 37


@pytest.mark.rule("wound")
def test_ruling_unblockable_wound_fires_the_wound_event_poison_does_not():
    watcher = card("w", "creature", ["red"], triggers=[Trigger("wound", "you", (line("essence", 1),))])
    unb = card("unb", "spell", ["red"], effects=[line("unblockable_wound", 2), line("poison", 3)])
    s = scenario(watcher, unb, players=[dict(hand=["unb"], field=["w"]), {}])
    act(s, "play", cid(s, "unb"))
    assert s.essence[0] == 1 and s.poison[1] == 3


@pytest.mark.rule("six-steps-2")
def test_ruling_a_creature_does_not_see_its_own_summon():
    herald = card("herald", "creature", ["red"], triggers=[Trigger("summon", "you", (line("essence", 1),))])
    s = scenario(herald, players=[dict(hand=["herald", "dummy"]), {}])
    act(s, "summon", cid(s, "herald"))
    assert s.essence[0] == 0
    act(s, "summon", cid(s, "dummy"))
    assert s.essence[0] == 1


@pytest.mark.rule("principle-1")
def test_ruling_destroy_events_by_you_is_your_creature_by_opponent_is_their_destroying():
    mine = card("mine", "creature", ["white"], triggers=[Trigger("destroy", "you", (line("essence", 1),))])
    theirs = card("theirs", "creature", ["white"], triggers=[Trigger("destroy", "opponent", (line("essence", 10),))])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(mine, theirs, kill, players=[dict(hand=["kill"]), dict(field=["mine", "theirs", "dummy"])])
    act(s, "play", cid(s, "kill"))
    act(s, "pick", cid(s, "dummy", "field"))
    assert s.decision_kind() == "order" and s.current_player() == 1
    s.apply(s.options[0])
    assert s.essence[1] == 11  # a creature of player 1 destroyed, by player 1's opponent


@pytest.mark.rule("six-steps-4", "principle-4")
def test_ruling_sacrifice_after_the_window_pays_what_it_can_and_the_card_resolves():
    feed = card("feed", "spell", ["red"], effects=[line("sacrifice", 1), line("wound", 4)])
    burn = card("burn", "trap", ["black"], trap=TrapSpec("when", "cast"), effects=[line("destroy", 1)])
    s = scenario(feed, burn, players=[dict(hand=["feed"], field=["dummy"]), dict(hand=["burn"])])
    act(s, "play", cid(s, "feed"))
    act(s, "trap", cid(s, "burn"), 0)
    assert s.field[0] == [] and s.health[1] == 36


@pytest.mark.rule("principle-3")
def test_ruling_single_option_decisions_are_not_asked_but_the_strategy_phase_is():
    c = card("c", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(c, players=[dict(hand=["c"]), dict(field=["dummy"])])
    act(s, "play", cid(s, "c"))
    assert s.field[1] == [] and s.decision_kind() == "main" and s.options == [("end", -1, -1)]


@pytest.mark.rule("traps-when")
def test_ruling_waiting_effects_of_a_when_trap_resolve_before_the_card_resumes():
    dm = card("dm", "creature", ["red"], demise=[line("essence", 3)])
    burn = card("burn", "trap", ["black"], trap=TrapSpec("when", "wound"), effects=[line("destroy", 1)])
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("essence", 1)])
    s = scenario(dm, burn, c, players=[dict(hand=["c"], field=["dm"]), dict(hand=["burn"])])
    act(s, "play", cid(s, "c"))
    act(s, "trap", cid(s, "burn"), 0)
    gains = [e for e in s.log if e[0] == "essence"]
    assert gains == [("essence", 0, 3), ("essence", 0, 1)]


@pytest.mark.rule("wound-order-3", "wound-zero")
def test_ruling_guard_is_asked_only_when_damage_remains():
    guard = card("guard", "creature", ["white"], keywords=Keywords(guard=True, aegis=1))
    s = scenario(guard, players=[dict(hand=["spark", "filler"]), dict(field=["guard"])])
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "main" and s.health[1] == 40


@pytest.mark.rule("destroy-exile")
def test_ruling_exile_from_the_battlefield_triggers_no_demise():
    dm = card("dm", "creature", ["red"], demise=[line("wound", 5)])
    ex = card("ex", "spell", ["blue"], effects=[line("exile", 1)])
    s = scenario(dm, ex, players=[dict(hand=["ex"]), dict(field=["dm"])])
    act(s, "play", cid(s, "ex"))
    assert s.health == [40, 40] and ids(s, s.exile) == ["dm"]


@pytest.mark.rule("traps-none")
def test_ruling_protection_covers_creatures_entering_later_in_the_turn():
    anoint = card("anoint", "trap", ["white"], trap=TrapSpec("none"), effects=[line("protect_creatures")])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(anoint, kill, players=[dict(hand=["kill"], allegiance={"red": 1}), dict(hand=["anoint"])])
    act(s, "trap", cid(s, "anoint"))
    c = s.new_card(s.cards.by_id["dummy"], 1)
    s._enter(1, c)
    act(s, "play", cid(s, "kill"))
    assert s.field[1] == [c]


@pytest.mark.rule("chains-5", "cleanup-2")
def test_ruling_immediately_lines_of_end_of_turn_effects_resolve_at_once():
    eot = card("eot", "creature", ["red"], end_of_turn=[line("wound", 1, timing="immediately"), line("essence", 1)])
    s = scenario(eot, players=[dict(field=["eot"], hand=["filler"]), {}])
    act(s, "end")
    assert s.health[1] == 39 and ("essence", 0, 1) in s.log


@pytest.mark.rule("essence", "cleanup-3")
def test_ruling_essence_gained_in_the_opponent_turn_lasts_until_the_end_of_your_next_turn():
    s = scenario(KIND := card("kind", "spell", ["red"], cost=1, effects=[line("draw", 1)]),
                 players=[dict(hand=["filler"]), dict(hand=["dud-trap"], deck=["filler"] * 6)],
                 row=["kind"] + [""] * 7)
    assert KIND.cost == 1
    act(s, "trap", cid(s, "dud-trap"))
    assert s.essence == [0, 1]
    act(s, "end")
    act(s, "stop")
    # Player 0's cleanup took only player 0's essence; player 1 spends theirs in their own turn.
    assert s.active == 1 and s.essence[1] == 1 and ("buy", 0, -1) in s.options
    act(s, "end")
    act(s, "stop")
    assert s.essence == [0, 0]


@pytest.mark.rule("rites-timing", "cleanup-2")
def test_ruling_a_rite_taken_by_an_end_of_turn_effect_waits_for_the_next_end_of_turn():
    eot = card("eot", "creature", ["white"], end_of_turn=[line("allegiance", 1, faction="white")])
    s = scenario(eot, players=[dict(faction="white", allegiance={"white": 5}, field=["eot"], hand=["filler"],
                                    deck=["gold"] * 12), dict(hand=["filler"], deck=["gold"] * 6)])
    act(s, "end")
    act(s, "stop")
    # rite-white draws 1 at the end of its owner's turn: not at this one, already begun.
    assert s.rite_of[0].id == "rite-white" and ("draw", 0, 1) not in s.log
    act(s, "end")
    act(s, "stop")
    act(s, "end")
    assert s.decision_kind() == "order"  # the Rite's end-of-turn effect and the creature's
    while s.decision_kind() == "order":
        s.apply(s.options[0])
    assert ("draw", 0, 1) in s.log
