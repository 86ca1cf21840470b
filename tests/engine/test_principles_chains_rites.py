"""Rulebook: General principles 1-8, Chains 1-7, Rites, the end of the game."""
from __future__ import annotations

import pytest

from forge.engine import HiddenCard, Observation

from .conftest import Keywords, TrapSpec, Trigger, act, card, cid, ids, line, scenario

KILL = card("kill", "spell", ["red"], effects=[line("destroy", 1)])


@pytest.mark.rule("principle-1")
def test_general_principle_1_card_text_over_rulebook_anointing_saves_a_guard():
    anoint = card("anoint", "trap", ["white"], trap=TrapSpec("none"), effects=[line("protect_creatures")])
    guard = card("guard", "creature", ["white"], keywords=Keywords(guard=True))
    s = scenario(anoint, guard, players=[dict(hand=["spark", "filler"]), dict(hand=["anoint"], field=["guard"])])
    act(s, "trap", cid(s, "anoint"))
    act(s, "play", cid(s, "spark"))
    act(s, "guard", cid(s, "guard", "field"))
    assert ids(s, s.field[1]) == ["guard"] and s.exhausted[cid(s, "guard", "field")]


@pytest.mark.rule("principle-2")
def test_general_principle_2_a_card_never_goes_to_the_opponent():
    bounce = card("bounce", "spell", ["blue"], effects=[line("bounce", 1)])
    s = scenario(bounce, players=[dict(hand=["bounce"]), dict(field=["dummy"])])
    act(s, "play", cid(s, "bounce"))
    assert ids(s, s.hand[1]) == ["dummy"] and s.hand[0] == []


@pytest.mark.rule("principle-3", "text-box-optional")
def test_general_principle_3_up_to_x_choose_between_0_and_x():
    c = card("c", "spell", ["red"], effects=[line("destroy", 2, up_to=True)])
    s = scenario(c, players=[dict(hand=["c"]), dict(field=["dummy", "dummy"])])
    act(s, "play", cid(s, "c"))
    assert ("stop", -1, -1) in s.options
    act(s, "stop")
    assert len(s.field[1]) == 2


@pytest.mark.rule("principle-4")
def test_general_principle_4_as_much_as_possible_and_no_target_does_nothing():
    c = card("c", "spell", ["red"], effects=[line("destroy", 3), line("recover", 2, card="trap"), line("wound", 1)])
    s = scenario(c, players=[dict(hand=["c"], discard=["spark"]), dict(field=["dummy"])])
    act(s, "play", cid(s, "c"))
    assert s.field[1] == [] and ids(s, s.hand[0]) == [] and s.health[1] == 39


@pytest.mark.rule("principle-5")
def test_general_principle_5_no_action_between_lines_or_while_effects_wait():
    dm = card("dm", "creature", ["red"], demise=[line("essence", 2)])
    c = card("c", "spell", ["red"], effects=[line("destroy", 1), line("essence", 1)])
    s = scenario(dm, c, players=[dict(hand=["c", "filler"], field=["dm"]), dict(field=["dm"])])
    act(s, "play", cid(s, "c"))
    # The only decisions during the card were its own; the main decision comes after everything.
    assert s.decision_kind() == "main" and s.essence[0] == 1 and not s.pools[-1]


@pytest.mark.rule("principle-6")
def test_general_principle_6_discard_the_victim_chooses():
    c = card("c", "spell", ["black"], effects=[line("discard", 1)])
    s = scenario(c, players=[dict(hand=["c"]), dict(hand=["filler", "gold", "spark"])])
    act(s, "play", cid(s, "c"))
    assert s.decision_kind() == "pick:discard" and s.current_player() == 1
    act(s, "pick", cid(s, "spark"))
    assert ids(s, s.discard[1]) == ["spark"]


