"""Hand-built positions: a state with chosen zones and counters, for tests and card proofs.

    s = build(db, active=0,
              players=[dict(faction="red", hand=["kindle"], field=["cinder-imp"], allegiance={"red": 2}),
                       dict(faction="white", hand=["divine-shield"])])

Zones are lists of card ids (one instance each). ``field`` entries may be
``(id, exhausted)``. The state starts at the active player's strategy phase
(``start="main"``), at the start of their turn (``start="turn"``, so initiation
runs), or with nothing run yet (``start=None``, for callers that push tasks).
"""
from __future__ import annotations

from typing import Iterable

from ..carddb.model import CardDatabase
from ..carddb.vocabulary import FACTIONS
from .cards import FACTION_INDEX
from .game import Game
from .rules import ROW_SIZE, STRATEGY
from .state import State
from .tasks import MAIN, TURN


def build(db_or_game: CardDatabase | Game, *, players: Iterable[dict] = ({}, {}), active: int = 0,
          turn: int = 3, row: Iterable[str] = (), recruit: Iterable[str] = (), exile: Iterable[str] = (),
          start: str | None = "main", seed: int = 0, log: bool = True, coverage: bool = True) -> State:
    """A state in the given position (see the module docstring)."""
    game = db_or_game if isinstance(db_or_game, Game) else Game(db_or_game)
    by_id = game.cards.by_id
    s = State(game, seed)
    s.log = [] if log else None
    s.cov = {} if coverage else None
    players = list(players)
    default_factions = ["red", "white"]
    for p, spec in enumerate(players):
        faction = spec.get("faction", default_factions[p])
        s.factions[p] = faction
        al = spec.get("allegiance", {faction: 1})
        for f, v in al.items():
            s.alleg[p][FACTION_INDEX[f]] = v
        for zone in ("deck", "hand", "discard", "played"):
            for cid in spec.get(zone, ()):
                getattr(s, zone)[p].append(s.new_card(by_id[cid], p))
        for entry in spec.get("field", ()):
            cid, exhausted = (entry, False) if isinstance(entry, str) else entry
            c = s.new_card(by_id[cid], p)
            s._enter(p, c)
            s.exhausted[c] = exhausted
        s.health[p] = spec.get("health", s.health[p])
        s.poison[p] = spec.get("poison", 0)
        s.essence[p] = spec.get("essence", 0)
        s.raised[p] = spec.get("raised", False)
        rite = spec.get("rite")
        if rite:
            d = by_id[rite]
            s.rite_of[p] = d
            s.rite_owner[d.faction] = p
    for slot, cid in enumerate(row):
        s.row[slot] = s.new_card(by_id[cid], -1) if cid else -1
    for cid in recruit:
        s.recruit.append(s.new_card(by_id[cid], -1))
    for cid in exile:
        s.exile.append(s.new_card(by_id[cid], -1))
    assert len(s.row) == ROW_SIZE
    game.ensure_actions(len(s.defs))
    s.active = s.first = active
    s.turn = turn
    if start == "main":
        s.phase = STRATEGY
        s.stack = [MAIN]
        s._advance()
    elif start == "turn":
        s.turn = turn - 1
        s.stack = [TURN]
        s._advance()
    return s


def cid(state: State, card_id: str, zone: str = "hand", player: int | None = None, nth: int = 0) -> int:
    """The instance of ``card_id`` in a zone (``hand``, ``field``, ``discard``, ``deck``, ``row``, ``exile``...)."""
    found = []
    players = (0, 1) if player is None else (player,)
    if zone in ("row", "exile", "recruit", "resolving", "set_aside"):
        pool = [c for c in getattr(state, zone) if c >= 0]
        found = [c for c in pool if state.defs[c].id == card_id]
    else:
        for p in players:
            found += [c for c in getattr(state, zone)[p] if state.defs[c].id == card_id]
    if len(found) <= nth:
        raise LookupError(f"no {card_id!r} (#{nth}) in {zone} of player {player}")
    return found[nth]


__all__ = ["FACTIONS", "build", "cid"]
