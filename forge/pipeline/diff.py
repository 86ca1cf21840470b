"""``forge diff``: what changed in the card database between two git revisions.

Each revision's ``cards/*.yaml`` and ``locales/*.yaml`` are read with ``git show`` (or,
for the working tree, through ``safeio``) into a temporary project and loaded like any
other project, so a card's printed text is compiled through its own revision's phrases.
Nothing here prints or exits; git problems and refused files raise DiffError.
"""
from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..core import safeio
from ..carddb.database import LoadResult, load_database
from ..carddb.model import CardDatabase
from ..text.cardtext import Phrasebook, PhraseError, load_phrasebooks

WORKTREE = None  #: REV2 when comparing with the files on disk
#: The books' prose and labels and the card template's labels: for the French to review.
FOLDERS = ("cards", "locales", "templates/books", "templates/cards")


class DiffError(Exception):
    """A revision that cannot be read: not a git repository, an unknown revision, a refused file."""


@dataclass
class Side:
    """One revision's cards, by id, with their raw fields and printed text per language."""

    label: str
    load: LoadResult
    raw: dict[str, dict] = field(default_factory=dict)
    texts: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # id -> lang -> plain lines


@dataclass
class CardChange:
    id: str
    fields: list[str]
    text: dict[str, tuple[list[str], list[str]]]  # lang -> (before, after), only when it changed
    values: dict[str, tuple] = field(default_factory=dict)  # field -> (before, after), raw values


@dataclass
class StaleFrench:
    id: str
    where: str  # file:line:col of the French to review
    en_before: str | None  # the English at ``old`` (None when the string is new there)
    en_now: str
    fr: str


@dataclass
class DiffReport:
    old: str
    new: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)
    counts: dict[str, tuple] = field(default_factory=dict)  # name -> (before, after)
    #: The French whose English changed since it was translated (in ``new``), with the English before and now.
    stale: list[StaleFrench] = field(default_factory=list)
    #: Both sides as loaded (for ``forge diff --simulate``); not part of the JSON.
    loads: tuple = field(default=(), repr=False)

    def to_json(self) -> dict:
        return {
            "old": self.old, "new": self.new, "added": self.added, "removed": self.removed,
            "changed": [{"id": c.id, "fields": c.fields,
                         "values": {k: {"before": b, "after": a} for k, (b, a) in c.values.items()},
                         "text": {lang: {"before": b, "after": a} for lang, (b, a) in c.text.items()}}
                        for c in self.changed],
            "summary": {name: {"before": b, "after": a} for name, (b, a) in self.counts.items()},
            "french_to_review": [{"id": s.id, "where": s.where, "english_before": s.en_before,
                                  "english_now": s.en_now, "french": s.fr} for s in self.stale],
        }


def diff(root: Path | str, old: str, new: str | None = WORKTREE) -> DiffReport:
    """Compare the card database at revision ``old`` with ``new`` (default: the working tree)."""
    root = Path(root)
    prefix = _repository(root)
    with tempfile.TemporaryDirectory(prefix="forge-diff-") as tmp:
        before = _side(root, prefix, old, Path(tmp) / "old")
        after = _side(root, prefix, new, Path(tmp) / "new")
        stale = _stale_french(Path(tmp) / "old", Path(tmp) / "new")
    report = DiffReport(before.label, after.label, stale=stale, loads=(before.load, after.load))
    report.added = sorted(set(after.raw) - set(before.raw))
    report.removed = sorted(set(before.raw) - set(after.raw))
    for cid in sorted(set(before.raw) & set(after.raw)):
        change = _card_change(cid, before, after)
        if change:
            report.changed.append(change)
    a, b = summary_counts(before.load.db), summary_counts(after.load.db)
    report.counts = {name: (a[name], b[name]) for name in a}
    return report


# -- git -------------------------------------------------------------------------------
def _git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, check=False)
    except OSError as exc:
        raise DiffError(f"cannot run git: {exc.strerror}") from None
    if done.returncode:
        raise DiffError(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1]
                        if done.stderr.strip() else f"git {' '.join(args)} failed")
    return done.stdout


def _repository(root: Path) -> str:
    """The project's folder inside its git repository ("" at the top); DiffError outside one."""
    try:
        return _git(root, "rev-parse", "--show-prefix").decode().strip()
    except DiffError:
        raise DiffError(f"{root} is not in a git repository") from None


def _side(root: Path, prefix: str, rev: str | None, dest: Path) -> Side:
    for folder in FOLDERS:
        (dest / folder).mkdir(parents=True)
    if rev is WORKTREE:
        _copy_worktree(root, dest)
        label = "the working tree"
    else:
        _export(root, prefix, rev, dest)
        label = rev
    return _read(label, dest)


def _wanted(rel: str) -> bool:
    """The files a side is made of: the YAML files directly inside cards/ and locales/, the books' sources,
    the card template (its labels are translated)."""
    if rel.startswith("templates/books/"):
        return rel.endswith((".md", ".yaml")) and rel.count("/") == 2
    if rel.startswith("templates/cards/"):
        return rel == "templates/cards/card.yaml"
    return rel.endswith((".yaml", ".yml")) and rel.count("/") == 1


