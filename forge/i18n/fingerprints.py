"""Which English each French string was translated from: a fingerprint per stable id, in a sidecar file.

``locales/fr.fingerprints.yaml`` maps each stable id of the inventory to a short hash of
the English text the French was written (or last reviewed) against. The sources stay
clean: no marker in the card files or the books. When the English of an id changes, its
hash no longer matches: the French is *stale* (``forge parity`` warns at the French
string, the exported .po marks it fuzzy, ``forge diff`` lists it) until a translator
updates it (``forge i18n import``) or confirms it (``forge i18n reviewed``).

A project without the sidecar does not track staleness. The hash ignores how the English
is wrapped (runs of white space count as one space), so re-flowing a paragraph is not a change.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..core import atomic, safeio
from ..core.findings import WARNING, Finding
from .inventory import Inventory, Pair
from ..text.sources import Sources

SIDECAR = "locales/fr.fingerprints.yaml"
#: Recorded in place of a fingerprint when what a French string stands beside changed without its own
#: English (the worked example played again): never a hash, so the string reads stale until reviewed.
REVIEW = "review"
_HEADER = """\
# The English each French string was translated from: stable id -> fingerprint of that English.
# Written by `forge i18n import` and `forge i18n reviewed`; read by `forge parity`, `forge diff`
# and `forge i18n export` to find the French to review after the English changed. Do not edit
# by hand: run `forge i18n reviewed ID` once you have checked a French string. A book paragraph
# holds [English, French]: its id is made from its English, and its French finds it again when
# the English is edited.
"""


def fingerprint(text: str) -> str:
    """A short, stable hash of an English text, blind to how it is wrapped."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


@dataclass
class Record:
    """The recorded fingerprints (None when the project keeps no sidecar), and its read problems.

    ``french`` holds, for book prose, a fingerprint of the French as it was recorded: a
    paragraph's id is made from its English, so when the English is edited the id changes
    and the record is found again by the French it was made for.
    """

    prints: dict[str, str] | None = None
    findings: list[Finding] = field(default_factory=list)
    french: dict[str, str] = field(default_factory=dict)

    @property
    def tracked(self) -> bool:
        return self.prints is not None

    def copy(self) -> "Record":
        return Record(dict(self.prints or {}), [], dict(self.french))

    def put(self, pair: Pair, french: str) -> bool:
        """Record ``pair`` as translated from today's English into ``french``; True when the record changed."""
        prints = self.prints if self.prints is not None else {}
        self.prints = prints
        english = fingerprint(pair.en.text)
        changed = prints.get(pair.id) != english
        prints[pair.id] = english
        if _by_french(pair):
            fr = fingerprint(french)
            changed |= self.french.get(pair.id) != fr
            self.french[pair.id] = fr
        return changed


    def forget(self, old: str | None, keep: str) -> None:
        """Drop the entry ``old`` (the id a string was recorded under before its id changed), unless it is ``keep``."""
        if old and old != keep and self.prints is not None:
            self.prints.pop(old, None)
            self.french.pop(old, None)


def load(sources: Sources) -> Record:
    """Read the sidecar; a project without one does not track staleness."""
    path = sources.root / SIDECAR
    if not (path.exists() or path.is_symlink()):
        return Record()
    doc = sources.yaml(SIDECAR)
    if doc is None:  # the reading problem is already one of sources.findings
        return Record({})
    prints: dict[str, str] = {}
    record = Record(prints)
    for key, value in doc.data.items():
        if isinstance(key, str) and isinstance(value, str):
            prints[key] = value
        elif isinstance(key, str) and isinstance(value, list) and len(value) == 2 \
                and all(isinstance(v, str) for v in value):
            prints[key], record.french[key] = value
        else:
            record.findings.append(Finding(doc.at((key,)), "fingerprint", f"`{key}`: not an id and a fingerprint",
                                           "run `forge i18n reviewed --all` to write the file again"))
    return record


def translated(pair: Pair) -> bool:
    """Whether a pair has an English text and a French translation of it."""
    return bool(pair.en and pair.en.text.strip() and pair.fr and pair.fr.text.strip())


