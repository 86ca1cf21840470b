"""Making one mistake in a copy of the shipped game and reading parity's findings back."""
from __future__ import annotations

import json
from pathlib import Path
from ..conftest import invoke


def mistake(root: Path, rel: str, old: str, new: str) -> int:
    """Replace ``old`` (written once in the file) by ``new``; the line it is on."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return text.count("\n", 0, at) + 1


def findings(root: Path) -> tuple[int, list[dict]]:
    """Parity's exit code and its findings (JSON)."""
    result = invoke(["parity", "--root", str(root), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)["findings"]
