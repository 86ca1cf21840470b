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
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

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


def _mac(payload: bytes) -> str:
    return hmac.new(key(), payload, hashlib.sha256).hexdigest()


def _canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(data) -> bytes:
    """A JSON record of ``data`` (JSON-native values) with its seal."""
    return json.dumps({"data": data, "seal": _mac(_canonical(data))}, sort_keys=True, indent=1,
                      ensure_ascii=False).encode("utf-8")


def unseal(raw: bytes | None):
    """The data of a record this machine sealed, or None (missing, not JSON, not sealed here, altered)."""
    if not raw:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("seal"), str) or "data" not in record:
        return None
    if not hmac.compare_digest(record["seal"], _mac(_canonical(record["data"]))):
        return None
    return record["data"]


_BLOB = b"forge-sealed-blob\n"


def seal_blob(payload: bytes) -> bytes:
    """``payload`` (any bytes) with its seal in front, for binary records (``formcache``)."""
    return _BLOB + hmac.new(key(), payload, hashlib.sha256).digest() + payload


def unseal_blob(raw: bytes | None) -> bytes | None:
    """The payload of a blob this machine sealed, or None (missing, not sealed here, altered)."""
    if not raw or not raw.startswith(_BLOB) or len(raw) < len(_BLOB) + 32:
        return None
    mac, payload = raw[len(_BLOB):len(_BLOB) + 32], raw[len(_BLOB) + 32:]
    if not hmac.compare_digest(mac, hmac.new(key(), payload, hashlib.sha256).digest()):
        return None
    return payload
