"""``forge parity --fix``: the typography corrections applied in place, nothing else touched.

Each fix replaces a span of characters inside one string; comments, quoting, order and
layout stay as they were. Files are written atomically; a file whose fixes overlap keeps
the first of them (a second run applies the rest).
"""
from __future__ import annotations

from pathlib import Path

from ..core import atomic, safeio
from .checks import Fix


def apply(root: Path | str, fixes: list[Fix]) -> dict[str, int]:
    """Apply ``fixes``; returns how many were applied in each file."""
    root = Path(root)
    by_file: dict[str, list[Fix]] = {}
    for fix in fixes:
        by_file.setdefault(fix.file, []).append(fix)
    applied: dict[str, int] = {}
    for rel, items in sorted(by_file.items()):
        text = safeio.read_text(root / rel, root)
        bom = text.startswith("\ufeff")
        body = text.removeprefix("\ufeff")
        kept, end = [], -1
        for fix in sorted(set(items), key=lambda f: (f.start, f.end)):
            if fix.start >= end or fix.start == fix.end == end:
                kept.append(fix)
                end = max(end, fix.end)
        for fix in reversed(kept):
            body = body[:fix.start] + fix.text + body[fix.end:]
        atomic.write_text(root / rel, ("\ufeff" if bom else "") + body)
        applied[rel] = len(kept)
    return applied
