"""What the text classes learned about each text, kept between renders in ``<out>/.cache/text-fit.json``
(and between validations of a project, outside it: see ``validate_memo``).

A text class's size depends on every card of the class, so every render decides the classes
of all the cards, in every language. Re-measuring every text each time would cost the parent
process about half a second; this record keeps, per text (its lines, flavour, language, box,
style, fonts and the fitting code's version), how full its box is, the largest size it fits at,
and whether it fits at the sizes its class was checked at, so that after one card changes only
that card's texts are measured. The record is sealed like the render manifest: a record this
machine did not write (a committed ``output/``) is ignored, and a link or special file in its
place is neither read nor written through.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..core.seal import SealedRecord, key_path

MEMO = Path(".cache") / "text-fit.json"
#: How many projects' validate records are kept (the least recently written are removed).
VALIDATE_RECORDS = 32
#: The kind of sealed record (``forge.core.seal``) the texts' facts are.
KIND = "text fit"
#: No record of 64 cards is near this; a bigger file is not read.
MAX_MEMO = 8 * 1024 * 1024


class FitMemo:
    """Per-text facts by key; ``save()`` writes the entries used in this run (if anything changed)."""

    def __init__(self, out: Path | None = None, record: Path = MEMO, keep: int = 0, kind: str = KIND):
        self.out = Path(out) if out is not None else None
        self.record = SealedRecord(self.out / record, kind, folder=self.out, limit=MAX_MEMO) if self.out else None
        self.keep = keep  # with keep, the folder holds records of several projects: at most this many
        self.old: dict = self._load()
        self.used: dict = {}
        self.changed = False

    def _load(self) -> dict:
        return (self.record.load() if self.record else None) or {}

    @staticmethod
    def key(*parts) -> str:
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()

    def entry(self, key: str) -> dict:
        """The facts known about one text (a dict to read and fill in)."""
        if key not in self.used:
            old = self.old.get(key)
            self.used[key] = dict(old) if isinstance(old, dict) else {}
        return self.used[key]

    def put(self, key: str, name: str, value) -> None:
        entry = self.entry(key)
        if entry.get(name, KeyError) != value:
            entry[name] = value
            self.changed = True

    def save(self) -> None:
        """Write the record when it changed; a render never fails because of it."""
        if self.record is None or not (self.changed or set(self.used) != set(self.old)):
            return
        if self.record.save(self.used, quiet=True) and self.keep:
            try:
                _prune(self.out, self.keep)
            except OSError:
                pass


def validate_memo(root: Path) -> FitMemo:
    """``forge validate``'s record for the project at ``root``: the texts' facts and whether each name and
    type line fits its bar.

    It lives beside this machine's seal key (``$XDG_CACHE_HOME/forge/validate/``), one file per project
    folder, not in the project: validate writes nothing into the project it checks (a refused database
    leaves no ``output/`` behind), and a re-validate is fast from the first run on, build or no build.
    """
    name = hashlib.sha256(str(Path(root).resolve()).encode("utf-8")).hexdigest()[:32] + ".json"
    return FitMemo(key_path().parent / "validate", Path(name), keep=VALIDATE_RECORDS)


def _prune(folder: Path, keep: int) -> None:
    """Remove the least recently written records past ``keep`` (a cache: its files' times are its order)."""
    records = sorted((p for p in folder.glob("*.json") if p.is_file() and not p.is_symlink()),
                     key=lambda p: (p.stat().st_mtime_ns, p.name))
    for old in records[:-keep]:
        old.unlink(missing_ok=True)