@pytest.mark.rule("principle-6", "principle-4")
def test_general_principle_6_discard_with_small_hand_takes_all():
    c = card("c", "spell", ["black"], effects=[line("discard", 2)])
    s = scenario(c, players=[dict(hand=["c"]), dict(hand=["gold"])])
    act(s, "play", cid(s, "c"))
    assert ids(s, s.discard[1]) == ["gold"]


@pytest.mark.rule("principle-7")
def test_general_principle_7_agents_see_public_information_and_their_own_hand():
    s = scenario(players=[dict(hand=["filler"], deck=["gold"]), dict(hand=["spark"], deck=["gold"])])
    obs = Observation(s, 0)
    assert obs.card(s.hand[0][0]).id == "filler"
    assert obs.hand_size(1) == 1 and obs.deck_size(1) == 1 and obs.deck_size(0) == 1
    for hidden in (s.hand[1][0], s.deck[0][0], s.deck[1][0]):
        with pytest.raises(HiddenCard):
            obs.card(hidden)
    assert not hasattr(obs, "state") and not hasattr(obs, "__dict__")


@pytest.mark.rule("principle-8")
def test_general_principle_8_game_ends_mid_card():
    c = card("c", "spell", ["red"], effects=[line("wound", 5), line("essence", 9)])
    dm = card("dm", "creature", ["white"], demise=[line("wound", 9)])
    s = scenario(c, dm, players=[dict(hand=["c"]), dict(health=5, field=["dm"])])
    act(s, "play", cid(s, "c"))
    assert s.terminal and s.winner == 0 and s.essence[0] == 0 and s.health[1] == 0
    assert s.current_player() == -1 and s.legal_actions() == []


@pytest.mark.rule("chains-1", "chains")
def test_chains_1_card_resolves_fully_before_triggered_effects():
    watcher = card("watcher", "creature", ["red"], triggers=[Trigger("destroy", "opponent", (line("wound", 1),))])
    c = card("c", "spell", ["red"], effects=[line("destroy", 1), line("essence", 1)])
    s = scenario(watcher, c, players=[dict(hand=["c"]), dict(field=["watcher", "dummy"])])
    act(s, "play", cid(s, "c"))
    act(s, "pick", cid(s, "dummy", "field"))
    i_ess = s.log.index(("essence", 0, 1))
    i_wound = next(i for i, e in enumerate(s.log) if e[0] == "wound")
    assert i_ess < i_wound


@pytest.mark.rule("chains-2")
def test_chains_2_triggered_effects_never_modify_the_card_being_resolved():
    eot = card("eot", "rite", ["red"], set="rite", triggers=[Trigger("wound", "you", (line("essence", 1),))])
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("wound", 1)])
    s = scenario(eot, c, players=[dict(hand=["c"], rite="eot"), {}])
    act(s, "play", cid(s, "c"))
    kinds = [e[0] for e in s.log if e[0] in ("wound", "essence")]
    assert kinds == ["wound", "wound", "essence", "essence"]


@pytest.mark.rule("chains-3")
def test_chains_3_active_player_priority_over_new_waiting_effects():
    # Only player 1 has waiting effects (two Demises); the first one wounds player 0, whose
    # "each time" effect then waits and goes before player 1's remaining Demise.
    theirs = card("theirs", "creature", ["white"], demise=[line("wound", 1)])
    theirs2 = card("theirs2", "creature", ["white"], demise=[line("draw", 1)])
    chain = card("chain", "creature", ["red"], triggers=[Trigger("wound", "opponent", (line("essence", 10),))])
    c = card("c", "spell", ["red"], effects=[line("destroy", 2)])
    s = scenario(theirs, theirs2, chain, c,
                 players=[dict(hand=["c", "filler"], field=["chain"]),
                          dict(field=["theirs", "theirs2"], deck=["filler"])])
    act(s, "play", cid(s, "c"))
    assert s.decision_kind() == "order" and s.current_player() == 1
    wound_first = next(o for o in s.options if s.pools[-1][o.a].lines[0].verb == "wound")
    s.apply(wound_first)
    log = [e for e in s.log if e[0] in ("essence", "wound", "draw")]
    assert log == [("wound", 1, 0, 1), ("essence", 0, 10), ("draw", 1, 1)]


