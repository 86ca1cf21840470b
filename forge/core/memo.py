"""A bounded, thread-safe memo of things slow to make and read again and again in one process.

A run reads the same YAML from several places, and the books, their web edition, the gallery and
`forge watch`'s pages draw the same card faces again and again. What is kept is keyed by what it is made from
(a file's text, a face's cache key), never by where it came from, so a changed input is a new entry; the
oldest used entries go first once the memo holds more than its bounds.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """At most ``items`` values, and at most ``size_limit`` by ``size(value)`` in all (one value larger than
    that is not kept)."""

    def __init__(self, items: int, size_limit: int = 0, size: Callable[[V], int] = lambda value: 0):
        self.items, self.size_limit, self._size = items, size_limit, size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()  # forge watch's server reads and draws from its threads

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` for ``key`` (unless it alone exceeds the size limit); returns it."""
        size = self._size(value)
        if self.size_limit and size > self.size_limit:
            return value
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._total -= self._size(old)
            self._values[key] = value
            self._total += size
            while len(self._values) > self.items or (self.size_limit and self._total > self.size_limit):
                _, dropped = self._values.popitem(last=False)
                self._total -= self._size(dropped)
        return value

    def __len__(self) -> int:
        return len(self._values)
