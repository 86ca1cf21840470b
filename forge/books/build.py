"""Building books: gather and check everything, render each (book, language) on its own core, write.

Like mkdocs: the database and every template are read and checked first; a book
is written only when its template produced no error, and always atomically.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..findings import Finding
from ..model import Position

BOOKS_OUT = "books"


@dataclass
class BookOutcome:
    """One book in one language: where it went, its size, and what was found."""

    kind: str
    lang: str
    path: str = ""
    pages: int = 0
    size: int = 0
    seconds: float = 0.0
    written: bool = False
    findings: list[Finding] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # from reading the PDF back
    io_error: str = ""

    def to_json(self) -> dict:
        return {"book": self.kind, "lang": self.lang, "path": self.path, "pages": self.pages, "bytes": self.size,
                "seconds": round(self.seconds, 2), "written": self.written, "preflight": self.problems,
                "findings": [f.to_json() for f in self.findings], **({"error": self.io_error} if self.io_error else {})}


def output_path(out: Path, kind: str, lang: str) -> Path:
    return Path(out) / BOOKS_OUT / f"{kind}-{lang}.pdf"


def build_one(root: str, kind: str, lang: str, out: str) -> BookOutcome:
    """Compose, render, read back and write one book (runs in a worker process)."""
    from .. import atomic
    from ..database import load_database
    from ..text import PhraseError, load_phrasebooks
    from .compose import BookIOError, compose, load_project, url_finding
    from .fetch import FetchRefused
    from .pdf import check_pdf, render_pdf, smuggled

    start = time.perf_counter()
    outcome = BookOutcome(kind, lang)
    path = output_path(Path(out), kind, lang)
    try:
        load = load_database(root)
        project = load_project(Path(root), load.db, load_phrasebooks(root))
        composed = compose(project, kind, lang)
    except (BookIOError, PhraseError) as exc:
        outcome.io_error = str(exc)
        return outcome
    outcome.findings = composed.findings
    if not composed.ok:
        outcome.seconds = time.perf_counter() - start
        return outcome
    try:
        data, outcome.pages = render_pdf(composed.html, composed.tail_html, Path(root).resolve().as_uri() + "/",
                                         composed.policy)
    except FetchRefused as exc:  # what the scan of the HTML missed, the fetcher still refused: nothing written
        outcome.findings += [url_finding(project, f"{kind}.{lang}.md", r.url, r.reason) for r in exc.refused]
        outcome.seconds = time.perf_counter() - start
        return outcome
    outcome.problems = check_pdf(data, text=False).problems
    leaked = smuggled(data)
    if leaked:  # never write a book that carries a file or an action out of the project
        outcome.findings += [Finding(Position(f"templates/books/{kind}.{lang}.md"), "url", f"{what}; not written",
                                     "remove attachments and links to local files from the templates")
                             for what in leaked]
        outcome.seconds = time.perf_counter() - start
        return outcome
    try:
        atomic.write_bytes(path, data)
    except OSError as exc:  # the previous book is kept (atomic write)
        outcome.io_error = atomic.describe(exc)
        return outcome
    outcome.path, outcome.size, outcome.written = path.as_posix(), len(data), True
    outcome.seconds = time.perf_counter() - start
    return outcome


def build_books(root: Path, kinds: tuple[str, ...], langs: tuple[str, ...], out: Path,
                workers: int | None = None) -> list[BookOutcome]:
    """Every asked book in every asked language, in parallel when there are several cores."""
    from ..workers import cap, cpus, process_pool

    from .. import atomic

    atomic.sweep_orphans(Path(out) / BOOKS_OUT)  # what a killed forge was writing
    jobs = [(str(root), kind, lang, str(out)) for kind in kinds for lang in langs]
    workers = cap(workers or cpus(), len(jobs))
    if workers == 1:
        return [build_one(*job) for job in jobs]
    with process_pool(workers) as pool:
        futures = [pool.submit(build_one, *job) for job in _heaviest_first(jobs)]
        done = {(o.kind, o.lang): o for o in (f.result() for f in futures)}
    return [done[(kind, lang)] for _, kind, lang, _ in jobs]


def _heaviest_first(jobs: list[tuple]) -> list[tuple]:
    """The reference is the longer book: start it first so the cores finish together."""
    return sorted(jobs, key=lambda job: job[1] != "reference")
