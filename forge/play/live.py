"""Live updates: each open page follows its game over Server-Sent Events (``/api/games/<n>/events``).

A page opens one stream with its key; the stream sends the page's own view (built by the
viewer for that key's seat, or for a spectator: the same rule as every other answer)
at once, then again after every change of the game (a move, the AI's answers, an
abandon), and a comment every ``HEARTBEAT`` seconds so that a proxy keeps the
connection and the page sees a dead one. The page reconnects by itself (static/live.js),
and the first message after a reconnection is the game as it stands: no event is lost.

The hub holds, per game, one ``asyncio.Event`` that the next change sets: a stream
compares the game's ``version`` with the one it sent, and waits only when they are
equal (no await between the two, so no change slips between them).
"""
from __future__ import annotations

import asyncio
import json
from collections import Counter

#: Seconds between two comments on an idle stream.
HEARTBEAT = 15.0
#: Streams one key may hold at once (two tabs and a reconnection), and the server in all.
PER_KEY, TOTAL = 4, 512


class Hub:
    """The games' change signals and the count of open streams."""

    def __init__(self) -> None:
        self.changed: dict[str, asyncio.Event] = {}
        self.open: Counter[str] = Counter()

    def notify(self, gid: str) -> None:
        """Wake every stream of game ``gid`` (called on the event loop, after the change is made)."""
        event = self.changed.pop(gid, None)
        if event is not None:
            event.set()

    def event(self, gid: str) -> asyncio.Event:
        return self.changed.setdefault(gid, asyncio.Event())

    def admit(self, who: str) -> str | None:
        """Why a new stream of ``who`` (a key's digest) is refused, or None (then ``leave`` it when done)."""
        if self.open[who] >= PER_KEY:
            return f"this link has {PER_KEY} live pages open already: close one"
        if sum(self.open.values()) >= TOTAL:
            return "the server follows as many live pages as it can: reload later"
        self.open[who] += 1
        return None

    def leave(self, who: str) -> None:
        self.open[who] -= 1
        if self.open[who] <= 0:
            del self.open[who]


async def stream(hub: Hub, session, who: str, build):
    """The SSE body of one page: ``await build()`` is its view now (a dict); sent at once and after each change."""
    sent = None
    try:
        yield b"retry: 1000\n\n"
        while True:
            waiter = hub.event(session.gid)
            if session.version != sent:
                sent = session.version
                view = await build()
                yield f"id: {sent}\nevent: view\ndata: {json.dumps(view, ensure_ascii=False)}\n\n".encode()
                continue
            try:
                await asyncio.wait_for(waiter.wait(), HEARTBEAT)
            except TimeoutError:
                yield b": still here\n\n"
    finally:
        hub.leave(who)