@pytest.mark.rule("chains-3")
def test_chains_3_effect_belongs_to_owner_of_its_card():
    dm = card("dm", "creature", ["white"], demise=[line("essence", 4)])
    s = scenario(KILL, dm, players=[dict(hand=["kill"]), dict(field=["dm"])])
    act(s, "play", cid(s, "kill"))
    assert s.essence == [0, 4]


@pytest.mark.rule("chains-4")
def test_chains_4_waiting_effect_resolves_after_source_left():
    dm = card("dm", "creature", ["white"], demise=[line("wound", 2)])
    s = scenario(KILL, dm, players=[dict(hand=["kill"]), dict(field=["dm"])])
    act(s, "play", cid(s, "kill"))
    assert s.health[0] == 38


@pytest.mark.rule("chains-4")
def test_chains_4_waiting_effect_without_target_does_nothing():
    trig = card("trig", "creature", ["red"], triggers=[Trigger("summon", "opponent", (line("destroy", 1, target="that"),))])
    bounce_trap = card("bt", "trap", ["blue"], trap=TrapSpec("when", "summon"), effects=[line("bounce", 1, target="that")])
    s = scenario(trig, bounce_trap, players=[dict(hand=["dummy"], field=[]), dict(field=["trig"], hand=["bt"])])
    act(s, "summon", cid(s, "dummy"))
    act(s, "trap", cid(s, "bt"), 0)
    # "trig" waited to destroy that creature, which is back in hand: nothing happens.
    assert ids(s, s.hand[0]) == ["dummy"] and s.field[0] == []


@pytest.mark.rule("chains-5")
def test_chains_5_immediately_acts_at_once_after_effects_waits():
    imm = card("imm", "creature", ["white"], demise=[line("wound", 1, timing="immediately"), line("wound", 5)])
    c = card("c", "spell", ["red"], effects=[line("destroy", 1), line("essence", 1)])
    s = scenario(imm, c, players=[dict(hand=["c"]), dict(field=["imm"])])
    act(s, "play", cid(s, "c"))
    log = [e for e in s.log if e[0] in ("wound", "essence")]
    assert log == [("wound", 1, 0, 1), ("essence", 0, 1), ("wound", 1, 0, 5)]
    after = card("after", "creature", ["red"], activate=[line("draw", 1, timing="after_effects"), line("wound", 1)],
                 keywords=Keywords(rush=True))
    watcher = card("w", "creature", ["red"], triggers=[Trigger("activate", "you", (line("essence", 1),))])
    s = scenario(after, watcher, players=[dict(field=["after", "w"], deck=["filler"]), {}])
    act(s, "activate", cid(s, "after", "field"))
    assert s.decision_kind() == "order"  # both wait: the active player picks the order
    s.apply(s.options[-1])
    log = [e[0] for e in s.log if e[0] in ("wound", "essence", "draw")]
    assert log[0] == "wound" and sorted(log[1:]) == ["draw", "essence"]


@pytest.mark.rule("chains-6")
def test_chains_6_conditional_lines_checked_as_read():
    c = card("c", "spell", ["red"], effects=[line("essence", 1, when=("blue", 1)), line("allegiance", 1, faction="blue"),
                                             line("essence", 2, when=("blue", 1))])
    s = scenario(c, players=[dict(hand=["c"]), {}])
    act(s, "play", cid(s, "c"))
    assert s.essence[0] == 2


