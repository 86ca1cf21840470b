"""The simulation's fast paths (issue 12 §2, speed) say exactly what the slow, plain ones say.

``InvariantChecker.holds`` (built-ins over whole zones) must accept exactly the states that
``problems`` finds nothing wrong with; ``Observation.defn``'s owner-based hiding must hide
exactly the cards in the opponent's hand, in a deck or in the recruit deck.
"""
from __future__ import annotations

import pytest

from forge.engine import Game, HeuristicAgent, RandomAgent
from forge.engine.observation import HiddenCard, Observation
from forge.engine.invariants import InvariantChecker
from forge.engine.sample import sample_database


@pytest.fixture(scope="module")
def game():
    return Game(sample_database())


def _steps(game, seed: int, every: int = 7):
    """States along one game (heuristic against random), every few decisions."""
    s = game.new_state(seed, ("red", "black"))
    agents = [HeuristicAgent(seed), RandomAgent(seed + 1)]
    views = (Observation(s, 0), Observation(s, 1))
    i = 0
    while not s.terminal:
        if i % every == 0:
            yield s
        p = s.pending
        s.apply(agents[p].act(views[p], s.options))
        i += 1
    yield s


BREAKAGES = {
    "a card lost": lambda s: s.hand[0].pop() if s.hand[0] else s.deck[0].pop(),
    "a card twice": lambda s: s.discard[1].append((s.deck[0] or s.hand[0])[0]),
    "a card twice in one player's zones": lambda s: s.discard[0].append((s.deck[0] or s.hand[0])[0]),
    "a card twice in the recruit deck": lambda s: s.recruit.append(s.recruit[0]),
    "a card moved, its owner not": lambda s: s.discard[1].append((s.deck[0] or s.hand[0]).pop()),
    "an exiled card owned": lambda s: (s.exile.append(s.recruit.pop()), s.owner.__setitem__(s.exile[-1], 0)),
    "negative essence": lambda s: s.essence.__setitem__(1, -1),
    "negative poison": lambda s: s.poison.__setitem__(0, -2),
    "allegiance over 6": lambda s: s.alleg[0].__setitem__(2, 7),
    "allegiance down": lambda s: s.alleg[1].__setitem__(s.alleg[1].index(max(s.alleg[1])), max(s.alleg[1]) - 1),
    "a dead commander playing on": lambda s: s.health.__setitem__(1, 0),
    "a Rite owned by nobody who holds it": lambda s: s.rite_owner.__setitem__(0, 1),
    "an owner changed, no card moved": lambda s: s.owner.__setitem__(s.hand[0][0] if s.hand[0] else s.deck[0][0], 1),
    # n distinct ids, one of them no card's: a card lost that counting distinct ids did not see
    "a recruit card replaced by an id no card has": lambda s: s.recruit.__setitem__(0, len(s.defs)),
    "a card in hand replaced by an id no card has": lambda s: (s.hand[0] or s.deck[0]).__setitem__(0, len(s.defs)),
    "a negative id": lambda s: s.recruit.__setitem__(0, -3),
    # Made for the part-by-part count (the checker that has seen the good state compares only the
    # parts that changed): as many cards in each part, one card twice and another gone.
    "a card in hand swapped for a recruit card that stays": lambda s: (s.hand[0] or s.deck[0]).__setitem__(0, s.recruit[-1]),
    "an exiled copy of a deck card, a recruit card gone": lambda s: (s.exile.append((s.deck[0] or s.hand[0])[0]), s.recruit.pop()),
    "the players' first cards swapped, owners kept": lambda s: _swap(s.deck[0] or s.hand[0], s.deck[1] or s.hand[1]),
}


def _swap(a: list, b: list) -> None:
    a[0], b[0] = b[0], a[0]


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_holds_rejects_every_kind_of_broken_state(game, breakage):
    for seed in (1, 4):
        for s in _steps(game, seed, every=23):
            if s.terminal:
                continue
            check = InvariantChecker(s)
            assert check.holds(s) and not list(InvariantChecker(s).problems(s))
            broken = s.clone()
            BREAKAGES[breakage](broken)
            fast, slow = InvariantChecker(s).holds(broken), list(InvariantChecker(s).problems(broken))
            assert fast is not bool(slow), (breakage, slow)
            assert not fast
            assert not check.holds(broken)  # nor a checker that has seen the good state (what it caches)


def test_holds_reads_more_than_256_cards_whole_and_rejects_every_kind_of_broken_state(game):
    """With more cards than a byte can number, holds reads every card at every step (sets, not
    bytes): every breakage is still caught, by a fresh checker and by one that has seen the state."""
    s = game.new_state(7, ("red", "black"))
    s.recruit.extend(s.new_cards(tuple(s.defs[c] for c in s.recruit) * 8, -1))
    assert len(s.defs) > 256
    check = InvariantChecker(s)
    assert check.every is None and check.holds(s) and check.holds(s)
    assert not list(InvariantChecker(s).problems(s))
    for name, breakage in sorted(BREAKAGES.items()):
        broken = s.clone()
        breakage(broken)
        assert not check.holds(broken), name
        assert not InvariantChecker(s).holds(broken), name
        assert list(InvariantChecker(s).problems(broken)), name


