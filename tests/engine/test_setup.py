"""Rulebook, Setup 1-7 and the expert variant."""
from __future__ import annotations

from collections import Counter

import pytest

from forge.engine import RandomAgent, run
from forge.engine.cards import FACTION_INDEX

from .conftest import act, ids


@pytest.mark.rule("setup-1")
def test_setup_1_players_pick_different_factions(sample_game):
    with pytest.raises(ValueError, match="different faction"):
        sample_game.new_state(1, ("red", "red"))


@pytest.mark.rule("setup-2", "box")
def test_setup_2_starter_deck_of_10_cards(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    for p, creatures in ((0, {"cinder-imp", "ember-acolyte"}), (1, {"rift-wisp", "veil-scribe"})):
        mine = Counter(ids(s, s.deck[p] + s.hand[p]))
        assert sum(mine.values()) == 10
        assert mine["lost-soul"] == 5 and mine["essence-collector"] == 1 and mine["volatile-essence"] == 2
        assert {k for k in mine if k not in ("lost-soul", "essence-collector", "volatile-essence")} == creatures


@pytest.mark.rule("setup-3", "goal")
def test_setup_3_counters_40_health_1_allegiance_0_poison(sample_game):
    s = sample_game.new_state(1, ("white", "black"))
    assert s.health == [40, 40] and s.poison == [0, 0]
    assert s.alleg[0] == [0, 1, 0, 0] and s.alleg[1] == [0, 0, 1, 0]


@pytest.mark.rule("setup-4")
def test_setup_4_recruitment_80_cards_shuffled_8_revealed(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    assert all(c >= 0 for c in s.row) and len(s.row) == 8
    assert len(s.recruit) + 8 == 80
    other = sample_game.new_state(2, ("red", "blue"))
    assert ids(s, s.row) != ids(other, other.row)  # shuffled by the seed


@pytest.mark.rule("setup-5")
def test_setup_5_four_rites_face_up(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    assert sorted(d.id for d in s.cards.rites.values()) == [
        "rite-of-dawn", "rite-of-the-blaze", "rite-of-the-grave", "rite-of-the-tide"]
    assert s.rite_owner == [-1, -1, -1, -1] and s.rite_of == [None, None]


@pytest.mark.rule("setup-6")
def test_setup_6_first_player_at_random_from_the_seed(sample_game):
    firsts = {sample_game.new_state(seed, ("red", "blue"), first=None).first for seed in range(20)}
    assert firsts == {0, 1}
    assert sample_game.new_state(5, ("red", "blue"), first=None).first == \
        sample_game.new_state(5, ("red", "blue"), first=None).first


@pytest.mark.rule("setup-7")
def test_setup_7_first_draws_3_second_draws_5_no_mulligan(sample_game):
    s = sample_game.new_state(3, ("red", "blue"), first=1)
    assert len(s.hand[1]) == 3 and len(s.hand[0]) == 5
    assert s.active == 1 and s.current_player() == 1 and s.decision_kind() == "main"


@pytest.mark.rule("setup-7")
def test_setup_7_second_player_bonus_essence_at_first_strategy_phase_only(sample_game):
    s = sample_game.new_state(3, ("red", "blue"))
    assert s.essence == [0, 0]
    act(s, "end")
    while s.decision_kind() != "main":
        act(s, "stop") if ("stop", -1, -1) in s.options else s.apply(s.options[0])
    assert s.active == 1 and s.essence[1] == 2
    # First player refilled to 5 at the end of their first turn.
    assert len(s.hand[0]) == 5
    act(s, "end")
    while s.decision_kind() != "main":
        act(s, "stop") if ("stop", -1, -1) in s.options else s.apply(s.options[0])
    assert s.essence == [0, 0]
    act(s, "end")
    while s.decision_kind() != "main":
        act(s, "stop") if ("stop", -1, -1) in s.options else s.apply(s.options[0])
    assert s.active == 1 and s.essence[1] == 0  # the bonus comes once


@pytest.mark.rule("expert-1", "expert-2", "expert-3")
def test_expert_variant_set_aside_one_at_a_time_replaced_then_shuffled_back(sample_game):
    s = sample_game.new_state(4, ("red", "blue"), expert=True)
    assert s.decision_kind() == "pick:set_aside" and s.current_player() == 0
    row = list(s.row)
    top = s.recruit[-1]
    first_pick = s.options[0]
    s.apply(first_pick)
    assert first_pick.a in s.set_aside
    assert s.row[row.index(first_pick.a)] == top  # replaced at once, before the next choice
    act(s, "stop")
    assert s.decision_kind() == "pick:set_aside" and s.current_player() == 1
    s.apply(s.options[0])
    s.apply(s.options[0])
    assert len(s.set_aside) == 0  # two cards: done, shuffled back into the recruit deck
    assert len(s.recruit) + 8 == 80
    assert s.decision_kind() == "main" and len(s.hand[0]) == 3 and s.essence == [0, 0]


@pytest.mark.rule("expert-scope")
def test_expert_variant_changes_neither_hands_nor_bonus(sample_game):
    plain = sample_game.new_state(9, ("white", "black"))
    expert = sample_game.new_state(9, ("white", "black"), expert=True)
    assert ids(plain, plain.hand[0]) == ids(expert, expert.hand[0])
    assert ids(plain, plain.hand[1]) == ids(expert, expert.hand[1])


def test_game_is_reproducible_from_seed_and_agents(sample_game):
    from forge.engine.record import digest
    a = run(sample_game.new_state(11, ("red", "black")), [RandomAgent(1), RandomAgent(2)])
    b = run(sample_game.new_state(11, ("red", "black")), [RandomAgent(1), RandomAgent(2)])
    assert digest(a) == digest(b) and a.history == b.history


@pytest.mark.rule("factions")
def test_faction_index_follows_vocabulary():
    assert FACTION_INDEX == {"red": 0, "white": 1, "black": 2, "blue": 3}


@pytest.mark.rule("intro", "strategy-buy")
def test_intro_two_players_buy_from_one_shared_recruitment_zone():
    from .conftest import scenario
    s = scenario(players=[dict(essence=1, hand=["filler"]), dict(essence=1, hand=["filler"])],
                 row=["spark", "gold"] + [""] * 6, recruit=["dummy"])
    act(s, "buy", 1)
    assert ids(s, s.discard[0]) == ["gold"] and ids(s, [s.row[1]]) == ["dummy"]
    act(s, "end")
    act(s, "stop")
    # The other player recruits from the same zone, as player 0 left it.
    assert s.active == 1 and ids(s, [c for c in s.row if c >= 0]) == ["spark", "dummy"]
    act(s, "buy", 1)
    assert ids(s, s.discard[1]) == ["dummy"] and s.owner[s.discard[1][0]] == 1


@pytest.mark.rule("box", "setup-2")
def test_box_a_duel_uses_only_the_two_chosen_starter_decks(sample_game):
    s = sample_game.new_state(4, ("white", "black"))
    starters = {d.id for d in s.cards.starter("white")} | {d.id for d in s.cards.starter("black")}
    in_game = [c for p in (0, 1) for c in s.deck[p] + s.hand[p]]
    assert len(in_game) == 20 and {s.defs[c].id for c in in_game} == starters
    # The red and blue starter creatures stay in the box.
    assert not {"cinder-imp", "ember-acolyte", "rift-wisp", "veil-scribe"} & {s.defs[c].id for c in range(len(s.defs))}


@pytest.mark.rule("expert-1", "setup-7", "expert-scope")
def test_expert_1_the_first_player_sets_aside_first_whoever_it_is(sample_game):
    s = sample_game.new_state(6, ("red", "blue"), first=1, expert=True)
    assert s.decision_kind() == "pick:set_aside" and s.current_player() == 1
    act(s, "stop")
    assert s.decision_kind() == "pick:set_aside" and s.current_player() == 0
    act(s, "stop")
    # Player 0 is second: 5 cards, and the 2 extra essence at their first strategy phase only.
    assert s.active == 1 and len(s.hand[1]) == 3 and len(s.hand[0]) == 5 and s.bonus == [True, False]
