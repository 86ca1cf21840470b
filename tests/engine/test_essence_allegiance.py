"""Rulebook: reading the text box, Soul essence, buying, Allegiance."""
from __future__ import annotations

from .conftest import TrapSpec, act, card, cid, ids, line, scenario

KINDLE = card("kindle", "spell", ["red"], allegiance={"red": 1}, effects=[line("essence", 1), line("wound", 1)])
DUO = card("duo", "spell", ["red", "white"], allegiance={"red": 2, "white": 1}, effects=[line("wound", 1)])
RAISE = card("raise", "spell", ["red"], effects=[line("allegiance", 2, faction="red"), line("essence", 1, when=("red", 4))])
SPLIT = card("split", "spell", ["red"], effects=[line("allegiance", 3)])


def test_text_box_card_needs_every_required_allegiance():
    s = scenario(DUO, players=[dict(hand=["duo"], allegiance={"red": 2}), {}])
    assert ("play", cid(s, "duo"), -1) not in s.options
    s = scenario(DUO, players=[dict(hand=["duo"], allegiance={"red": 2, "white": 1}), {}])
    assert ("play", cid(s, "duo"), -1) in s.options


def test_text_box_conditional_line_only_applies_at_threshold():
    c = card("c", "spell", ["red"], effects=[line("wound", 1), line("wound", 5, when=("red", 3))])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 2}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 39
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 3}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 34


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


def test_text_box_activation_runs_every_line_up_to_demise():
    c = card("c", "creature", ["red"], activate=[line("wound", 1), line("essence", 2, when=("red", 1))],
             demise=[line("wound", 10)])
    s = scenario(c, players=[dict(field=["c"]), {}])
    act(s, "activate", cid(s, "c", "field"))
    assert s.health[1] == 39 and s.essence[0] == 2


def test_soul_essence_gain_is_mandatory_and_lost_at_end_of_turn():
    s = scenario(players=[dict(hand=["gold", "filler"]), {}])
    act(s, "play", cid(s, "gold"))
    assert s.essence[0] == 3
    act(s, "end")
    act(s, "stop")
    assert s.essence == [0, 0]


def test_soul_essence_never_below_zero_buying_needs_enough():
    s = scenario(KINDLE, players=[dict(essence=1), {}], row=["kindle"] + [""] * 7)
    s.defs[cid(s, "kindle", "row")].cost  # cost 1 by default
    act(s, "buy", 0)
    assert s.essence[0] == 0
    assert not any(o.kind == "buy" for o in s.options)


def test_buying_replaces_the_slot_at_once_from_the_recruit_deck():
    s = scenario(KINDLE, players=[dict(essence=5), {}], row=["kindle"] * 8, recruit=["spark", "filler"])
    # Identical cards in the row are one option (the first slot holding that design).
    assert [o for o in s.options if o.kind == "buy"] == [("buy", 0, -1)]
    act(s, "buy", 0)
    assert s.defs[s.row[0]].id == "filler"  # the top card of the recruit deck (end of the list)
    assert ids(s, s.discard[0]) == ["kindle"] and s.owner[s.discard[0][0]] == 0


def test_buying_with_an_empty_recruit_deck_leaves_the_slot_empty():
    s = scenario(KINDLE, players=[dict(essence=5), {}], row=["kindle", "spark"] + [""] * 6)
    act(s, "buy", 0)
    assert s.row[0] == -1 and s.defs[s.row[1]].id == "spark"  # other cards don't move


def test_buying_needs_no_allegiance_and_many_cards_one_at_a_time():
    big = card("big", "spell", ["blue"], cost=2, allegiance={"blue": 5}, effects=[line("draw", 1)])
    s = scenario(big, players=[dict(essence=4), {}], row=["big", "big"] + [""] * 6)
    act(s, "buy", 0)
    act(s, "buy", 1)
    assert ids(s, s.discard[0]) == ["big", "big"] and s.essence[0] == 0


def test_allegiance_raise_once_per_turn_for_one_essence():
    s = scenario(players=[dict(essence=3), {}])
    act(s, "raise", 2)
    assert s.alleg[0][2] == 1 and s.essence[0] == 2
    assert not any(o.kind == "raise" for o in s.options)


def test_allegiance_effects_add_on_top_of_the_once_per_turn_action():
    s = scenario(RAISE, players=[dict(essence=1, hand=["raise"]), {}])
    act(s, "raise", 0)
    act(s, "play", cid(s, "raise"))
    assert s.alleg[0][0] == 4
    # Chains 6: the allegiance gained by line 1 counts for line 2.
    assert s.essence[0] == 1


def test_allegiance_capped_at_6_excess_lost_never_decreases():
    s = scenario(RAISE, players=[dict(hand=["raise"], allegiance={"red": 5}), {}])
    act(s, "play", cid(s, "raise"))
    assert s.alleg[0][0] == 6
    assert not any(o == ("raise", 0, -1) for o in s.options)


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


def test_allegiance_checked_at_play_and_again_at_each_conditional_line():
    c = card("c", "spell", ["red"], allegiance={"red": 1},
             effects=[line("wound", 1, when=("red", 2)), line("allegiance", 1, faction="red"),
                      line("wound", 3, when=("red", 2))])
    s = scenario(c, players=[dict(hand=["c"], allegiance={"red": 1}), {}])
    act(s, "play", cid(s, "c"))
    assert s.health[1] == 37  # first line skipped, third line met
    assert s.cov[("line", "c", "effects", 0, "not_met")] == 1
    assert s.cov[("line", "c", "effects", 2, "met")] == 1


def test_allegiance_trap_raises_do_not_use_the_turn_action():
    t = card("pray", "trap", ["white"], trap=TrapSpec("none"), effects=[line("allegiance", 1, faction="white")])
    s = scenario(t, players=[{}, dict(hand=["pray"])])
    act(s, "trap", cid(s, "pray"))
    assert s.alleg[1][1] == 2 and s.raised == [False, False]


def test_buying_replacement_happens_before_any_reaction():
    watch = card("watch", "trap", ["blue"], trap=TrapSpec("when", "buy"), effects=[line("draw", 1)])
    s = scenario(KINDLE, watch, players=[dict(essence=2), dict(hand=["watch"])], row=["kindle"] + [""] * 7,
                 recruit=["spark"])
    act(s, "buy", 0)
    assert s.decision_kind() == "window:when" and s.defs[s.row[0]].id == "spark"
