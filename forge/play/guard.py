"""The play server's rates (the gate itself, Host, Origin, CSRF and the headers, is ``forge.core.httpguard``,
shared with ``forge watch``)."""
from __future__ import annotations

import time


class Bucket:
    """A token bucket per name (a game key, say): ``rate`` a second, ``burst`` at once; bounded in memory."""

    def __init__(self, rate: float, burst: float, names: int = 10_000) -> None:
        self.rate, self.burst, self.names = rate, burst, names
        self.left: dict[str, tuple[float, float]] = {}

    def allow(self, name: str) -> bool:
        now = time.monotonic()
        tokens, then = self.left.get(name, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.left) >= self.names and name not in self.left:
            self.left.clear()  # a flood of names: forget them all rather than grow
        if tokens < 1:
            self.left[name] = (tokens, now)
            return False
        self.left[name] = (tokens - 1, now)
        return True