def test_the_fast_hiding_hides_exactly_the_hidden_cards(game):
    for seed in (2, 3):
        for s in _steps(game, seed):
            for player in (0, 1):
                view, o = Observation(s, player), 1 - player
                for cid in range(len(s.defs)):
                    hidden = cid in s.hand[o] or cid in s.deck[0] or cid in s.deck[1] or cid in s.recruit
                    if hidden:
                        with pytest.raises(HiddenCard):
                            view.defn(cid)
                    else:
                        assert view.defn(cid) is s.defs[cid]


def _slots(obj) -> dict:
    return {name: getattr(obj, name) for name in type(obj).__slots__}


def test_the_agent_keeps_its_worth_of_designs_beside_the_cards_not_on_them(game):
    """What the heuristic agent works out once per design lives in a per-database table
    (Observation.derived), shared by every game of that database: playing leaves every design
    and line exactly as compiled, and a second database gets a table of its own."""
    from forge.engine.agents import _Table, card_power, line_power
    fresh = Game(sample_database())
    designs = {d.i: _slots(d) for d in fresh.cards.defs}
    lines = {id(ln): _slots(ln) for d in fresh.cards.defs for ln in d.effects + d.activate + d.demise}
    for seed in (1, 2):
        s = fresh.new_state(seed, ("red", "black"))
        agents = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
        views = (Observation(s, 0), Observation(s, 1))
        while not s.terminal:
            s.apply(agents[s.pending].act(views[s.pending], s.options))
    assert {d.i: _slots(d) for d in fresh.cards.defs} == designs
    assert {id(ln): _slots(ln) for d in fresh.cards.defs for ln in d.effects + d.activate + d.demise} == lines
    table = Observation(s, 0).derived(_Table)
    assert Observation(fresh.new_state(9), 1).derived(_Table) is table  # once per database
    assert Observation(game.new_state(9), 1).derived(_Table) is not table
    for d in fresh.cards.defs:
        t = table.designs[d.i]
        assert t.d is d and t.power == card_power(d)
        assert t.demise == sum(line_power(ln) for ln in d.demise)
        assert t.threat == card_power(d) - 1.5 * t.demise + 0.1 * d.cost
    assert all(table.line[ln] == line_power(ln) for d in fresh.cards.defs for ln in d.effects)


def _plain_buys(s) -> list:
    """The purchase options as the rules say them: each affordable design once, at its first slot."""
    out, seen = [], set()
    for slot, cid in enumerate(s.row):
        if cid >= 0 and s.defs[cid].cost <= s.essence[s.active] and s.defs[cid].i not in seen:
            seen.add(s.defs[cid].i)
            out.append(("buy", slot, -1))
    return out


def _plain_free_traps(s, h: int) -> list:
    """The traps without a trigger ``h`` may spring now, as _trap_options finds them card by card."""
    if h == s.active or s.phase != "strategy":
        return []
    out, seen = [], set()
    for cid in s.hand[h]:
        d = s.defs[cid]
        if d.is_trap and d.trap_kind != "when" and d.i not in seen and all(s.alleg[h][f] >= n for f, n in d.reqs):
            seen.add(d.i)
            if not d.sacrifice or d.sacrifice <= (0 if s.protect[h] else len(s.field[h])):
                out.append(("trap", cid, -1))
    return out


def test_the_remembered_row_and_the_trap_sets_give_the_plain_options(game):
    """_main_options keeps the row's purchase options while the row stays as it is, and a hand
    without a trap skips the trap window at once: along games, and after the row or a hand is
    changed from outside (as forge.engine.builder and determinize do), the options are the plain ones."""
    checked = 0
    for seed in (5, 6, 7):
        for s in _steps(game, seed, every=3):
            if s.terminal or s.decision_kind() != "main":
                continue
            for t in (s, s.clone()):
                opts = [tuple(a) for a in t._main_options() if a.kind == "buy"]
                assert opts == _plain_buys(t)
                h = 1 - t.active
                assert [tuple(a) for a in t._trap_options(h, (), True) if a.kind == "trap"] == _plain_free_traps(t, h)
            changed = s.clone()
            slot = next(i for i, c in enumerate(changed.row) if c >= 0)
            changed.row[slot] = -1  # a slot emptied from outside: the remembered offers must not stay
            assert [tuple(a) for a in changed._main_options() if a.kind == "buy"] == _plain_buys(changed)
            checked += 1
    assert checked > 20
    # A trap dealt into the opponent's hand from outside is offered in their idle window.
    for s in _steps(game, 8, every=5):
        if s.terminal or s.phase != "strategy" or s.decision_kind() != "main":
            continue
        t = s.clone()
        h = 1 - t.active
        trap = next((c for c in t.recruit if t.defs[c].is_trap and t.defs[c].trap_kind != "when"
                     and not t.defs[c].sacrifice), None)
        if trap is None:
            continue
        t.recruit.remove(trap)
        t.hand[h].append(trap)
        t.owner[trap] = h
        for f, n in t.defs[trap].reqs:
            t.alleg[h][f] = max(t.alleg[h][f], n)
        got = [tuple(a) for a in t._trap_options(h, (), True) if a.kind == "trap"]
        assert got == _plain_free_traps(t, h) and ("trap", trap, -1) in got
        return
    pytest.fail("no position with a free trap to deal")
