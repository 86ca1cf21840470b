"""What a batch of simulated games says about factions, seats and cards, each figure with its interval.

Per card, in the spirit of the "games in hand" win rate of competitive card games:
the win rate of the players who bought (played, activated, had in hand) it at least
once, against the players who did not, over every decided game. A card whose difference
is significant after Holm's correction over all cards and uses is flagged, as is
a card nobody ever used. These are associations, not causes: a card bought by the
player who is already winning looks good; the README says so.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from .stats import difference, holm, one_proportion_p, wilson

#: The uses counted per player and card ("in_hand": drawn, or returned to the hand).
USES = ("bought", "played", "activated", "in_hand")
#: How a game ends: a commander at 0 by a Wound (any damage in a turn's strategy or cleanup) or by
#: poison (at the start of their turn), or a cap (turns, decisions) that stopped a game going nowhere.
ENDINGS = ("wound", "poison", "turns", "decisions")


@dataclass
class CardTally:
    """Counts over player-games: how many used each card, and how many of those won."""

    player_games: int = 0
    player_wins: int = 0
    used: dict[str, Counter] = field(default_factory=lambda: {u: Counter() for u in USES})
    won: dict[str, Counter] = field(default_factory=lambda: {u: Counter() for u in USES})

    def add_game(self, coverage: dict, winner: int, players: tuple[int, ...] = (0, 1)) -> None:
        """One decided game: ``coverage`` holds ("by", player, use, card) keys (forge.engine.state).

        ``players``: the seats counted (a people's game counts its human and its AI seats apart)."""
        seen: set[tuple[int, str, str]] = set()
        for key in coverage:
            if len(key) == 4 and key[0] == "by" and key[2] in USES and key[1] in players:
                seen.add((key[1], key[2], key[3]))
        for player in players:
            won = int(player == winner)
            self.player_games += 1
            self.player_wins += won
        for player, use, card in seen:
            self.used[use][card] += 1
            self.won[use][card] += int(player == winner)

    def merge(self, other: "CardTally") -> None:
        """Add the counts of other games (integers only: merging in any grouping gives the same tally)."""
        self.player_games += other.player_games
        self.player_wins += other.player_wins
        for use in USES:
            self.used[use].update(other.used[use])
            self.won[use].update(other.won[use])


def card_effects(tally: CardTally, card_ids: list[str], buyable: set[str] | None = None) -> list[dict]:
    """Per card and use: how often players use it, the two win rates, their difference, significance (Holm).

    ``buyable``: the cards a player must buy to use (the recruitment set): only they can be "never used"
    (a Rite is taken, a starter card is dealt)."""
    buyable = set(card_ids) if buyable is None else buyable
    diffs = {}
    for card in card_ids:
        for use in USES:
            n, k = tally.used[use][card], tally.won[use][card]
            diffs[(card, use)] = difference(wilson(k, n), wilson(tally.player_wins - k, tally.player_games - n))
    flags = holm([d.p_value if d.a.n >= 10 and d.b.n >= 10 else None for d in diffs.values()])
    diffs = {key: replace(d, significant=flag) for (key, d), flag in zip(diffs.items(), flags)}
    return [{"card": card,
             "never_used": card in buyable and all(tally.used[u][card] == 0 for u in ("bought", "played")),
             "rate": {use: wilson(tally.used[use][card], tally.player_games).to_json() for use in USES},
             **{use: diffs[(card, use)].to_json() for use in USES},
             "significant": [use for use in USES if diffs[(card, use)].significant]} for card in card_ids]


def seat_advantage(first_wins: int, decided: int) -> dict:
    rate = wilson(first_wins, decided)
    p = one_proportion_p(first_wins, decided)
    return {"first": rate.to_json(), "p_value": None if p is None else round(p, 4),
            "significant": p is not None and p < 0.05}


def ending(winner: int | None, capped: str | None, lost_in: str | None) -> str:
    """One of ENDINGS for a finished game (``lost_in``: the phase the loser was in, forge.engine.state)."""
    if capped is not None:
        return capped
    return "poison" if lost_in == "initiation" else "wound"


def endings(counts: Counter, games: int, no_cards: int, market_empty: int) -> dict:
    """How the games ended, each kind's share with its interval; how many ran out of cards."""
    return {"n": games, "kinds": {k: wilson(counts[k], games).to_json() for k in ENDINGS},
            "no_cards": wilson(no_cards, games).to_json(), "market_empty": wilson(market_empty, games).to_json()}


def faction_matrix(wins: Counter, games: Counter, factions: list[str]) -> dict:
    """The first seat's win rate for each (first faction, second faction), and each faction by seat.

    ``wins`` and ``games`` count by "first-second" pairing key; a faction's rate in the second seat
    is its wins there (the first seat's losses) over its games there."""
    cells = {a: {b: wilson(wins[f"{a}-{b}"], games[f"{a}-{b}"]).to_json() if a != b else None for b in factions}
             for a in factions}
    by_seat = {}
    for f in factions:
        first_n = sum(games[f"{f}-{o}"] for o in factions if o != f)
        first_k = sum(wins[f"{f}-{o}"] for o in factions if o != f)
        second_n = sum(games[f"{o}-{f}"] for o in factions if o != f)
        second_k = second_n - sum(wins[f"{o}-{f}"] for o in factions if o != f)
        by_seat[f] = {"first": wilson(first_k, first_n).to_json(), "second": wilson(second_k, second_n).to_json()}
    return {"first_seat_wins": cells, "by_seat": by_seat}


def length_summary(turns: Counter) -> dict:
    """The game-length distribution (game turns, both players') with quartiles, and per player."""
    n = sum(turns.values())
    q = {name: _quantile(turns, n, p) for name, p in (("p10", .1), ("q1", .25), ("median", .5), ("q3", .75),
                                                           ("p90", .9))}
    return {"n": n, "histogram": {str(t): turns[t] for t in sorted(turns)}, **q,
            "median_per_player": None if q["median"] is None else q["median"] / 2,
            "mean": round(sum(t * c for t, c in turns.items()) / n, 2) if n else None}


def _quantile(hist: Counter, n: int, p: float) -> int | None:
    """The smallest value with at least ``p`` of the ``n`` observations at or below it (no interpolation)."""
    if not n:
        return None
    need, seen = max(1, math.ceil(p * n)), 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= need:
            return value
    return None  # pragma: no cover - the counts add up to n


class HealthTrack:
    """The commanders' health at the start of each game turn (an ``on_step`` callback, read-only).

    Called after every decision; records a turn the first time it sees it, so it costs a
    comparison per step. ``finish`` adds the final health as the turn after the last."""

    __slots__ = ("turns", "last")

    def __init__(self, state) -> None:
        self.turns: list[tuple[int, int, int]] = []
        self.last = -1  # the last turn recorded
        self(state)

    def __call__(self, state) -> None:
        if state.turn != self.last:
            self.last = state.turn
            self.turns.append((state.turn, state.health[0], state.health[1]))

    def finish(self, state) -> list[tuple[int, int, int]]:
        return self.turns + [(state.turn + 1, state.health[0], state.health[1])]


def add_health(hist: Counter, track: list[tuple[int, int, int]], winner: int) -> None:
    """Count each snapshot's health as the eventual winner's and loser's (a bounded histogram)."""
    for turn, h0, h1 in track:
        hw, hl = (h0, h1) if winner == 0 else (h1, h0)
        hist[(turn, "winner", max(hw, 0))] += 1
        hist[(turn, "loser", max(hl, 0))] += 1


def health_curves(hist: Counter, min_games: int = 1) -> dict:
    """Per turn and role (winner, loser): how many games reached it and the health quartiles there."""
    by: dict[tuple[int, str], Counter] = {}
    for (turn, role, health), count in hist.items():
        by.setdefault((turn, role), Counter())[health] += count
    out: dict[str, list[dict]] = {"winner": [], "loser": []}
    for (turn, role) in sorted(by):
        h = by[(turn, role)]
        n = sum(h.values())
        if n >= min_games:
            out[role].append({"turn": turn, "n": n, **{k: _quantile(h, n, p) for k, p in
                                                           (("p10", .1), ("q1", .25), ("median", .5),
                                                            ("q3", .75), ("p90", .9))}})
    return out


def cost_curve(rows: list[dict], cards) -> list[dict]:
    """Each recruitment card's cost, faction and purchase rate (players who bought it, per player-game)."""
    by_id = {r["card"]: r for r in rows}
    return [{"card": c.id, "cost": c.cost, "faction": c.faction, "bought": by_id[c.id]["rate"]["bought"]}
            for c in cards if c.id in by_id and c.cost is not None]
