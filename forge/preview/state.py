"""The preview's state: the cards, their proof images and findings, rebuilt when a file is saved.

After each save the project is validated (all of ``forge validate``) and every
card gets a key per language: a hash of its own data, the card template, the
locales, its art file, and its printed face (text class size, collector number),
which may depend on other cards. A card whose key changed is drawn again, those the designer just
edited first, one image at a time, so a save shows on the page within a second
while the rest catches up. A card whose file stops loading keeps its last image,
marked stale, until the file loads again.
"""
from __future__ import annotations

import bisect
import hashlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..core.findings import Finding
from ..core import safeio

IMAGE_WIDTH = 360  # pixels across the trimmed card: sharp on a laptop, ~40 KB a JPEG


@dataclass
class CardView:
    """One card as the page shows it."""

    id: str
    file: str = ""
    line: int = 0
    name: str = ""
    type: str = ""
    images: dict[str, bytes] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)  # lang -> the key its image was drawn from
    wanted: dict[str, str] = field(default_factory=dict)  # lang -> the key it should be drawn from
    stale: bool = False
    findings: list[dict] = field(default_factory=list)
    order: int = 0


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False).encode()).hexdigest()


def _files_digest(root: Path, folder: str) -> str:
    h = hashlib.sha256()
    base = Path(root) / folder
    for path in sorted(base.rglob("*")) if base.is_dir() else []:
        if path.is_file() and not path.is_symlink():
            try:
                h.update(path.relative_to(base).as_posix().encode() + safeio.read_bytes(path, root))
            except (safeio.UnsafeInput, OSError):
                h.update(b"\0unreadable")
    return h.hexdigest()


