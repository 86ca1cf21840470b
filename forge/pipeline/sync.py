"""``forge sync``: every file derived from the cards and the prose brought up to date after an edit.

What a designer would otherwise run one by one, and forget one of: the card-file schema
(``forge schema``), the French typography fixes (``forge parity --fix``), the worked example
(played again when it no longer replays), the translation fingerprints (new strings recorded,
removed ones dropped, the example's French flagged when it changed) and the tables of
docs/design.md (``forge docs``). Each file is written atomically and only when its text
changes, so a second run changes nothing; ``write=False`` (``--check``) only says what would.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core import atomic, safeio
from ..core.findings import ERROR, Finding
from ..carddb.model import Position
from ..carddb.schema import SCHEMA_PATH, schema_text


@dataclass
class Change:
    """One file brought up to date (or, with --check, that would be), and what changed in it."""

    path: str
    what: str


@dataclass
class SyncReport:
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    io_error: bool = False
    recorded: list[str] = field(default_factory=list)  # new French whose fingerprint was recorded: to review
    removed: list[str] = field(default_factory=list)  # fingerprints of strings no longer in the project
    flagged: list[str] = field(default_factory=list)  # French marked for review (the example played again)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.io_error and not any(f.severity == ERROR for f in self.findings)

    def to_json(self, write: bool) -> dict:
        return {"ok": self.ok, "written": write and bool(self.changes),
                "changed": [{"path": c.path, "change": c.what} for c in self.changes],
                "recorded": self.recorded, "removed": self.removed, "flagged": self.flagged,
                "findings": [f.to_json() for f in self.findings], "seconds": round(self.seconds, 2)}


def sync(root: Path | str, write: bool = True) -> SyncReport:
    """Bring every derived file of the project at ``root`` up to date; stop at the first step that
    cannot run (cards that do not validate, a file that cannot be read), having written nothing after it."""
    root = Path(root)
    started = time.perf_counter()
    report = SyncReport()
    checked = _valid(root, report)
    if checked is not None:
        _schema(root, report, write)
        fixed = report.ok and _typography(root, report, write)
        if fixed and write:  # the French of the cards changed: read them again
            checked = _valid(root, report)
        regenerated = checked is not None and report.ok and _example(root, checked.load.db, report, write)
        if report.ok:
            _fingerprints(root, report, write, regenerated)
        if checked is not None and report.ok:
            _docs(root, checked, report, write)
    report.seconds = time.perf_counter() - started
    return report


def _valid(root: Path, report: SyncReport):
    """The validation report, or None (its errors added to ``report``) when the cards do not validate."""
    from ..checks.validate import validate  # lazy: loads yaml, forge.checks ... only when needed

    checked = validate(root, extra=False)
    errors = [f for f in checked.findings if f.severity == ERROR]
    if errors or checked.io_error:
        report.findings += errors
        report.io_error |= checked.io_error
        return None
    return checked


def _publish(root: Path, rel: str, text: str, what: str, report: SyncReport, write: bool) -> bool:
    """Write ``text`` to ``rel`` when it differs (never through a link leaving the project); True when it did."""
    path = root / rel
    if not safeio.within(path, root):
        report.findings.append(Finding(Position(rel), "io", f"{rel} leads outside the project; forge does not "
                                       "write through a link", f"make {rel} an ordinary file of the project"))
        return False
    try:
        current = safeio.read_bytes(path, root).decode("utf-8", "replace")
    except safeio.UnsafeInput:  # missing, or not an ordinary file: written anew (never followed)
        current = None
    if current == text:
        return False
    if write:
        atomic.write_text(path, text)
    report.changes.append(Change(rel, what))
    return True


def _schema(root: Path, report: SyncReport, write: bool) -> None:
    _publish(root, SCHEMA_PATH, schema_text(), "the card-file schema written", report, write)


def _inventory(root: Path, report: SyncReport):
    """The translation inventory, or None (its reading problems added to ``report``)."""
    from ..i18n import inventory  # lazy: loads markdown_it, yaml ... only when needed

    inv = inventory.build(root)
    if inv.sources.findings:
        report.findings += inv.sources.findings
        report.io_error |= inv.sources.io_error
        return None
    return inv


def _typography(root: Path, report: SyncReport, write: bool) -> bool:
    """``forge parity --fix``'s corrections; True when a file changed (or would)."""
    from ..i18n.checks import typography  # lazy: loads markdown_it, yaml ... only when needed

    inv = _inventory(root, report)
    if inv is None:
        return False
    _, fixes = typography.check(inv)
    if not fixes:
        return False
    if write:
        from ..carddb.yamledit import fix_files  # lazy: loads yaml only when needed

        counts = fix_files(root, fixes)
    else:
        counts: dict[str, int] = {}
        for fix in set(fixes):
            counts[fix.file] = counts.get(fix.file, 0) + 1
    for rel, n in sorted(counts.items()):
        report.changes.append(Change(rel, f"{n} French typography fix{'es' if n != 1 else ''}"))
    return True