def _by_french(pair: Pair) -> bool:
    """Whether a pair's id is made from its English (book prose), so its record is also kept by its French."""
    return pair.kind.startswith("prose-") and pair.kind != "prose-meta"


class Tracking:
    """Under which id the record holds each translated string, and so which are stale or untracked.

    A string is found under its own id; else (book prose whose English was edited, so its
    id changed) under an id no string has any more whose recorded French is today's French;
    else under its numbered id of the previous scheme (a sidecar written before ids were
    made from the English). A string found nowhere is *untracked*: nothing says which
    English it was translated from, so ``parity`` asks for ``forge i18n reviewed``.
    """

    def __init__(self, inv: Inventory, record: Record):
        self.inv, self.record = inv, record
        self.recorded: dict[str, str | None] = {}
        if not record.tracked:
            return
        prints = record.prints
        ids = {p.id for p in inv.pairs}
        orphans: dict[str, list[str]] = {}
        for key in sorted(prints):
            if key not in ids and key in record.french:
                orphans.setdefault(record.french[key], []).append(key)
        used: set[str] = set()
        for pair in inv.pairs:
            if not translated(pair):
                continue
            found = pair.id if pair.id in prints else None
            if found is None and _by_french(pair):
                book = f"books/{pair.meta.get('book')}/"
                found = next((k for k in orphans.get(fingerprint(pair.fr.text), ())
                              if k not in used and k.startswith(book)), None)
                legacy = pair.meta.get("legacy")
                if found is None and legacy in prints and legacy not in ids and legacy not in used:
                    found = legacy
            if found is not None:
                used.add(found)
            self.recorded[pair.id] = found

    def is_stale(self, pair: Pair) -> bool:
        """Whether the French of ``pair`` was written against another English than today's."""
        known = self.recorded.get(pair.id)
        return known is not None and self.record.prints[known] != fingerprint(pair.en.text)

    def stale(self) -> list[Pair]:
        return [p for p in self.inv.pairs if self.is_stale(p)]

    def untracked(self) -> list[Pair]:
        """Translated strings the sidecar has no fingerprint for (their staleness cannot be told)."""
        return [p for p in self.inv.pairs if p.id in self.recorded and self.recorded[p.id] is None]

    def rekeyed(self) -> Record:
        """The record with every string found under another id moved to its id today, its English
        fingerprint kept (a stale string stays stale), today's French recorded for prose."""
        new = self.record.copy()
        pairs = {p.id: p for p in self.inv.pairs}
        for pid, known in self.recorded.items():
            pair = pairs[pid]
            if known is None or (known == pid and (pid in new.french or not _by_french(pair))):
                continue
            english = new.prints.pop(known)
            new.french.pop(known, None)
            new.prints[pid] = english
            if _by_french(pair):
                new.french[pid] = fingerprint(pair.fr.text)
        return new


def untracked(inv: Inventory, record: Record) -> list[Pair]:
    return Tracking(inv, record).untracked()


def stale(inv: Inventory, record: Record) -> list[Pair]:
    return Tracking(inv, record).stale()


def findings(inv: Inventory, record: Record) -> list[Finding]:
    """A warning at each French string whose English changed since it was translated, or that no record knows."""
    found = list(record.findings)
    tracking = Tracking(inv, record)
    for pair in tracking.stale():
        flagged = record.prints[tracking.recorded[pair.id]] == REVIEW
        why = ("what this French stands beside changed (the worked example was played again): read the French "
               "as the book now prints it" if flagged else "the French was translated from an English that has "
               "changed since")
        found.append(Finding(pair.fr.position(), "stale-translation",
                             f"`{pair.id}`: {why}; the English is now: {_excerpt(pair.en.text)}",
                             f"{'read' if flagged else 'update'} the French, then `forge i18n reviewed {pair.id}` "
                             "(or translate it in the exported .po/.xlf and import it)", severity=WARNING))
    for pair in tracking.untracked():
        found.append(Finding(pair.fr.position(), "untracked-translation", f"`{pair.id}`: no fingerprint says which "
                             f"English this French was translated from ({SIDECAR}), so it can never be reported "
                             f"stale; the English is: {_excerpt(pair.en.text)}",
                             f"check the French against the English, then run `forge i18n reviewed {pair.id}`",
                             severity=WARNING))
    return found


