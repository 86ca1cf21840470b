"""The shipped game with a translator's mistakes made in memory, and parity's check families run on it.

A test of one rule gives the edited files to parity as text (``Sources.given``: the inventory, the
compiled cards and the card template read them instead of the disk; book.css is still read from it) and runs only the families that report the rule
(``forge.i18n.parity.families_of``): no copy of the game, no command line. A whole-report assertion,
a file that does not parse and a few ``--fix`` runs go end to end: the game is copied once, with the
same edits, and ``forge parity`` runs on it.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from forge.i18n.parity import families_of, parity
from forge.text.sources import Sources

from ..conftest import REPO, invoke


class Game:
    """The shipped game and the edits made to it, in memory until a test needs the files."""

    def __init__(self, tmp_path: Path):
        self.texts: dict[str, str] = {}
        self._tmp = tmp_path
        self.root: Path | None = None

    def text(self, rel: str) -> str:
        if rel not in self.texts:
            self.texts[rel] = (REPO / rel).read_text(encoding="utf-8")
        return self.texts[rel]

    def edit(self, rel: str, old: str, new: str) -> int:
        """Replace the first ``old`` by ``new`` in ``rel``; the line ``new`` starts on."""
        text = self.text(rel)
        assert text.count(old) >= 1, old
        at = text.index(old)
        self.replace(rel, text[:at] + new + text[at + len(old):])
        return text.count("\n", 0, at) + 1

    def replace(self, rel: str, text: str) -> None:
        """``rel``'s whole text (in the files too once they are written)."""
        self.texts[rel] = text
        if self.root is not None:
            (self.root / rel).write_text(text, encoding="utf-8")

    def found(self, rule: str) -> set[tuple[str, int]]:
        """(file, line) of each finding of ``rule``, from the families that report it; at least one."""
        rows = self.rows(rule)
        assert rows, f"no {rule} finding"
        return rows

    def rows(self, rule: str) -> set[tuple[str, int]]:
        """(file, line) of each finding of ``rule``, from the families that report it; maybe none."""
        return {(f.position.file, f.position.line) for f in self.of(rule)}

    def of(self, rule: str) -> list:
        """The findings of ``rule`` (their columns and messages too), from the families that report it; maybe none."""
        families = families_of(rule)
        assert families, f"no parity family reports {rule}"
        return [f for f in self.family(*families) if f.rule == rule]

    def sources(self) -> Sources:
        """The shipped files, the edited ones given in memory."""
        return Sources(REPO, given=dict(self.texts))

    def findings(self) -> list:
        """Every finding of a full parity run on the game in memory (the whole report, no command line)."""
        return parity(REPO, sources=self.sources()).findings

    def family(self, *names: str) -> list:
        """The findings of parity's families ``names`` on the game in memory, and of the files they read."""
        return parity(REPO, sources=self.sources(), families=names).findings

    def fix(self) -> dict[str, int]:
        """``--fix``'s typography corrections, found in memory and applied to the written game as parity
        applies them (``yamledit.fix_files``); how many were applied in each file."""
        from forge.carddb.yamledit import fix_files

        return fix_files(self.written(), parity(REPO, sources=self.sources(), families=["typography"]).fixes)

    def written(self) -> Path:
        """The game with its edits, as files (written once; later edits go to the files too)."""
        if self.root is None:
            self.root = self._tmp / "game"
            for part in ("cards", "locales", "schema", "templates"):
                shutil.copytree(REPO / part, self.root / part)
            for rel, text in self.texts.items():
                (self.root / rel).write_text(text, encoding="utf-8")
        return self.root

    def report(self, *args: str) -> tuple[int, list[dict]]:
        """``forge parity`` on the written game: its exit code and findings, end to end."""
        result = invoke(["parity", "--root", self.written(), "--format", "json", *args])
        return result.exit_code, json.loads(result.stdout)["findings"]