def _example(root: Path, db, report: SyncReport, write: bool) -> bool:
    """The worked example played again when its record no longer replays; True when it was (or would be)."""
    from ..books import example  # lazy: loads forge.books only when needed

    try:
        done = example.refresh(root, db, write)
    except example.ExampleError as exc:
        report.findings.append(Finding(Position(example.RECORD_PATH.as_posix()), "book", str(exc),
                                       "change the cards so that a short game shows these moments, or widen "
                                       "the search: python -m forge.books.example --seeds 0-1000"))
        return False
    except safeio.UnsafeInput as exc:
        report.findings.append(Finding(Position(example.RECORD_PATH.as_posix()), exc.rule, exc.message, exc.hint))
        return False
    if done is not None:
        report.changes.append(Change(done.path, done.describe()))
    return done is not None


def example_review_ids(inv) -> set[str]:
    """The rulebook prose of the section that holds the worked example: what a translator re-reads when
    the example is played again (its sentences are the engine's, the section around them is the book's)."""
    block = next((p for p in inv.pairs if p.kind.startswith("prose-") and "{block:worked_example}" in p.en.text), None)
    if block is None:
        return set()
    book, section = block.meta.get("book"), block.meta.get("section")
    return {p.id for p in inv.pairs if p.kind.startswith("prose-") and p.kind != "prose-heading"
            and p.meta.get("book") == book and p.meta.get("section") == section}


def _fingerprints(root: Path, report: SyncReport, write: bool, regenerated: bool, only_review: bool = False) -> None:
    from ..i18n import fingerprints  # lazy: loads markdown_it, yaml ... only when needed

    inv = _inventory(root, report)
    if inv is None:
        return
    record = fingerprints.load(inv.sources)
    if record.findings:
        report.findings += record.findings
        return
    done = fingerprints.synced(inv, record, example_review_ids(inv) if regenerated else set(), only_review)
    report.recorded, report.removed, report.flagged = done.recorded, done.removed, done.flagged
    parts = [f"{len(ids)} {what}" for ids, what in ((done.recorded, "new French recorded"),
                                                    (done.removed, "removed"), (done.flagged, "flagged for review"))
             if ids]
    _publish(root, fingerprints.SIDECAR, fingerprints.render(done.record), "fingerprints: " + ", ".join(parts)
             if parts else "fingerprints rewritten", report, write)


def _docs(root: Path, checked, report: SyncReport, write: bool) -> None:
    from ..render.design import DESIGN_DOC, fill  # lazy: loads forge.render, forge.text only when needed

    try:
        current = safeio.read_text(root / DESIGN_DOC, root)
    except (safeio.UnsafeInput, UnicodeDecodeError):
        return  # a project without the design document: nothing to fill (`forge check` says so if it should)
    _publish(root, DESIGN_DOC, fill(current, checked.load.db, checked.books), "design tables filled", report, write)


def regenerate_example(root: Path | str, db) -> SyncReport:
    """The worked example played again when it no longer replays, and its French flagged for review:
    what `forge build` does before the books (the rest of `forge sync` is the designer's to run)."""
    from ..books.example import RECORD_PATH  # lazy: loads forge.books only when needed
    from ..i18n.fingerprints import SIDECAR  # lazy: loads markdown_it, yaml ... only when needed

    root = Path(root)
    report = SyncReport()
    # the build writes only in its output folder, and these two sources (each checked to lie in the project)
    sources = [root / rel for rel in (RECORD_PATH.parent, Path(SIDECAR).parent) if safeio.within(root / rel, root)]
    with atomic.widened(*sources):
        if _example(root, db, report, True):
            _fingerprints(root, report, True, True, only_review=True)
    return report
