"""Where the games live: one record per game under the play folder, read back after a restart.

A game's id is its number (``7`` is ``game-000007.jsonl``), the next one after the
highest on disk: ids are never reused and need no randomness. The record is
written atomically (``forge.atomic``) after every move, so a killed server
leaves each game at its last whole move. A record is read only when it is an
ordinary file inside the folder (``forge.safeio``: no link, no FIFO), then
checked and replayed whole before anyone plays it.
"""
from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from pathlib import Path

from .. import atomic, safeio
from ..engine import Game
from ..limits import MAX_DECISION_CAP, MAX_TURN_CAP
from ..engine.record import RecordError, from_jsonl, replay
from .session import PlayError, Session, restore

#: A game id as the page and the API spell it.
GAME_ID = re.compile(r"[1-9][0-9]{0,8}")
_FILE = re.compile(r"game-([0-9]{6,9})\.jsonl")
#: A played game's record is a few hundred kilobytes; this only stops an absurd file.
MAX_RECORD_BYTES = 64 << 20
#: Games held in memory at most (about a megabyte each at their end); the least recently played one is
#: let go first, and read back from its record if anyone plays it again.
MAX_SESSIONS = 200


def record_name(gid: str) -> str:
    return f"game-{int(gid):06d}.jsonl"


class GameStore:
    """The games of one server: those in memory, and the records of the others on disk."""

    def __init__(self, folder: Path, game: Game) -> None:
        self.folder, self.game = Path(folder), game
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()
        self._last = max((int(m.group(1)) for p in self._names() if (m := _FILE.fullmatch(p))), default=0)

    def _names(self) -> list[str]:
        try:
            return sorted(p.name for p in self.folder.iterdir())
        except OSError:
            return []

    def path(self, gid: str) -> Path:
        return self.folder / record_name(gid)

    # -- creating and finding -------------------------------------------------------------
    def create(self, seed: int | None, factions: tuple[str, str], first: int, seats: tuple[str, str],
               expert: bool = False) -> Session:
        """A new game, its AI seats played up to the first person's decision, its record written."""
        with self.lock:
            number = self._last + 1
            gid = str(number)
            session = Session(gid, self.game, number if seed is None else seed, factions, first, seats, expert)
            self._last = number
            self._keep(gid, session)
        with session.lock:
            session.run_agents()
            self.save(session)
        return session

    def get(self, gid: str) -> Session:
        """The game ``gid``, read back from its record when this server has not seen it yet."""
        if not GAME_ID.fullmatch(gid):
            raise PlayError(404, f"no game {gid[:40]!r}: a game id is a number")
        with self.lock:
            session = self.sessions.get(gid)
            if session is not None:
                self.sessions.move_to_end(gid)
                return session
        loaded = self._load(gid)  # outside the lock: the other games go on meanwhile
        with self.lock:
            session = self.sessions.get(gid, loaded)  # another request may have read it first: one copy
            self._keep(gid, session)
            return session

    def _keep(self, gid: str, session: Session) -> None:
        """Hold ``session`` as the most recently played game, letting the oldest go past MAX_SESSIONS."""
        self.sessions[gid] = session
        self.sessions.move_to_end(gid)
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)

    def _load(self, gid: str) -> Session:
        path = self.path(gid)
        try:
            with safeio.open_regular(path, MAX_RECORD_BYTES) as fh:
                data = fh.read(MAX_RECORD_BYTES + 1)
        except safeio.UnsafeInput as exc:
            if exc.rule == "io" and not path.exists() and not path.is_symlink():
                raise PlayError(404, f"no game {gid}") from None
            raise PlayError(403, f"game {gid}'s record {path.name} is refused: {exc.message}") from None
        game = self._game_for(data)
        try:
            replay(game, data)
            lines = from_jsonl(data)
            return restore(gid, game, lines)
        except (RecordError, PlayError) as exc:
            reason = exc.message if isinstance(exc, RecordError) else exc.reason
            where = f"line {exc.line}: " if isinstance(exc, RecordError) else ""
            raise PlayError(422, f"game {gid}'s record {path.name} cannot be played: {where}{reason}") from None

    def _game_for(self, data: bytes) -> Game:
        """The store's game, or one with the record's own caps when they differ."""
        try:
            head = json.loads(data.split(b"\n", 1)[0])
        except (ValueError, RecursionError):
            return self.game  # the replay says what is wrong with it
        caps = (head.get("turn_cap"), head.get("decision_cap")) if isinstance(head, dict) else ()
        if caps == (self.game.turn_cap, self.game.decision_cap) or not caps or not all(
                type(c) is int and 0 < c <= cap for c, cap in zip(caps, (MAX_TURN_CAP, MAX_DECISION_CAP))):
            return self.game
        return Game(self.game.db, turn_cap=caps[0], decision_cap=caps[1])

    # -- writing ----------------------------------------------------------------------------
    def save(self, session: Session) -> None:
        """Write the game's record as it stands now."""
        self.write(session.gid, session.record_text())

    def write(self, gid: str, text: str) -> None:
        """Write a game's record (atomically); an error is the server's, said as 503 with the path."""
        try:
            atomic.write_text(self.path(gid), text)
        except OSError as exc:
            raise PlayError(503, f"cannot save game {gid}: {atomic.describe(exc)}") from None