class PreviewState:
    """Thread-safe: the watch loop changes it, the server's threads read it (``snapshot``, ``image``)."""

    def __init__(self, root: Path, langs: tuple[str, ...] = ("en", "fr"), width: int = IMAGE_WIDTH):
        self.root, self.langs, self.width = Path(root), langs, width
        self.changed = threading.Condition()
        self.version = 0
        self.cards: dict[str, CardView] = {}
        self.general: list[dict] = []  # findings that belong to no card
        self.summary: dict = {}
        self._raw: dict[str, dict] = {}
        self._queue: list[tuple[str, str]] = []
        self._load = None
        self._books: dict = {}
        self._built: dict = {}

    # -- reading (server threads) ----------------------------------------------------
    def snapshot(self) -> dict:
        with self.changed:
            cards = sorted(self.cards.values(), key=lambda c: c.order)
            return {"version": self.version, "summary": dict(self.summary), "findings": list(self.general),
                    "langs": list(self.langs), "pending": len(self._queue),
                    "cards": [{"id": c.id, "name": c.name, "type": c.type, "file": c.file, "line": c.line,
                               "stale": c.stale, "findings": list(c.findings),
                               "images": {lang: c.keys[lang][:16] for lang in c.images}} for c in cards]}

    def image(self, card_id: str, lang: str) -> bytes | None:
        with self.changed:
            card = self.cards.get(card_id)
            return card.images.get(lang) if card else None

    def wait(self, version: int, timeout: float, stop: threading.Event | None = None) -> int:
        """Block until the version passes ``version``, ``stop`` is set (and ``changed`` notified) or ``timeout``
        seconds pass; the current version."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or (stop is not None and stop.is_set()), timeout)
            return self.version

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    # -- rebuilding (the watch loop) --------------------------------------------------
    def rebuild(self) -> None:
        """Validate the project and queue the cards whose images are out of date."""
        from ..render.template import TemplateError, load_template  # lazy: loads reportlab, yaml ... only when needed
        from ..checks.validate import validate  # lazy: loads yaml, forge.carddb ... only when needed

        report = validate(self.root, extra=True)
        load = report.load
        try:
            template = load_template(self.root).digest
        except TemplateError:
            template = "unusable"
        locales = _files_digest(self.root, "locales")
        raws = {raw.get("id"): (rel, path, raw) for rel, path, raw in load.raw_cards if isinstance(raw.get("id"), str)}
        unloaded = {p.file for p in load.unloaded}
        built = {c.id: c for c in load.db.cards}
        faces = self._faces(load, report.books)
        with self.changed:
            edited = [cid for cid, (_, _, raw) in raws.items() if self._raw.get(cid) != raw]
            for cid in list(self.cards):
                if cid not in raws and self.cards[cid].file not in unloaded:
                    del self.cards[cid]  # deleted from a file that loads
            for order, (cid, (rel, path, raw)) in enumerate(raws.items()):
                view = self.cards.setdefault(cid, CardView(cid))
                view.file, view.line, view.order = rel, load.where(rel, path).line, order
                name = raw.get("name")
                view.name = str(name.get("en", cid)) if isinstance(name, dict) else cid
                view.type = str(raw.get("type", ""))
                view.stale = cid not in built
                if cid in built:
                    key = _digest(raw, template, locales, self._art_digest(raw))
                    view.wanted = {lang: _digest(key, lang, faces[(cid, lang)].key(template))
                                   if (cid, lang) in faces else _digest(key, lang) for lang in self.langs}
            for view in self.cards.values():
                if view.id not in raws:
                    view.stale = True
            self._raw = {cid: raw for cid, (_, _, raw) in raws.items()}
            self._load, self._books, self._built = load, report.books, faces
            self._place_findings(report.findings, load)
            errors = sum(f.severity == "error" for f in report.findings)
            self.summary = {"errors": errors, "warnings": len(report.findings) - errors,
                            "cards": len(load.db.cards), "skipped": list(report.skipped)}
            first = [(cid, lang) for cid in edited if cid in built for lang in self.langs]
            rest = [(v.id, lang) for v in sorted(self.cards.values(), key=lambda c: c.order)
                    for lang in self.langs if v.id in built and v.keys.get(lang) != v.wanted.get(lang)]
            self._queue = [job for job in dict.fromkeys(first + rest)
                           if self.cards[job[0]].keys.get(job[1]) != self.cards[job[0]].wanted.get(job[1])]
            self._bump()

    def _faces(self, load, books: dict) -> dict:
        """Every card's face as printed: at its text class's size, which depends on the other cards of
        its class (so an edit may redraw a neighbour), with its collector number."""
        from ..render.face import build_faces  # lazy: loads forge.carddb, forge.render only when needed

        if not books or not load.db.cards:
            return {}
        try:
            every = build_faces(load.db, books, list(self.langs), self.root)
        except Exception:  # a face that cannot be built is drawn from the card alone, and reported
            return {}
        return {(f.id, f.lang): f for fs in every.values() for f in fs}

    def _art_digest(self, raw: dict) -> str:
        art = raw.get("art")
        if not isinstance(art, str):
            return ""

        try:
            return hashlib.sha256(safeio.read_bytes(self.root / art, self.root)).hexdigest()
        except (safeio.UnsafeInput, OSError):
            return "missing"

    def _place_findings(self, findings: list[Finding], load) -> None:
        """Each finding beside the card whose lines it points into; the others above the cards."""
        starts: dict[str, list[tuple[int, str]]] = {}
        for view in self.cards.values():
            starts.setdefault(view.file, []).append((view.line, view.id))
        for lines in starts.values():
            lines.sort()
        for view in self.cards.values():
            view.findings = []
        self.general = []
        for f in findings:
            entry = {"at": str(f.position), "rule": f.rule, "severity": f.severity, "message": f.message,
                     "hint": f.hint}
            lines = starts.get(f.position.file, [])
            i = bisect.bisect_right(lines, (f.position.line, "\uffff")) - 1
            if f.position.line and i >= 0:
                self.cards[lines[i][1]].findings.append(entry)
            else:
                self.general.append(entry)

    def pending(self) -> bool:
        with self.changed:
            return bool(self._queue)

    def render_next(self) -> None:
        """Draw the first queued image (outside the lock: the page keeps answering meanwhile)."""
        from ..books.anatomy import render_card  # lazy: loads forge.books, forge.carddb only when needed

        with self.changed:
            if not self._queue:
                return
            cid, lang = self._queue.pop(0)
            load, books, view, face = self._load, self._books, self.cards.get(cid), self._built.get((cid, lang))
            card = next((c for c in load.db.cards if c.id == cid), None) if load else None
            key = view.wanted.get(lang) if view else None
        if card is None or key is None or lang not in books:
            return
        try:
            data, _, _ = render_card(card, load.db, books[lang], lang, self.root, self.width, face=face)
        except Exception as exc:  # a card the renderer cannot draw is a finding, not a crash
            with self.changed:
                view.findings.append({"at": view.file, "rule": "render", "severity": "error",
                                      "message": f"cannot draw the card: {type(exc).__name__}: {exc}", "hint": ""})
                self._bump()
            return
        with self.changed:
            if view.wanted.get(lang) == key:  # not changed again meanwhile
                view.images[lang], view.keys[lang] = data, key
                self._bump()
