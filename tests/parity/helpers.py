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


def found(root: Path) -> set[tuple[str, int, str]]:
    """(file, line, rule) of every finding; parity must fail."""
    code, rows = findings(root)
    assert code == 1, rows
    return {(f["file"], f["line"], f["rule"]) for f in rows}


def line_of(root: Path, rel: str, start: str) -> int:
    """The number of the line of ``rel`` that starts with ``start``."""
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, 1) if text.startswith(start))


def export_po(root: Path, out: Path, lang: str = "fr"):
    """``forge i18n export`` of ``lang`` as a po file at ``out``, read back (polib.POFile)."""
    import polib

    result = invoke(["i18n", "export", "--root", str(root), "--lang", lang, "--format", "po",
                     "--out", str(out)])
    assert result.exit_code == 0, result.output
    return polib.pofile(str(out))
