"""A board view of a game state: what a spectator sees, as plain data for a web page.

Read through the engine's ``Observation`` (public information: counters, the
battlefield, the recruitment zone, Rites, the size of every hand, deck and
discard pile), never the rules re-implemented. Cards are named by their design
id. ``delta`` keeps of a view only what changed since the previous one, which is
how a replay page holds thousands of steps in little room.
"""
from __future__ import annotations

from ..engine.observation import Observation

#: The keys of a board view (short: a page holds one set of changes per step).
#: t turn, a active player, d player to decide (-1: none), w winner, p0/p1 the players,
#: row the recruitment zone's slots, rd the recruitment deck's size, x the exile pile's size.
KEYS = ("t", "a", "d", "w", "p0", "p1", "row", "rd", "x")


def _player(obs: Observation, p: int) -> dict:
    """One player's side: h health, po poison, e essence, al allegiance per faction, r Rite,
    f battlefield ([card, exhausted]), pl cards played this turn, hd/dk/dc hand, deck, discard sizes."""
    return {"h": obs.health(p), "po": obs.poison(p), "e": obs.essence(p), "al": list(obs.allegiance(p)),
            "r": obs.rite(p), "f": [[obs.card(c).id, int(obs.is_exhausted(c))] for c in obs.battlefield(p)],
            "pl": [obs.card(c).id for c in obs.played(p)], "hd": obs.hand_size(p), "dk": obs.deck_size(p),
            "dc": len(obs.discard_pile(p))}


def view(state) -> dict:
    """The board of ``state`` as a spectator sees it."""
    obs = Observation(state, 0)
    return {"t": obs.turn, "a": obs.active, "d": state.current_player(), "w": state.winner,
            "p0": _player(obs, 0), "p1": _player(obs, 1),
            "row": [obs.card(c).id if c >= 0 else None for c in obs.recruitment_row()],
            "rd": obs.recruit_deck_size(), "x": len(obs.exile_pile())}


def delta(before: dict | None, after: dict) -> dict:
    """What changed from ``before`` to ``after`` (all of ``after`` when there is no before)."""
    if before is None:
        return dict(after)
    return {k: v for k, v in after.items() if before.get(k) != v}


def cards_of(board: dict) -> set[str]:
    """Every card design a board view shows."""
    ids = {c for c in board.get("row", []) if c}
    for p in ("p0", "p1"):
        side = board.get(p)
        if side:
            ids.update(c for c, _ in side["f"])
            ids.update(side["pl"])
            if side["r"]:
                ids.add(side["r"])
    return ids
