"""What a batch of simulated games says about factions, seats and cards, each figure with its interval.

Per card, in the spirit of the "games in hand" win rate of competitive card games:
the win rate of the players who bought (played, activated) it at least once,
against the players who did not, over every decided game. A card whose difference
is significant after Holm's correction over all cards and uses is flagged, as is
a card nobody ever used. These are associations, not causes: a card bought by the
player who is already winning looks good; the README says so.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .stats import difference, holm, one_proportion_p, wilson

USES = ("bought", "played", "activated")


@dataclass
class CardTally:
    """Counts over player-games: how many used each card, and how many of those won."""

    player_games: int = 0
    player_wins: int = 0
    used: dict[str, Counter] = field(default_factory=lambda: {u: Counter() for u in USES})
    won: dict[str, Counter] = field(default_factory=lambda: {u: Counter() for u in USES})

    def add_game(self, coverage: dict, winner: int) -> None:
        """One decided game: ``coverage`` holds ("by", player, use, card) keys (forge.engine.state)."""
        seen: set[tuple[int, str, str]] = set()
        for key in coverage:
            if len(key) == 4 and key[0] == "by" and key[2] in USES:
                seen.add((key[1], key[2], key[3]))
        for player in (0, 1):
            won = int(player == winner)
            self.player_games += 1
            self.player_wins += won
        for player, use, card in seen:
            self.used[use][card] += 1
            self.won[use][card] += int(player == winner)


def card_effects(tally: CardTally, card_ids: list[str], buyable: set[str] | None = None) -> list[dict]:
    """Per card and use: the two win rates, their difference, and whether it is significant (Holm).

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
             **{use: diffs[(card, use)].to_json() for use in USES},
             "significant": [use for use in USES if diffs[(card, use)].significant]} for card in card_ids]


def seat_advantage(first_wins: int, decided: int) -> dict:
    rate = wilson(first_wins, decided)
    p = one_proportion_p(first_wins, decided)
    return {"first": rate.to_json(), "p_value": None if p is None else round(p, 4),
            "significant": p is not None and p < 0.05}