def _excerpt(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return json.dumps(flat if len(flat) <= width else flat[:width - 1] + "…", ensure_ascii=False)


def render(record: Record) -> str:
    """The sidecar's text: sorted, one quoted id a line with its fingerprint (book prose: ``[English, French]``),
    byte-identical run to run."""
    lines = []
    for key, value in sorted((record.prints or {}).items()):
        fr = record.french.get(key)
        shown = json.dumps([value, fr]) if fr else json.dumps(value)
        lines.append(f"{json.dumps(key, ensure_ascii=False)}: {shown}")
    return _HEADER + "".join(line + "\n" for line in lines)


def save(root: Path, record: Record) -> bool:
    """Write the sidecar if its text changes; True when it was written."""
    path = Path(root) / SIDECAR
    text = render(record)
    try:
        if safeio.read_text(path, root) == text:
            return False
    except (safeio.UnsafeInput, UnicodeDecodeError):
        pass  # missing or unreadable: written anew
    atomic.write_text(path, text)
    return True


def mark_reviewed(inv: Inventory, record: Record, ids: list[str] | None) -> tuple[Record, list[str], list[str]]:
    """The record with ``ids`` (every translated string when None) set to today's English.

    Returns the new record, the ids marked, and the ids that are not translated strings.
    With ``ids`` None the record is rebuilt: ids no longer in the inventory are dropped.
    A string recorded under another id (its English-made id changed) loses that old entry.
    """
    pairs = {p.id: p for p in inv.pairs}
    if ids is None:
        new = Record({})
        for pair in inv.pairs:
            if translated(pair):
                new.put(pair, pair.fr.text)
        return new, sorted(new.prints), []
    tracking = Tracking(inv, record)
    new = tracking.rekeyed()
    marked, unknown = [], []
    for pid in ids:
        pair = pairs.get(pid)
        if pair is None or not translated(pair):
            unknown.append(pid)
        else:
            new.put(pair, pair.fr.text)
            marked.append(pid)
    return new, marked, unknown


@dataclass
class Synced:
    """What ``synced`` did to the record: ids recorded, dropped, and flagged for review."""

    record: Record
    recorded: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)


def synced(inv: Inventory, record: Record, review: set[str] = frozenset(), only_review: bool = False) -> Synced:
    """The record brought up to date after an edit of the cards or the books (``forge sync``).

    A translated string the record does not know (a new card or key, written in both languages
    in the same change) gets today's English recorded: the author wrote the French, and the ids
    are listed for a translator to review. A string found under another id moves to its id and
    keeps its fingerprint (stale French stays stale). An id no string has any more (a removed
    card) is dropped. The ids in ``review`` are flagged (``REVIEW``): stale until reviewed.
    ``only_review`` does that alone (``forge build``: the rest is the designer's ``forge sync``).
    A project without the sidecar does not track staleness and is left so.
    """
    if not record.tracked:
        return Synced(record)
    tracking = Tracking(inv, record)
    out = Synced(tracking.rekeyed())
    for pair in [] if only_review else tracking.untracked():
        out.record.put(pair, pair.fr.text)
        out.recorded.append(pair.id)
    ids = {p.id for p in inv.pairs}
    out.removed = [] if only_review else sorted(k for k in out.record.prints if k not in ids)
    for key in out.removed:
        out.record.forget(key, "")
    for pair in inv.pairs:
        if pair.id in review and translated(pair) and out.record.prints.get(pair.id) != REVIEW:
            out.record.prints[pair.id] = REVIEW
            out.flagged.append(pair.id)
    return out


__all__ = ["SIDECAR", "REVIEW", "Record", "Synced", "synced", "Tracking", "fingerprint", "load", "stale", "findings",
           "render", "save", "mark_reviewed", "translated", "untracked"]
