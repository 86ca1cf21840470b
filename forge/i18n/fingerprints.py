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

from .. import atomic, safeio
from ..findings import WARNING, Finding
from .inventory import Inventory, Pair
from .sources import Sources

SIDECAR = "locales/fr.fingerprints.yaml"
_HEADER = """\
# The English each French string was translated from: stable id -> fingerprint of that English.
# Written by `forge i18n import` and `forge i18n reviewed`; read by `forge parity`, `forge diff`
# and `forge i18n export` to find the French to review after the English changed. Do not edit
# by hand: run `forge i18n reviewed ID` once you have checked a French string.
"""


def fingerprint(text: str) -> str:
    """A short, stable hash of an English text, blind to how it is wrapped."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


@dataclass
class Record:
    """The recorded fingerprints (None when the project keeps no sidecar), and its read problems."""

    prints: dict[str, str] | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def tracked(self) -> bool:
        return self.prints is not None


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
        else:
            record.findings.append(Finding(doc.at((key,)), "fingerprint", f"`{key}`: not an id and a fingerprint",
                                           "run `forge i18n reviewed --all` to write the file again"))
    return record


def translated(pair: Pair) -> bool:
    """Whether a pair has an English text and a French translation of it."""
    return bool(pair.en and pair.en.text.strip() and pair.fr and pair.fr.text.strip())


def is_stale(pair: Pair, record: Record) -> bool:
    """Whether the French of ``pair`` was written against another English than today's.

    A string with no record (French typed straight into the sources, a new card) is not
    stale: nothing says which English it was written against. ``forge i18n reviewed`` or an
    import records it; ``untracked`` lists such strings.
    """
    if not (record.tracked and translated(pair)):
        return False
    known = record.prints.get(pair.id)
    return known is not None and known != fingerprint(pair.en.text)


def untracked(inv: Inventory, record: Record) -> list[Pair]:
    """Translated strings the sidecar has no fingerprint for (their staleness cannot be told)."""
    return [p for p in inv.pairs if record.tracked and translated(p) and p.id not in record.prints]


def stale(inv: Inventory, record: Record) -> list[Pair]:
    return [p for p in inv.pairs if is_stale(p, record)]


def findings(inv: Inventory, record: Record) -> list[Finding]:
    """A warning at each French string whose English changed since it was translated."""
    found = list(record.findings)
    for pair in stale(inv, record):
        found.append(Finding(pair.fr.position(), "stale-translation", f"`{pair.id}`: the French was translated "
                             "from an English that has changed since; "
                             f"the English is now: {_excerpt(pair.en.text)}",
                             f"update the French, then `forge i18n reviewed {pair.id}` "
                             "(or translate it in the exported .po/.xlf and import it)", severity=WARNING))
    return found


def _excerpt(text: str, width: int = 80) -> str:
    flat = " ".join(text.split())
    return json.dumps(flat if len(flat) <= width else flat[:width - 1] + "…", ensure_ascii=False)


def render(prints: dict[str, str]) -> str:
    """The sidecar's text: sorted, one quoted id and fingerprint a line, byte-identical run to run."""
    lines = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v)}" for k, v in sorted(prints.items())]
    return _HEADER + "".join(line + "\n" for line in lines)


def save(root: Path, prints: dict[str, str]) -> bool:
    """Write the sidecar if its text changes; True when it was written."""
    path = Path(root) / SIDECAR
    text = render(prints)
    try:
        if safeio.read_text(path, root) == text:
            return False
    except (safeio.UnsafeInput, UnicodeDecodeError):
        pass  # missing or unreadable: written anew
    atomic.write_text(path, text)
    return True


def mark_reviewed(inv: Inventory, record: Record, ids: list[str] | None) -> tuple[dict[str, str], list[str], list[str]]:
    """The record with ``ids`` (every translated string when None) set to today's English.

    Returns the new record, the ids marked, and the ids that are not translated strings.
    With ``ids`` None the record is rebuilt: ids no longer in the inventory are dropped.
    """
    pairs = {p.id: p for p in inv.pairs}
    if ids is None:
        new = {p.id: fingerprint(p.en.text) for p in inv.pairs if translated(p)}
        return new, sorted(new), []
    new = dict(record.prints or {})
    marked, unknown = [], []
    for pid in ids:
        pair = pairs.get(pid)
        if pair is None or not translated(pair):
            unknown.append(pid)
        else:
            new[pid] = fingerprint(pair.en.text)
            marked.append(pid)
    return new, marked, unknown


__all__ = ["SIDECAR", "Record", "fingerprint", "load", "stale", "findings", "render", "save", "mark_reviewed",
           "is_stale", "translated", "untracked"]
