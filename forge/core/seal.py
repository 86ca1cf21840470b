"""The records forge keeps in output/ between runs are trusted only when this machine's forge wrote them.

The render manifest (each output's size and hash) and the face cache's records
(each face's preflight check, each cached image's hash) decide what is rendered
again and what preflight reports. A pull request can commit an ``output/`` folder
of its own: with plain JSON records, its made-up images and "no overflow" checks
would be published as forge's own. So every record is sealed with an HMAC under a
key that lives outside the project (``$XDG_CACHE_HOME/forge/state.key``, made on
first use, mode 0600); a record whose seal does not match is no record, and what it
described is rendered again. Where no key file can be kept, a key for this process
only is used: nothing is trusted across runs, and everything is rendered again.

Every such record is a ``SealedRecord`` (JSON) or a ``SealedBlob`` (bytes), so each cache reads
and writes its file the same way: the seal covers the record's kind and version too, so a
record of another cache or of another forge (or format) version is no record either, and so
is a truncated or over-large file, a link or a special file in its place, or one whose folder
leads out of the folder it belongs in. A record that is no record costs a redo, never a trace.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

from .. import __version__
from . import atomic, safeio

_KEY: dict[str, bytes] = {}


def key_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "forge" / "state.key"


def key() -> bytes:
    """This machine's key (made on first use); call it before starting workers, so they share it."""
    if "key" not in _KEY:
        _KEY["key"] = _load_or_make(key_path())
    return _KEY["key"]


def _load_or_make(path: Path) -> bytes:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            fd = None
        if fd is not None:
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(32))
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(65)
        if len(data) >= 32:
            return data[:32]
    except OSError:
        pass
    return os.urandom(32)  # no key file: trust nothing across runs


def _mac(payload: bytes) -> bytes:
    return hmac.new(key(), payload, hashlib.sha256).digest()


def _canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


#: No record forge keeps is near this (the largest, the render manifest of 500 cards, is a few MB).
MAX_RECORD = 64 * 1024 * 1024


class _Sealed:
    """The file of one record: where it is, what it is, and how it is read and written (see the module doc).

    ``folder`` is where the file must stay once links are followed (the output folder, or the key's
    folder): a record under a planted link to elsewhere is neither read nor written.
    """

    def __init__(self, path: Path | str, kind: str, version: str = "1", *, folder: Path | str | None = None,
                 limit: int = MAX_RECORD):
        self.path, self.kind, self.limit = Path(path), kind, limit
        self.version = f"forge {__version__}, {version}"
        self.folder = Path(folder) if folder is not None else None

    def _header(self) -> bytes:
        return _canonical([self.kind, self.version])

    def _placed(self) -> bool:
        """Whether no folder between ``folder`` and the file is a link (or ``..``): an lstat each, not a
        ``resolve()`` of the whole path, since a render reads two records of each of its 1 000 faces."""
        if self.folder is None:
            return True
        try:
            rel = self.path.parent.relative_to(self.folder)
        except ValueError:
            return False
        here = self.folder
        for part in rel.parts:
            here = here / part
            if part == ".." or here.is_symlink():
                return False
        return True

    def _read(self) -> bytes | None:
        if not self._placed():
            return None
        try:
            with safeio.open_regular(self.path, self.limit) as fh:
                raw = fh.read(self.limit + 1)
        except (OSError, safeio.UnsafeInput):
            return None
        return raw if len(raw) <= self.limit else None

    def _write(self, raw: bytes, quiet: bool) -> bool:
        """Write atomically; a failure raises ``atomic.WriteError`` unless ``quiet`` (then: False)."""
        try:
            if not self._placed():
                raise atomic.WriteError(self.path, f"a link leads it out of {self.folder}")
            atomic.write_bytes(self.path, raw)
        except OSError:
            if quiet:
                return False
            raise
        return True


class SealedRecord(_Sealed):
    """A JSON object (JSON-native values) kept in a file: ``load()`` gives it back only as this forge sealed it."""

    def load(self) -> dict | None:
        """The record's data, or None (missing, unreadable, not JSON, not sealed here, another kind or version)."""
        raw = self._read()
        if not raw:
            return None
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: a file of 100 000 nested brackets
            return None
        if not isinstance(record, dict) or not isinstance(record.get("seal"), str) \
                or record.get("kind") != self.kind or record.get("version") != self.version:
            return None
        data = record.get("data")
        if not isinstance(data, dict) or not hmac.compare_digest(record["seal"], self._seal_of(data)):
            return None
        return data

    def save(self, data: dict, *, quiet: bool = False) -> bool:
        """Seal and write ``data``; see ``_write`` for ``quiet``."""
        record = {"kind": self.kind, "version": self.version, "data": data, "seal": self._seal_of(data)}
        raw = json.dumps(record, sort_keys=True, indent=1, ensure_ascii=False).encode("utf-8")
        return self._write(raw, quiet)

    def _seal_of(self, data: dict) -> str:
        return _mac(self._header() + b"\n" + _canonical(data)).hex()


_BLOB = b"forge-sealed-blob\n"


class SealedBlob(_Sealed):
    """Bytes kept in a file, with their seal in front (``formcache``'s fragments)."""

    def load(self) -> bytes | None:
        """The payload, or None (missing, unreadable, truncated, not sealed here, another kind or version)."""
        raw = self._read()
        if not raw or not raw.startswith(_BLOB) or len(raw) < len(_BLOB) + 32:
            return None
        mac, payload = raw[len(_BLOB):len(_BLOB) + 32], raw[len(_BLOB) + 32:]
        return payload if hmac.compare_digest(mac, self._seal_of(payload)) else None

    def save(self, payload: bytes, *, quiet: bool = False) -> bool:
        return self._write(_BLOB + self._seal_of(payload) + payload, quiet)

    def _seal_of(self, payload: bytes) -> bytes:
        return _mac(self._header() + b"\n" + payload)
