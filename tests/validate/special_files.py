"""Making the files safeio refuses: a FIFO, a device, a folder, a link out, a huge file.

Shared by the tests of every command that reads project files (validate, parity,
check, diff). Each maker turns ``path`` into its kind and returns it; the table
``KINDS`` gives, for each, the finding's rule and words of its message.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from forge.core import safeio


def fifo(path: Path) -> Path:
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    return path


def symlink(path: Path, target: str | Path) -> Path:
    path.unlink(missing_ok=True)
    path.symlink_to(target)
    return path


def device(path: Path) -> Path:
    """A character device like /dev/zero inside the project (needs CAP_MKNOD: skipped without it)."""
    path.unlink(missing_ok=True)
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot create a device here: {exc}")
    return path


def huge(path: Path) -> Path:
    """A sparse file one byte over the limit: no disk used, and never read."""
    with open(path, "wb") as f:
        f.truncate(safeio.MAX_INPUT_BYTES + 1)
    return path


def outside(path: Path) -> Path:
    """A link to a copy of the file in the folder that holds the project (pytest's tmp_path)."""
    root = next(p for p in path.parents if (p / "locales").is_dir())
    target = root.parent / f"outside-{root.name}-{path.name}"
    target.write_text(path.read_text(encoding="utf-8") if path.is_file() else "cards: []\n", encoding="utf-8")
    return symlink(path, target)


def folder(path: Path) -> Path:
    path.unlink(missing_ok=True)
    path.mkdir()
    return path


KINDS = {
    "fifo": (fifo, "special-file", "named pipe"),
    "dev-zero": (lambda p: symlink(p, "/dev/zero"), "outside-project", "outside the project"),
    "dev-urandom": (lambda p: symlink(p, "/dev/urandom"), "outside-project", "outside the project"),
    "device": (device, "special-file", "character device"),
    "folder": (folder, "special-file", "a folder"),
    "huge": (huge, "too-large", "more than the limit"),
    "link-out": (outside, "outside-project", "outside the project"),
}