@pytest.mark.rule("chains-7")
def test_chains_7_guard_aegis_shield_modify_wound_as_it_resolves():
    guard = card("guard", "creature", ["white"], keywords=Keywords(guard=True, aegis=1))
    c = card("c", "spell", ["red"], effects=[line("wound", 3), line("essence", 1)])
    s = scenario(guard, c, players=[dict(hand=["c"]), dict(field=["guard"])])
    act(s, "play", cid(s, "c"))
    assert s.decision_kind() == "guard" and s.stack[-1].damage == 2 and s.essence[0] == 0
    act(s, "pass")
    assert s.health[1] == 38 and s.essence[0] == 1


@pytest.mark.rule("rites")
def test_rites_first_to_six_takes_the_rite_one_copy():
    c = card("c", "spell", ["red"], effects=[line("allegiance", 1, faction="red")])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 5}), dict(allegiance={"red": 5})])
    act(s, "play", cid(s, "c"))
    assert s.rite_of[0].id == "rite-red" and s.rite_owner[0] == 0
    s.alleg[1][0] = 5
    s._gain_allegiance(1, [0])
    assert s.rite_of[1] is None  # no longer available


@pytest.mark.rule("rites")
def test_rites_one_per_player_for_the_whole_game():
    c = card("c", "spell", ["red"], effects=[line("allegiance", 1, faction="white")])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"white": 5}, rite="rite-red"), {}])
    act(s, "play", cid(s, "c"))
    assert s.rite_of[0].id == "rite-red" and s.rite_owner[1] == -1  # Rite of White stays available


@pytest.mark.rule("rites-timing")
def test_rites_taken_mid_card_act_from_the_next_event():
    c = card("c", "spell", ["red"], effects=[line("allegiance", 1, faction="red"), line("essence", 1)])
    nxt = card("nxt", "spell", ["red"], effects=[line("essence", 1)])
    s = scenario(c, nxt, players=[dict(hand=["c", "nxt"], allegiance={"red": 5}), {}])
    act(s, "play", cid(s, "c"))
    assert s.rite_of[0].id == "rite-red" and s.health[1] == 40  # the cast happened before
    act(s, "play", cid(s, "nxt"))
    assert s.health[1] == 39


@pytest.mark.rule("rites-timing")
def test_rites_taken_during_opponent_turn():
    pray = card("pray", "trap", ["white"], trap=TrapSpec("none"), effects=[line("allegiance", 1, faction="white")])
    s = scenario(pray, players=[dict(hand=["filler"]), dict(hand=["pray"], allegiance={"white": 5})])
    act(s, "trap", cid(s, "pray"))
    assert s.rite_of[1].id == "rite-white" and s.active == 0


@pytest.mark.rule("rites-timing", "cleanup-2")
def test_rites_end_of_turn_effect_of_its_owner():
    s = scenario(players=[dict(hand=["filler"], rite="rite-white", deck=["gold"] * 8), {}])
    act(s, "end")
    act(s, "stop")
    assert len(s.hand[0]) == 5 and ("draw", 0, 1) in s.log


@pytest.mark.rule("defeat")
def test_end_defeat_at_zero_even_in_own_initiation_never_a_draw():
    s = scenario(players=[dict(poison=1, health=1, hand=["filler"]), {}], start="turn")
    assert s.terminal and s.winner == 1 and s.capped is None


@pytest.mark.rule("victory", "principle-8")
def test_end_nothing_left_waiting_resolves():
    dm = card("dm", "creature", ["white"], demise=[line("essence", 7)])
    c = card("c", "spell", ["red"], effects=[line("destroy", 1), line("wound", 3)])
    s = scenario(dm, c, players=[dict(hand=["c"]), dict(health=3, field=["dm"])])
    act(s, "play", cid(s, "c"))
    assert s.terminal and s.essence[1] == 0 and s.pools == [[]]


