"""A full state one player could be in, given only what they see: the hidden parts resampled.

A search agent plays imagined games from an ``Observation``; it needs a whole state to
play them, but may not use what its player cannot see. ``determinize`` clones the real
state and redraws every hidden thing from the agent's own RNG:

- the opponent's hand and deck: their union is known to a player who has followed the
  game (the opponent's starter deck, their purchases and every public move), the split
  and the order are not, so the union is dealt again at random (same sizes);
- the order of both decks and of the recruit deck (only their contents are known);
- the state's own RNG (the future reshuffles).

Only the sorted *sets* of hidden cards are read, so two states that differ only in
hidden things give the same determinization from the same RNG (tests/balance/test_search.py).
What is hidden here must match ``Observation._check``.
"""
from __future__ import annotations

import random

from .observation import Observation
from .state import State


def determinize(obs: Observation, rng: random.Random) -> State:
    """A copy of the observed state with every hidden thing redrawn from ``rng``."""
    real: State = obs._s  # read only through the sorted hidden sets below
    s = real.clone()
    me, opp = obs.player, obs.opponent
    pool = real.hand[opp] + real.deck[opp]
    pool.sort()
    rng.shuffle(pool)
    n = len(real.hand[opp])
    s.hand[opp] = pool[:n]
    s.deck[opp] = pool[n:]
    for c in pool:  # a card's stamp says when it was drawn: hidden too
        s.stamp[c] = 0
    mine = sorted(real.deck[me])
    rng.shuffle(mine)
    s.deck[me] = mine
    recruit = sorted(real.recruit)
    rng.shuffle(recruit)
    s.recruit = recruit
    s.rng = random.Random(rng.getrandbits(64))
    s.history = []  # the opponent's past hidden choices (which cards they kept) are not ours to read
    return s
