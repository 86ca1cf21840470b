"""Atomic file writes: a reader sees the old file or the new one, never half of one.

A write goes to a temporary file beside its target, then is renamed over it, so a
full disk, a read-only folder or a killed process leaves the previous output
intact. The temporary file is created with mode 0666 and the kernel applies the
user's umask, as for any file a program creates (``mkstemp`` would make it 0600,
unreadable to a web server or another user). A failure raises ``WriteError``,
whose text is one line naming the path and the reason.
"""
from __future__ import annotations

import errno as _errno
import os
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .safeio import inside

#: Temporary files this process is writing now: a worker stopped by SIGTERM removes them (forge.core.workers).
_PENDING: set[str] = set()
#: While set (``confine``), every write must land in one of these folders once links are followed.
_WITHIN: list[Path] = []


def confine(folder: Path | str) -> None:
    """Refuse, from now on in this process and the workers it forks, writes outside ``folder``.

    A pull request can commit ``output/tts`` or ``output/books`` as a symlink out of the project; a
    write under the output folder must not follow it. ``release`` lifts the rule.
    """
    _WITHIN[:] = [Path(folder).resolve()]


def release() -> None:
    _WITHIN.clear()


@contextmanager
def widened(*folders: Path | str) -> Iterator[None]:
    """While confined, also allow writes in ``folders`` for the block (the caller has checked that they lie
    in the project): `forge build` plays the worked example again in the project's sources."""
    added = [Path(f).resolve() for f in folders] if _WITHIN else []
    _WITHIN.extend(added)
    try:
        yield
    finally:
        for folder in added:
            _WITHIN.remove(folder)


def _check_within(path: Path) -> None:
    if not _WITHIN:
        return
    real = path.parent.resolve()  # links in the folders that exist are followed; the rest is appended
    if not inside(real, tuple(_WITHIN)):
        raise WriteError(path, f"a link leads it outside the output folder {_WITHIN[0]} (to {real})", _errno.EXDEV)


class WriteError(OSError):
    """An output that could not be written: ``<path>: cannot write (<reason>)``."""

    def __init__(self, path, reason: str, code: int | None = None):
        super().__init__(code, reason, str(path))
        self.path, self.reason = str(path), reason

    def __str__(self) -> str:
        return f"{self.path}: cannot write ({self.reason})"

    def __reduce__(self):  # raised in worker processes, re-raised in the parent
        return (WriteError, (self.path, self.reason, self.errno))


def describe(exc: OSError) -> str:
    """One line for any OSError: the path it concerns and the reason."""
    if isinstance(exc, WriteError):
        return str(exc)
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _reason(path: Path, exc: OSError) -> str:
    """Why ``path`` cannot be written: a folder on the way that is a file says more than "Not a directory"."""
    if isinstance(exc, (NotADirectoryError, FileExistsError)):
        for folder in path.parents:
            if folder.exists() or folder.is_symlink():
                if not folder.is_dir():
                    return f"{folder} is not a folder"
                break
    return exc.strerror or str(exc)


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte (os.write may write fewer than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _create(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, mode 0666 minus the umask; never follows or reuses a name."""
    for _ in range(100):
        tmp = str(path.parent / f".{path.name[:200]}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        _PENDING.add(tmp)
        return fd, tmp
    raise FileExistsError(_errno.EEXIST, "no free temporary file name", str(path.parent))


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    Raises WriteError (an OSError) with the path and the reason; the temporary file is removed.
    """
    path = Path(path)
    tmp = None
    try:
        _check_within(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _create(path)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _PENDING.discard(tmp)
    except BaseException as exc:
        if tmp is not None:
            _discard(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError(path, _reason(path, exc), exc.errno) from exc
        raise


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def _discard(tmp: str) -> None:
    _PENDING.discard(tmp)
    try:
        os.unlink(tmp)
    except OSError:
        pass


def discard_pending() -> None:
    """Remove the temporary files being written (a worker told to stop calls this before it exits)."""
    for tmp in list(_PENDING):
        _discard(tmp)


_ORPHAN = re.compile(r"^\..+\.(\d+)-[0-9a-f]{8}\.tmp$")


def sweep_orphans(folder: Path) -> list[str]:
    """Remove the temporary files that a killed forge left in ``folder`` (its process is gone); return them.

    A ``kill -9`` in the middle of a write leaves ``.<name>.<pid>-<token>.tmp`` behind: the
    output itself is whole, but the litter would grow. A file whose process still runs is
    another forge writing now, and is left alone.
    """
    removed = []
    if not Path(folder).is_dir():
        return removed
    for dirpath, _, names in os.walk(folder):
        for name in names:
            m = _ORPHAN.match(name)
            if m is None or _alive(int(m.group(1))):
                continue
            try:
                os.unlink(os.path.join(dirpath, name))
                removed.append(os.path.join(dirpath, name))
            except OSError:
                pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True