@pytest.mark.rule("chains-3", "chains-2")
def test_chains_3_active_player_first_new_effects_join_their_owner_then_the_opponent():
    a1 = card("a1", "creature", ["red"], triggers=[Trigger("cast", "you", (line("wound", 1),))])
    a2 = card("a2", "creature", ["red"], triggers=[Trigger("cast", "you", (line("draw", 1),))])
    a3 = card("a3", "creature", ["red"], triggers=[Trigger("wound", "you", (line("essence", 5),))])
    o1 = card("o1", "creature", ["white"], triggers=[Trigger("cast", "opponent", (line("essence", 1),))])
    o2 = card("o2", "creature", ["white"], triggers=[Trigger("wound", "opponent", (line("essence", 2),))])
    hush = card("hush", "spell", ["red"], effects=[line("essence", 7)])
    s = scenario(a1, a2, a3, o1, o2, hush,
                 players=[dict(hand=["hush"], field=["a1", "a2", "a3"], deck=["gold"]), dict(field=["o1", "o2"])])
    act(s, "play", cid(s, "hush"))
    src = lambda: sorted(s.pools[-1][o.a].design.id for o in s.options)
    # Waiting: a1, a2 (active player), o1 (opponent). The active player chooses among theirs.
    assert s.decision_kind() == "order" and s.current_player() == 0 and src() == ["a1", "a2"]
    s.apply(next(o for o in s.options if s.pools[-1][o.a].design.id == "a1"))
    # a1's Wound triggered a3 (active) and o2 (opponent): a3 joins the active player's effects.
    assert s.current_player() == 0 and src() == ["a2", "a3"]
    s.apply(next(o for o in s.options if s.pools[-1][o.a].design.id == "a3"))
    # Only now the opponent, who orders theirs.
    assert s.current_player() == 1 and src() == ["o1", "o2"]
    s.apply(next(o for o in s.options if s.pools[-1][o.a].design.id == "o2"))
    log = [e for e in s.log if e[0] in ("essence", "wound", "draw")]
    assert log == [("essence", 0, 7), ("wound", 0, 1, 1), ("essence", 0, 5), ("draw", 0, 1),
                   ("essence", 1, 2), ("essence", 1, 1)]


@pytest.mark.rule("rites-timing", "chains-6")
def test_rites_taken_mid_card_a_later_event_of_the_same_card_triggers_it():
    blaze = card("rite-red", "rite", ["red"], set="rite", triggers=[Trigger("wound", "you", (line("essence", 1),))])
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("allegiance", 1, faction="red"),
                                             line("wound", 1), line("draw", 1, when=("red", 6))])
    s = scenario(blaze, c, players=[dict(hand=["c"], allegiance={"red": 5}, deck=["filler"]), {}])
    act(s, "play", cid(s, "c"))
    # The first Wound came before the Rite: only the second one triggers it, after the card.
    assert s.rite_of[0].id == "rite-red" and s.essence[0] == 1 and ids(s, s.hand[0]) == ["filler"]
    kinds = [e[0] for e in s.log if e[0] in ("wound", "rite", "essence", "draw")]
    assert kinds == ["wound", "rite", "wound", "draw", "essence"]


@pytest.mark.rule("rites-timing", "traps-when")
def test_rites_taken_in_the_opponent_turn_by_a_when_trap_act_on_the_rest_of_their_card():
    grave = card("rite-black", "rite", ["black"], set="rite",
                 triggers=[Trigger("destroy", "opponent", (line("poison", 1),))])
    vow = card("vow", "trap", ["black"], trap=TrapSpec("when", "wound"), effects=[line("allegiance", 1, faction="black")])
    c = card("c", "spell", ["red"], effects=[line("destroy", 1), line("wound", 1), line("destroy", 1)])
    s = scenario(grave, vow, c, players=[dict(hand=["c"]),
                                         dict(faction="black", allegiance={"black": 5}, hand=["vow"],
                                              field=["dummy", "dummy"])])
    act(s, "play", cid(s, "c"))
    act(s, "pick", s.field[1][0])
    act(s, "trap", cid(s, "vow"), 0)
    assert s.rite_of[1].id == "rite-black" and s.active == 0
    # The card resumed: its second Destroy is the next event; the first one came before the Rite.
    assert s.field[1] == [] and s.poison[0] == 1


