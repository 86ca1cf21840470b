"""What the preview watches: every ordinary file under cards/, locales/ and templates/, by size and mtime."""
from __future__ import annotations

import os
import stat
from pathlib import Path

WATCHED = ("cards", "locales", "templates")
MAX_FILES = 10_000  # a project this large is a mistake (or a link loop); stop counting there


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """``{relative path: (mtime_ns, size)}``; links and special files are not followed or listed."""
    seen: dict[str, tuple[int, int]] = {}
    for top in WATCHED:
        stack = [Path(root) / top]
        while stack and len(seen) < MAX_FILES:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    stack.append(Path(entry.path))
                elif stat.S_ISREG(info.st_mode):
                    seen[Path(entry.path).relative_to(root).as_posix()] = (info.st_mtime_ns, info.st_size)
    return seen


def changed(before: dict, after: dict) -> list[str]:
    """The files added, removed or modified between two snapshots, sorted."""
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
