"""Running ``forge i18n`` and reading a project's bytes, for the tests of issue 11 §2 and §3."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..conftest import REPO, invoke


def forge(*args: str):
    return invoke(list(args))


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of a project, by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def parity(root: Path) -> tuple[int, list[dict]]:
    result = forge("parity", "--root", str(root), "--format", "json")
    return result.exit_code, json.loads(result.stdout)["findings"]


def edit(root: Path, rel: str, old: str, new: str) -> int:
    """Replace ``old`` once in a file; the line it was on."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    at = text.index(old)
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text.count("\n", 0, at) + 1


def line_of(root: Path, rel: str, needle: str) -> int:
    text = (root / rel).read_text(encoding="utf-8")
    return text.count("\n", 0, text.index(needle)) + 1


def export(root: Path, fmt: str, out: Path) -> Path:
    result = forge("i18n", "export", "--root", str(root), "--lang", "fr", "--format", fmt, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


class Exports:
    """The shipped game's French exports (po and xliff), made once by ``forge i18n export`` in a copy of the game.

    A session fixture (``exports``, in the conftest.py of tests/i18n and tests/parity) holds one: every
    test that starts from the export of the unchanged game takes its own copy (``to``), never the shared
    file, instead of exporting the game again (half a second each).
    """

    def __init__(self, folder: Path):
        game = folder / "game"
        for part in ("cards", "locales", "schema", "templates"):
            shutil.copytree(REPO / part, game / part)
        self._data = {fmt: export(game, fmt, folder / f"fr.{fmt}").read_bytes() for fmt in ("po", "xliff")}

    def to(self, fmt: str, out: Path) -> Path:
        """A copy of the ``fmt`` export at ``out``."""
        out.write_bytes(self._data[fmt])
        return out


def run_import(root: Path, file: Path, *args: str) -> tuple[int, dict]:
    result = forge("i18n", "import", str(file), "--root", str(root), "--format", "json", *args)
    return result.exit_code, json.loads(result.stdout)


def prose_id(root: Path, book: str, needle: str) -> str:
    """The stable id of the paragraph of ``book`` whose English holds ``needle`` (ids are made from the English)."""
    from forge.i18n import inventory

    found = [p.id for p in inventory.build(root).pairs
             if p.id.startswith(f"books/{book}/") and p.en is not None and needle in p.en.text]
    assert len(found) == 1, found
    return found[0]