def _copy_worktree(root: Path, dest: Path) -> None:
    """Copy the working tree's files through ``safeio``: a pipe, a device, a folder, a huge
    file or a link out of the project is refused (DiffError), never read."""
    for folder in FOLDERS:
        if not (root / folder).is_dir():
            continue
        try:
            entries = sorted((root / folder).iterdir())
        except OSError as exc:
            raise DiffError(f"{folder}/: cannot list the folder ({exc.strerror or exc})") from None
        for path in entries:
            rel = f"{folder}/{path.name}"
            if not _wanted(rel):
                continue
            try:
                data = safeio.read_bytes(path, root)
            except safeio.UnsafeInput as exc:
                raise DiffError(f"{rel}: {exc.message}; {exc.hint}") from None
            (dest / rel).write_bytes(data)


def _export(root: Path, prefix: str, rev: str, dest: Path) -> None:
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except DiffError:
        raise DiffError(f"unknown revision `{rev}`") from None
    listing = _git(root, "ls-tree", "-r", "-l", "-z", rev, "--", *(prefix + f for f in FOLDERS))
    for entry in filter(None, listing.decode("utf-8", "surrogateescape").split("\0")):
        meta, name = entry.split("\t", 1)
        size = meta.split()[3]
        rel = name[len(prefix):]
        if not _wanted(rel):
            continue
        if size.isdigit() and int(size) > safeio.MAX_INPUT_BYTES:
            raise DiffError(f"{rel} at {rev}: {int(size):,} bytes, more than the limit of "
                            f"{safeio.MAX_INPUT_BYTES:,}")
        (dest / rel).write_bytes(_git(root, "show", f"{rev}:{name}"))


def _read(label: str, dest: Path) -> Side:
    load = load_database(dest)
    side = Side(label, load)
    for _rel, _path, raw in load.raw_cards:
        if isinstance(raw.get("id"), str):
            side.raw.setdefault(raw["id"], raw)
    try:
        books = load_phrasebooks(dest)
    except PhraseError:
        books = {}
    for card in load.db.cards:
        side.texts[card.id] = {lang: _plain_text(book, card) for lang, book in books.items()}
    return side


def _plain_text(book: Phrasebook, card) -> list[str]:
    try:
        return [book.plain(line) for line in book.card_text(card)]
    except PhraseError as exc:
        return [f"(cannot print: {exc})"]


def _stale_french(old: Path, new: Path) -> list[StaleFrench]:
    """The French of ``new`` to review (its English changed since translated), with the English at ``old``."""
    from ..i18n import fingerprints, inventory  # lazy: loads markdown_it, forge.i18n ... only when needed

    after = inventory.build(new)
    tracking = fingerprints.Tracking(after, fingerprints.load(after.sources))
    stale = tracking.stale()
    if not stale:
        return []
    before = {p.id: p.en.text for p in inventory.build(old).pairs if p.en is not None}
    # a paragraph's id is made from its English: the record knows the id it had before
    return [StaleFrench(p.id, str(p.fr.position()), before.get(tracking.recorded[p.id] or p.id), p.en.text,
                        p.fr.text) for p in stale]


# -- comparing ------------------------------------------------------------------------------
def _card_change(cid: str, before: Side, after: Side) -> CardChange | None:
    a, b = before.raw[cid], after.raw[cid]
    fields = [key for key in _ordered_keys(a, b) if a.get(key) != b.get(key)]
    old_text, new_text = before.texts.get(cid, {}), after.texts.get(cid, {})
    text = {lang: (old_text.get(lang, []), new_text.get(lang, []))
            for lang in sorted(set(old_text) | set(new_text)) if old_text.get(lang) != new_text.get(lang)}
    if not fields and not text:
        return None
    return CardChange(cid, fields, text, {key: (a.get(key), b.get(key)) for key in fields})


def _ordered_keys(a: dict, b: dict) -> list[str]:
    return list(a) + [k for k in b if k not in a]


def summary_counts(db: CardDatabase) -> dict[str, object]:
    """The counts a designer watches: recruitment cards, traps, cards by faction, the cost curve."""
    recruit = db.of_set("recruit")
    by_faction: Counter = Counter()
    curve: Counter = Counter()
    for card in recruit:
        by_faction[card.faction or "neutral"] += card.copies
        curve[str(card.cost)] += card.copies
    return {
        "recruitment_cards": sum(c.copies for c in recruit),
        "traps": sum(c.copies for c in recruit if c.type == "trap"),
        "by_faction": dict(sorted(by_faction.items())),
        "cost_curve": dict(sorted(curve.items(), key=lambda kv: (len(kv[0]), kv[0]))),
    }


__all__ = ["DiffError", "DiffReport", "StaleFrench", "CardChange", "diff", "summary_counts"]
