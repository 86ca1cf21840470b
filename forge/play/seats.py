"""Who may open a game: a secret key per seat, and read-only spectator keys.

A key is a capability: 24 random bytes (192 bits, ``secrets``), carried in the link's
fragment (``/game/7#KEY``: a browser never sends a fragment, so no request line, proxy
log or Referer holds it) and sent by the page in the ``x-forge-key`` header. The server
keeps only each key's SHA-256 beside the game's record (``game-000007.keys.json``), so a
copy of the games folder opens no game, and compares digests with ``hmac.compare_digest``
against every grant of the game, so the time taken says nothing of which one (or how
much of one) matched. A game whose key file is missing or damaged opens for nobody.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from ..core import atomic, safeio
from .session import PlayError

#: The header that carries a page's key.
HEADER = "x-forge-key"
KEY_BYTES = 24
#: A key as ``secrets.token_urlsafe(KEY_BYTES)`` spells it; anything else is refused before hashing.
KEY = re.compile(r"[A-Za-z0-9_-]{32}")
MAX_KEYS_BYTES = 64 * 1024
#: Spectator links a game holds at most (each is a grant compared on every request).
MAX_SPECTATORS = 8
NO_KEY = "this game opens by its link (/game/<number>#<key>): the request carries no key in x-forge-key"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


@dataclass(frozen=True)
class Grant:
    """What one key allows: to decide for ``seats`` (none: a spectator, who only watches)."""

    seats: tuple[int, ...]
    sha256: str

    @property
    def spectator(self) -> bool:
        return not self.seats


@dataclass
class Seats:
    """A game's grants, and who abandoned it (the record does not say: it is the engine's, this is the lobby's)."""

    mode: str
    grants: list[Grant] = field(default_factory=list)
    abandoned: int | None = None

    def grant(self, seats: tuple[int, ...]) -> str:
        """A new key for ``seats``; only its digest is kept."""
        if not seats and sum(g.spectator for g in self.grants) >= MAX_SPECTATORS:
            raise PlayError(429, f"a game holds at most {MAX_SPECTATORS} spectator links")
        key = new_key()
        self.grants.append(Grant(tuple(seats), _digest(key)))
        return key

    def find(self, key: str | None) -> Grant | None:
        """The grant of ``key``: every grant is compared, in constant time, whatever matches."""
        if key is None or not KEY.fullmatch(key):
            return None
        digest, found = _digest(key), None
        for g in self.grants:
            if hmac.compare_digest(g.sha256, digest):
                found = g
        return found

    def to_json(self) -> str:
        return json.dumps({"mode": self.mode, "abandoned": self.abandoned,
                           "grants": [{"seats": list(g.seats), "sha256": g.sha256} for g in self.grants]},
                          sort_keys=True) + "\n"


def keys_path(record: Path) -> Path:
    return record.with_name(record.name.replace(".jsonl", ".keys.json"))


def save(path: Path, seats: Seats) -> None:
    try:
        atomic.write_text(path, seats.to_json())
    except OSError as exc:
        raise PlayError(503, f"cannot save the game's keys: {atomic.describe(exc)}") from None


def load(path: Path) -> Seats | None:
    """A game's grants, or None when its key file is missing, not an ordinary file or not forge's."""
    try:
        with safeio.open_regular(path, MAX_KEYS_BYTES) as fh:
            data = json.loads(fh.read(MAX_KEYS_BYTES + 1))
        grants = [Grant(tuple(int(p) for p in g["seats"]), str(g["sha256"])) for g in data["grants"]]
        mode, abandoned = data["mode"], data.get("abandoned")
    except (safeio.UnsafeInput, OSError, ValueError, RecursionError, KeyError, TypeError):
        return None
    if mode not in ("ai", "hotseat", "remote") or abandoned not in (None, 0, 1) or not all(
            set(g.seats) <= {0, 1} and re.fullmatch(r"[0-9a-f]{64}", g.sha256) for g in grants):
        return None
    return Seats(mode, grants, abandoned)
