"""Rulebook: reading the text box, Soul essence, buying, Allegiance."""
from __future__ import annotations

import pytest

from .conftest import TrapSpec, act, card, cid, ids, line, scenario

KINDLE = card("kindle", "spell", ["red"], allegiance={"red": 1}, effects=[line("essence", 1), line("wound", 1)])
DUO = card("duo", "spell", ["red", "white"], allegiance={"red": 2, "white": 1}, effects=[line("wound", 1)])
RAISE = card("raise", "spell", ["red"], effects=[line("allegiance", 2, faction="red"), line("essence", 1, when=("red", 4))])
SPLIT = card("split", "spell", ["red"], effects=[line("allegiance", 3)])


@pytest.mark.rule("text-box-example", "spells")
def test_text_box_card_needs_every_required_allegiance():
    s = scenario(DUO, players=[dict(hand=["duo"], allegiance={"red": 2}), {}])
    assert ("play", cid(s, "duo"), -1) not in s.options
    s = scenario(DUO, players=[dict(hand=["duo"], allegiance={"red": 2, "white": 1}), {}])
    assert ("play", cid(s, "duo"), -1) in s.options


@pytest.mark.rule("text-box-conditional", "allegiance-threshold")
def test_text_box_conditional_line_only_applies_at_threshold():
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("wound", 5, when=("red", 3))])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 2}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 39
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 3}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 34


@pytest.mark.rule("text-box-optional")
def test_text_box_you_may_is_optional():
    c = card("c", "spell", ["red"], effects=[line("draw", 1, may=True)])
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"]), {}])
    act(s, "play", cid(s, "c"))
    assert s.decision_kind() == "may"
    act(s, "no")
    assert ids(s, s.hand[0]) == []
    s = scenario(c, players=[dict(hand=["c"], deck=["filler"]), {}])
    act(s, "play", cid(s, "c"))
    act(s, "yes")
    assert ids(s, s.hand[0]) == ["filler"]


@pytest.mark.rule("text-box-activate")
def test_text_box_activation_runs_every_line_up_to_demise():
    c = card("c", "creature", ["red"], activate=[line("wound", 1), line("essence", 2, when=("red", 1))],
             demise=[line("wound", 10)])
    s = scenario(c, players=[dict(field=["c"]), {}])
    act(s, "activate", cid(s, "c", "field"))
    assert s.health[1] == 39 and s.essence[0] == 2


@pytest.mark.rule("essence", "text-box-soul", "strategy-soul")
def test_soul_essence_gain_is_mandatory_and_lost_at_end_of_turn():
    s = scenario(players=[dict(hand=["gold", "filler"]), {}])
    act(s, "play", cid(s, "gold"))
    assert s.essence[0] == 3
    act(s, "end")
    act(s, "stop")
    assert s.essence == [0, 0]


@pytest.mark.rule("essence", "buying")
def test_soul_essence_never_below_zero_buying_needs_enough():
    s = scenario(KINDLE, players=[dict(essence=1), {}], row=["kindle"] + [""] * 7)
    assert s.defs[cid(s, "kindle", "row")].cost == 1  # the default cost
    act(s, "buy", 0)
    assert s.essence[0] == 0
    assert not any(o.kind == "buy" for o in s.options)


@pytest.mark.rule("buying")
def test_buying_replaces_the_slot_at_once_from_the_recruit_deck():
    s = scenario(KINDLE, players=[dict(essence=5), {}], row=["kindle"] * 8, recruit=["spark", "filler"])
    # Identical cards in the row are one option (the first slot holding that design).
    assert [o for o in s.options if o.kind == "buy"] == [("buy", 0, -1)]
    act(s, "buy", 0)
    assert s.defs[s.row[0]].id == "filler"  # the top card of the recruit deck (end of the list)
    assert ids(s, s.discard[0]) == ["kindle"] and s.owner[s.discard[0][0]] == 0