@pytest.mark.rule("rites")
def test_rites_a_player_who_owns_one_takes_nothing_the_rite_stays_for_the_opponent():
    c = card("c", "spell", ["red"], effects=[line("allegiance", 1, faction="white")])
    pray = card("pray", "trap", ["white"], trap=TrapSpec("none"), effects=[line("allegiance", 1, faction="white")])
    s = scenario(c, pray, players=[dict(hand=["c"], allegiance={"white": 5}, rite="rite-red"),
                                   dict(hand=["pray"], allegiance={"white": 5})])
    act(s, "pass")
    act(s, "play", cid(s, "c"))
    act(s, "pass")
    assert s.alleg[0][1] == 6 and s.rite_owner[1] == -1
    act(s, "trap", cid(s, "pray"))
    assert s.rite_of[1].id == "rite-white" and s.rite_of[0].id == "rite-red"


@pytest.mark.rule("chains-4", "chains-2")
def test_chains_4_a_waiting_effect_resolves_though_its_creature_was_destroyed_meanwhile():
    o1 = card("o1", "creature", ["white"], triggers=[Trigger("cast", "opponent", (line("wound", 2),))])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    s = scenario(o1, kill, players=[dict(hand=["kill"]), dict(field=["o1"])])
    act(s, "play", cid(s, "kill"))
    assert s.field[1] == [] and s.health[0] == 38


@pytest.mark.rule("victory", "defeat", "principle-8")
def test_victory_the_commander_still_alive_wins_at_once_even_in_the_opponent_turn():
    hurt = card("hurt", "trap", ["red"], trap=TrapSpec("none"), effects=[line("wound", 2), line("essence", 1)])
    s = scenario(hurt, players=[dict(health=2, hand=["spark"]), dict(hand=["hurt"])])
    act(s, "trap", cid(s, "hurt"))
    assert s.terminal and s.winner == 1 and s.returns() == (-1.0, 1.0) and s.essence[1] == 0


@pytest.mark.rule("chains-6", "chains-2")
def test_chains_6_a_waiting_effect_checks_its_threshold_when_it_is_read():
    dm = card("dm", "creature", ["red"], demise=[line("essence", 5, when=("red", 2))])
    c = card("c", "spell", ["red"], effects=[line("sacrifice", 1), line("allegiance", 1, faction="red")])
    s = scenario(dm, c, players=[dict(hand=["c"], field=["dm"], allegiance={"red": 1}), {}])
    act(s, "play", cid(s, "c"))
    # The Demise waited while the card raised Red to 2: read after the card, its line applies.
    assert s.alleg[0][0] == 2 and s.essence[0] == 5


@pytest.mark.rule("rites-timing", "chains-3")
def test_rites_effects_wait_and_follow_the_order_of_resolution():
    blaze = card("rite-red", "rite", ["red"], set="rite", triggers=[Trigger("cast", "you", (line("wound", 1),))])
    fan = card("fan", "creature", ["red"], triggers=[Trigger("cast", "you", (line("essence", 1),))])
    foe = card("foe", "creature", ["white"], triggers=[Trigger("cast", "opponent", (line("essence", 2),))])
    s = scenario(blaze, fan, foe, players=[dict(hand=["spark"], field=["fan"], rite="rite-red"),
                                           dict(field=["foe"])])
    act(s, "play", cid(s, "spark"))
    assert s.decision_kind() == "order" and s.current_player() == 0
    s.apply(next(o for o in s.options if s.pools[-1][o.a].design.id == "fan"))
    log = [e for e in s.log if e[0] in ("essence", "wound")]
    assert log == [("wound", 0, 1, 1), ("essence", 0, 1), ("wound", 0, 1, 1), ("essence", 1, 2)]
