"""The shipped game with a translator's mistakes made in memory, and parity's rule families run on its inventory.

Most parity rules read the inventory alone (``forge.i18n.checks``, the stale tracking, the log's and the
web pages' own checks of the locales): a test of one of them builds the inventory over the shipped files
with the edited ones given as text (``Sources`` already read them), runs the family that owns the rule,
and needs no copy of the game and no command line. A rule that needs the compiled cards or their layout
(``length``, ``parity-text``), a whole-report assertion and a few ``--fix`` runs go end to end: the game is
copied once, with the same edits, and ``forge parity`` runs on it.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..conftest import REPO, invoke

#: Each rule read from the inventory alone, and the family of ``forge.i18n.checks`` that reports it.
FAMILIES = {
    "parity-number": "numbers", "parity-structure": "structure", "parity-book": "structure",
    "parity-markup": "tokens", "parity-placeholder": "tokens", "parity-directive": "tokens",
    "parity-card-ref": "tokens", "parity-verbatim": "tokens",
    "parity-empty": "presence", "parity-key": "presence", "parity-language": "presence",
    "untranslated": "untranslated", "untranslated-word": "englishword", "plural": "plurals",
    "terminology": "terms", "termbase": "terms", "duplicate-name": "terms",
    "typography": "typography", "whitespace": "typography", "punctuation": "typography",
    "stale-translation": "fingerprints", "untracked-translation": "fingerprints",
    "log-phrase": "log", "web-words": "web",
}


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
        """(file, line) of each finding of ``rule``, from the family that owns it; at least one."""
        rows = self.rows(rule)
        assert rows, f"no {rule} finding"
        return rows

    def rows(self, rule: str) -> set[tuple[str, int]]:
        """(file, line) of each finding of ``rule``, from the family that owns it; maybe none."""
        return {(f.position.file, f.position.line) for f in self.family(FAMILIES[rule]) if f.rule == rule}

    def inventory(self):
        """The inventory of the shipped files, the edited ones read from memory."""
        from forge.i18n import inventory
        from forge.text.sources import Doc, Sources

        sources = Sources(REPO)
        sources.docs.update({rel: Doc(rel, text.removeprefix("\ufeff")) for rel, text in self.texts.items()})
        return inventory.build(REPO, sources)

    def family(self, name: str) -> list:
        """The findings of one family (as ``forge.i18n.parity`` runs it) and of the files it read."""
        import importlib

        from forge.i18n import fingerprints
        from forge.text import narrate, termbase
        from forge.text.cardtext import Phrasebook
        from forge.web import strings as web_words

        inv = self.inventory()
        if name == "fingerprints":
            found = fingerprints.findings(inv, fingerprints.load(inv.sources))
        elif name in ("log", "web"):
            docs = {lang: inv.sources.yaml(f"locales/{lang}.yaml") for lang in ("en", "fr")}
            books = {lang: Phrasebook(lang, doc.data, doc.rel, doc.source) for lang, doc in docs.items()}
            found = (narrate if name == "log" else web_words).check(books)
        elif name == "typography":
            found, _fixes = importlib.import_module("forge.i18n.checks.typography").check(inv)
        elif name in ("untranslated", "englishword", "terms", "plurals"):
            tb = termbase.load(inv.sources)
            found = importlib.import_module(f"forge.i18n.checks.{name}").check(inv, tb) + tb.findings
        else:
            found = importlib.import_module(f"forge.i18n.checks.{name}").check(inv)
        return found + inv.sources.findings

    def fix(self) -> dict[str, int]:
        """``--fix``'s typography corrections, found in memory and applied to the written game as parity
        applies them (``yamledit.fix_files``); how many were applied in each file."""
        from forge.carddb.yamledit import fix_files
        from forge.i18n.checks import typography

        _found, fixes = typography.check(self.inventory())
        return fix_files(self.written(), fixes)

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