@pytest.mark.rule("buying")
def test_buying_with_an_empty_recruit_deck_leaves_the_slot_empty():
    s = scenario(KINDLE, players=[dict(essence=5), {}], row=["kindle", "spark"] + [""] * 6)
    act(s, "buy", 0)
    assert s.row[0] == -1 and s.defs[s.row[1]].id == "spark"  # other cards don't move


@pytest.mark.rule("buying", "strategy-buy")
def test_buying_needs_no_allegiance_and_many_cards_one_at_a_time():
    big = card("big", "spell", ["blue"], cost=2, allegiance={"blue": 5}, effects=[line("draw", 1)])
    s = scenario(big, players=[dict(essence=4), {}], row=["big", "big"] + [""] * 6)
    act(s, "buy", 0)
    act(s, "buy", 1)
    assert ids(s, s.discard[0]) == ["big", "big"] and s.essence[0] == 0


@pytest.mark.rule("allegiance-raise", "strategy-raise")
def test_allegiance_raise_once_per_turn_for_one_essence():
    s = scenario(players=[dict(essence=3), {}])
    act(s, "raise", 2)
    assert s.alleg[0][2] == 1 and s.essence[0] == 2
    assert not any(o.kind == "raise" for o in s.options)


@pytest.mark.rule("allegiance-effects", "chains-6")
def test_allegiance_effects_add_on_top_of_the_once_per_turn_action():
    s = scenario(RAISE, players=[dict(essence=1, hand=["raise"]), {}])
    act(s, "raise", 0)
    act(s, "play", cid(s, "raise"))
    assert s.alleg[0][0] == 4
    # Chains 6: the allegiance gained by line 1 counts for line 2.
    assert s.essence[0] == 1


@pytest.mark.rule("allegiance-cap", "allegiance")
def test_allegiance_capped_at_6_excess_lost_never_decreases():
    s = scenario(RAISE, players=[dict(hand=["raise"], allegiance={"red": 5}), {}])
    act(s, "play", cid(s, "raise"))
    assert s.alleg[0][0] == 6
    assert not any(o == ("raise", 0, -1) for o in s.options)


@pytest.mark.rule("principle-6")
def test_allegiance_split_is_chosen_by_the_resolving_player():
    s = scenario(SPLIT, players=[dict(hand=["split"], allegiance={"red": 1, "white": 5}), {}])
    act(s, "play", cid(s, "split"))
    assert s.decision_kind() == "pick:allegiance" and s.current_player() == 0
    act(s, "faction", 1)
    # White is now at 6: it is no longer offered.
    assert ("faction", 1, -1) not in s.options
    act(s, "faction", 3)
    act(s, "faction", 3)
    assert s.alleg[0] == [1, 6, 0, 2]


@pytest.mark.rule("allegiance-checked", "chains-6")
def test_allegiance_checked_at_play_and_again_at_each_conditional_line():
    c = card("c", "spell", ["red"], allegiance={"red": 1},
             effects=[line("wound", 1, when=("red", 2)), line("allegiance", 1, faction="red"),
                      line("wound", 3, when=("red", 2))])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 1}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 37  # first line skipped, third line met
    assert s.cov[("line", "c", "effects", 0, "not_met")] == 1
    assert s.cov[("line", "c", "effects", 2, "met")] == 1


@pytest.mark.rule("allegiance-effects")
def test_allegiance_trap_raises_do_not_use_the_turn_action():
    t = card("pray", "trap", ["white"], trap=TrapSpec("none"), effects=[line("allegiance", 1, faction="white")])
    s = scenario(t, players=[{}, dict(hand=["pray"])])
    act(s, "trap", cid(s, "pray"))
    assert s.alleg[1][1] == 2 and s.raised == [False, False]


@pytest.mark.rule("buying")
def test_buying_replacement_happens_before_any_reaction():
    watch = card("watch", "trap", ["blue"], trap=TrapSpec("when", "buy"), effects=[line("draw", 1)])
    s = scenario(KINDLE, watch, players=[dict(essence=2), dict(hand=["watch"])], row=["kindle"] + [""] * 7,
                 recruit=["spark"])
    act(s, "buy", 0)
    assert s.decision_kind() == "window:when" and s.defs[s.row[0]].id == "spark"


