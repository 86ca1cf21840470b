"""The work on the stack (forge.engine.tasks): named, slotted, and never changed once built, which is
what lets ``State.clone()`` share the tasks of the game it copies."""
from __future__ import annotations

import pytest

from forge.engine import HeuristicAgent, RandomAgent, run
from forge.engine import tasks
from forge.engine.tasks import Lines, Pick, Task

KINDS = [c for c in vars(tasks).values() if isinstance(c, type) and issubclass(c, Task) and c is not Task]


def test_every_task_kind_is_slotted_and_named():
    assert len(KINDS) == 13
    for cls in KINDS:
        assert cls.name and "__dict__" not in dir(cls), cls  # a misspelt field is an error, not a new one
    with pytest.raises(AttributeError):
        Lines(0, (), 0, None, False, None, -1).line = 1


def _fields(task: Task) -> tuple:
    return tuple(getattr(task, f) for f in type(task).__slots__)


@pytest.mark.parametrize("seed,expert", [(3, False), (4, True), (5, False)])
def test_no_task_is_changed_once_on_the_stack(sample_game, seed, expert):
    """Every task seen on the stack or in a pool keeps its fields to the end of the game."""
    s = sample_game.new_state(seed, ("red", "black"), expert=expert)
    seen: dict[int, tuple] = {}
    kept = []  # the tasks themselves, so that no id is reused by another object

    def check(state):
        for t in list(state.stack) + [w for pool in state.pools for w in pool]:
            if id(t) in seen:
                assert _fields(t) == seen[id(t)], t
            else:
                seen[id(t)] = _fields(t)
                kept.append(t)

    check(s)
    run(s, [HeuristicAgent(seed), RandomAgent(seed + 1)], on_step=check)
    assert s.terminal
    assert any(type(t) is Pick for t in kept) and any(type(t) is Lines for t in kept)


def test_decision_kinds_name_the_task_on_top(sample_game):
    s = sample_game.new_state(6, ("white", "blue"))
    kinds = set()

    def check(state):
        if state.terminal:
            return
        name, kind = state.stack[-1].name, state.decision_kind()
        assert kind == name or kind.startswith(name + ":"), (name, kind)
        kinds.add(kind)

    check(s)
    run(s, [HeuristicAgent(1), RandomAgent(2)], on_step=check)
    assert {"main", "window:step3", "pick:keep"} <= kinds
