"""Where the games live: one record per game under the play folder, read back after a restart.

A game's id is its number (``7`` is ``game-000007.jsonl``), the next one after the
highest on disk: ids are never reused, and they open nothing: a game is reached with
a seat's key (``forge.play.seats``, kept beside the record), checked before the record
is even read. The record is written whole once (``forge.core.atomic``), then after each move
its new lines are appended over the old result and closing lines (one ``pwrite`` that
covers them, then fsync): a move costs its own bytes, not the whole game's, and a
killed server leaves each game at its last whole move. A record is read only when it
is an ordinary file inside the folder (``forge.core.safeio``: no link, no FIFO), then
checked and replayed whole before anyone plays it.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import threading
from collections import OrderedDict
from pathlib import Path

from ..core import atomic, safeio
from ..engine import Game
from ..engine.record import RecordError, from_jsonl, replay
from ..core.limits import MAX_DECISION_CAP, MAX_TURN_CAP
from . import seats as keys
from .seats import Grant, Seats
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
        self.grants: dict[str, Seats] = {}  # gid -> its keys' digests (small: every game's is kept)
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
               expert: bool = False, remote: bool = False) -> tuple[Session, list[str]]:
        """A new game, its AI seats played up to the first person's decision, its record and keys written;
        the keys: one per person (hot-seat: one for both seats).

        Without ``seed`` the deal is secret (``secrets``): the game's number would tell anyone the
        order of both decks.
        """
        with self.lock:
            number = self._last + 1
            gid = str(number)
            session = Session(gid, self.game, secrets.randbits(63) if seed is None else seed, factions, first,
                              seats, expert, remote)
            self._last = number
            self._keep(gid, session)
        grants = Seats(session.mode)
        people = [(p,) for p in session.humans()] if remote else [session.humans()]
        made = [grants.grant(seat) for seat in people]
        keys.save(keys.keys_path(self.path(gid)), grants)
        self.grants[gid] = grants
        with session.lock:
            session.run_agents()
            self.save(session)
        return session, made

    def authorize(self, gid: str, key: str | None) -> Grant:
        """The grant ``key`` holds on game ``gid``: 403 without a key, 404 for a wrong one (as for no game)."""
        if not GAME_ID.fullmatch(gid):
            raise PlayError(404, f"no game {gid[:40]!r}: a game id is a number")
        if key is None:
            raise PlayError(403, keys.NO_KEY)
        grants = self.grants.get(gid)
        if grants is None:
            grants = keys.load(keys.keys_path(self.path(gid)))
            if grants is not None:
                with self.lock:
                    grants = self.grants.setdefault(gid, grants)
        grant = grants.find(key) if grants is not None else None
        if grant is None:
            raise PlayError(404, f"no game {gid} opens with this key: ask its players for the link")
        return grant

    def adopt(self) -> list[tuple[str, str]]:
        """Keys for the games kept before games had keys (a record with no key file beside it), so that
        nobody loses a game to an upgrade: one key per game for its people's seats, given to whoever runs
        ``forge play`` (it prints the links); ``(game, key)`` pairs. A record that cannot be played is
        left as it is: opening it says why."""
        found = []
        for name in self._names():
            m = _FILE.fullmatch(name)
            kept = keys.keys_path(self.folder / name) if m else None
            if kept is None or kept.exists() or kept.is_symlink():
                continue
            gid = str(int(m.group(1)))
            try:
                session = self._load(gid)
            except PlayError:
                continue
            grants = Seats(session.mode)
            key = grants.grant(session.humans())
            keys.save(kept, grants)
            with self.lock:
                self.grants[gid] = grants
            found.append((gid, key))
        return found

    def seats(self, gid: str) -> Seats:
        """The grants of a game ``authorize`` let in."""
        return self.grants[gid]

    def add_grant(self, gid: str, seats: tuple[int, ...]) -> str:
        """A new key of game ``gid`` for ``seats`` (none: a spectator's), saved before it is given."""
        grants = self.seats(gid)
        with self.lock:
            key = grants.grant(seats)
            keys.save(keys.keys_path(self.path(gid)), grants)
        return key

    def abandon(self, session: Session, seat: int) -> None:
        grants = self.seats(session.gid)
        with session.lock:
            session.abandon(seat)
        with self.lock:
            grants.abandoned = seat
            keys.save(keys.keys_path(self.path(session.gid)), grants)

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
        grants = self.grants.get(gid)
        if grants is not None:
            loaded.remote, loaded.abandoned = grants.mode == "remote", grants.abandoned
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
            session = restore(gid, game, lines)
            text = "".join(session._text)
            if text.encode("utf-8") + session.trailer().encode("utf-8") == data:
                session.saved = (len(session._text), len(text.encode("utf-8")))  # appended to from here
            return session
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
        """Write the game's record as it stands now: whole the first time, then its new lines appended
        (call it under the session's lock, or with its moves queued: one save of a game at a time)."""
        try:
            if session.saved is None:
                text = "".join(session._text)
                atomic.write_text(self.path(session.gid), text + session.trailer())
                session.saved = (len(session._text), len(text.encode("utf-8")))
            else:
                self._append(session)
        except OSError as exc:
            raise PlayError(503, f"cannot save game {session.gid}: {atomic.describe(exc)}") from None

    def _append(self, session: Session) -> None:
        """The lines since the last save and a new trailer, written over the old trailer, then fsync.

        The new bytes are at least as long as the trailer they replace (a move adds a decision line and
        the trailer's size barely moves), so one write leaves a whole record; the truncation after it
        only trims what a longer trailer left, and a killed server leaves the last whole move.
        """
        new, lines = session.unsaved()
        data = new.encode("utf-8")
        offset = session.saved[1]
        path = self.path(session.gid)
        atomic._check_within(path)
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            blob = data + session.trailer().encode("utf-8")
            written = os.pwrite(fd, blob, offset)
            if written != len(blob):
                raise OSError(28, "the disk took only part of the move", str(path))
            os.ftruncate(fd, offset + len(blob))
            os.fsync(fd)
        finally:
            os.close(fd)
        session.saved = (lines, offset + len(data))
