"""Test cards built directly as forge.carddb.model.Card objects, and small drivers for scenarios."""
from __future__ import annotations

import pytest

from forge.engine import Action, Game
from forge.engine.builder import build, cid
from forge.engine.sample import card, line, sample_database
from forge.carddb.model import CardDatabase, Keywords, TrapSpec, Trigger

__all__ = ["Action", "Keywords", "TrapSpec", "Trigger", "card", "line", "make_db", "scenario", "cid",
           "act", "pass_all", "ids"]

#: Plain cards every test database has.
BASE = [
    card("filler", "soul", effects=[line("essence", 1)]),
    card("gold", "soul", effects=[line("essence", 3)]),
    card("dummy", "creature", ["red"]),
    card("dummy-white", "creature", ["white"]),
    card("spark", "spell", ["red"], effects=[line("wound", 1)]),
    card("dud-trap", "trap", ["white"], trap=TrapSpec("none"), effects=[line("essence", 1)]),
    card("rite-red", "rite", ["red"], set="rite", triggers=[Trigger("cast", "you", (line("wound", 1),))]),
    card("rite-white", "rite", ["white"], set="rite", end_of_turn=[line("draw", 1)]),
    card("rite-black", "rite", ["black"], set="rite"),
    card("rite-blue", "rite", ["blue"], set="rite"),
]


def make_db(*cards) -> CardDatabase:
    """A database of the base cards plus ``cards`` (later ids replace earlier ones)."""
    by_id = {c.id: c for c in BASE}
    for c in cards:
        by_id[c.id] = c
    return CardDatabase(cards=list(by_id.values()))


def scenario(*cards, **kw):
    """A hand-built state over ``make_db(*cards)`` (see forge.engine.builder.build)."""
    return build(Game(make_db(*cards)), **kw)


def act(state, kind: str, a: int = -1, b: int = -1) -> None:
    state.apply(Action(kind, a, b))


def pass_all(state, until_player: int | None = None) -> None:
    """Answer every pending trap window / guard with pass (until ``until_player`` must act)."""
    while not state.terminal and state.decision_kind() in ("window:idle", "window:step3", "window:when", "guard") \
            and state.current_player() != until_player:
        act(state, "pass")


def ids(state, cids) -> list[str]:
    return [state.defs[c].id for c in cids]


@pytest.fixture(scope="session")
def sample_game() -> Game:
    return Game(sample_database())