@pytest.mark.rule("essence-free-play", "strategy-summon", "strategy-spell")
def test_essence_playing_a_card_costs_nothing_the_soul_cost_is_the_purchase_price():
    pricey = card("pricey", "spell", ["red"], cost=5, allegiance={"red": 1}, effects=[line("draw", 1)])
    brute = card("brute", "creature", ["red"], cost=6, allegiance={"red": 1})
    s = scenario(pricey, brute, players=[dict(hand=["pricey", "brute"], essence=0, deck=["filler"]), {}],
                 row=["pricey"] + [""] * 7)
    assert ("buy", 0, -1) not in s.options  # buying costs its soul cost
    act(s, "play", cid(s, "pricey"))
    act(s, "summon", cid(s, "brute"))
    assert s.essence[0] == 0 and ids(s, s.field[0]) == ["brute"] and ids(s, s.hand[0]) == ["filler"]


@pytest.mark.rule("factions-allegiance", "allegiance-raise", "spells")
def test_factions_allegiance_opens_the_cards_of_another_faction():
    hymn = card("hymn", "spell", ["white"], allegiance={"white": 1}, effects=[line("essence", 2)])
    s = scenario(hymn, players=[dict(faction="red", allegiance={"red": 1}, hand=["hymn"], essence=1), {}])
    assert ("play", cid(s, "hymn"), -1) not in s.options
    act(s, "raise", 1)  # 1 White allegiance
    assert ("play", cid(s, "hymn"), -1) in s.options
    act(s, "play", cid(s, "hymn"))
    assert s.essence[0] == 2


@pytest.mark.rule("text-box-demise", "destroy-exile", "creatures-destroyed")
def test_text_box_demise_triggers_when_destroyed_not_when_returned_or_exiled():
    dm = card("dm", "creature", ["white"], demise=[line("wound", 3)])
    kill = card("kill", "spell", ["red"], effects=[line("destroy", 1)])
    back = card("back", "spell", ["blue"], effects=[line("bounce", 1)])
    ex = card("ex", "spell", ["blue"], effects=[line("exile", 1)])
    s = scenario(dm, kill, back, ex, players=[dict(hand=["back", "ex", "kill"]), dict(field=["dm", "dm", "dm"])])
    act(s, "play", cid(s, "back"))
    act(s, "pick", s.field[1][0])
    act(s, "play", cid(s, "ex"))
    act(s, "pick", s.field[1][0])
    assert s.health[0] == 40 and ids(s, s.hand[1]) == ["dm"] and ids(s, s.exile) == ["dm"]
    act(s, "play", cid(s, "kill"))
    assert s.health[0] == 37 and ids(s, s.discard[1]) == ["dm"]


@pytest.mark.rule("text-box-soul", "strategy-soul", "six-steps-6")
def test_text_box_soul_each_dot_one_essence_the_soul_stays_in_front_until_cleanup():
    s = scenario(players=[dict(hand=["gold", "filler"], deck=["filler"] * 5), {}])
    act(s, "play", cid(s, "gold"))
    assert s.essence[0] == 3 and ids(s, s.played[0]) == ["gold"] and s.discard[0] == []
    act(s, "end")
    act(s, "stop")
    assert sorted(ids(s, s.discard[0])) == ["filler", "gold"] and s.played[0] == []


@pytest.mark.rule("allegiance", "allegiance-cap", "allegiance-effects")
def test_allegiance_from_0_to_6_split_points_beyond_6_are_lost():
    big = card("big", "spell", ["red"], effects=[line("allegiance", 3, faction="black")])
    s = scenario(big, players=[dict(hand=["big"], allegiance={"red": 1, "black": 5}), {}])
    act(s, "play", cid(s, "big"))
    assert s.alleg[0] == [1, 0, 6, 0]
