"""Building books: gather and check everything, render each (book, language) on its own core, write.

Like mkdocs: the database and every template are read and checked first; a book
is written only when its template produced no error, and always atomically.

Incremental: laying a book out with WeasyPrint takes many seconds, composing it (the HTML from
cards, locales and prose, the card pictures drawn) a few. Each book's key hashes what the layout
reads: its composed HTML and back cover, every file it may fetch (the template folders and
forge's assets), forge's code and the versions of the layout libraries. A book whose key, and
whose file on disk, match the sealed record in ``<out>/.cache/books.json`` is left as it is.
Before composing, a cheaper key (``sources_key``: the project's source folders, forge, the
options) tells a rebuild where nothing changed at all: then the book is not even composed.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
import gc
from importlib.metadata import PackageNotFoundError, version
import warnings

from ..core.findings import Finding
from ..carddb.model import Position
from ..core import atomic, safeio
from ..core.seal import SealedRecord
from ..core.workers import cap, cpus, process_pool
from .fetch import FetchRefused, fetchable_files
from .pdf import PAGES_PER_SHEET, check_pdf, read_pdf, render_book, smuggled

BOOKS_OUT = "books"
BOOK_RECORD = Path(".cache") / "books.json"
#: The project folders a book is made from (what ``forge diff`` compares): what ``sources_key`` hashes.
SOURCE_FOLDERS = ("cards", "locales", "templates")


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
    unchanged: bool = False  # its inputs and its file are as the record says: left as it is
    key: str = ""
    sources: str = ""  # sources_key: the record's shortcut past composing
    sha256: str = ""
    files: dict = field(default_factory=dict)  # print files: name -> {"path", "size", "sha256"}

    @property
    def ready(self) -> bool:
        """The book is on disk and current: written now, or left unchanged."""
        return self.written or self.unchanged

    def to_json(self) -> dict:
        return {"book": self.kind, "lang": self.lang, "path": self.path, "pages": self.pages, "bytes": self.size,
                "seconds": round(self.seconds, 2), "written": self.written, "unchanged": self.unchanged,
                "preflight": self.problems,
                "findings": [f.to_json() for f in self.findings], **({"error": self.io_error} if self.io_error else {}),
                **({"print": {name: f["path"] for name, f in self.files.items()}} if self.files else {})}


def output_path(out: Path, kind: str, lang: str) -> Path:
    return Path(out) / BOOKS_OUT / f"{kind}-{lang}.pdf"


def print_path(out: Path, kind: str, lang: str, name: str) -> Path:
    """Where a print file goes: ``press`` (the printer's PDF/X) or ``booklet-a4`` / ``booklet-letter``."""
    folder, _, sheet = name.partition("-")
    return Path(out) / BOOKS_OUT / folder / (f"{kind}-{lang}-{sheet}.pdf" if sheet else f"{kind}-{lang}.pdf")


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """forge's own code and assets, and the layout libraries' versions: a new forge lays out anew."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*")):
        if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts:
            h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for lib in ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "pyphen", "pillow", "pypdf"):
        try:
            h.update(f"{lib}={version(lib)}\0".encode())
        except PackageNotFoundError:
            h.update(f"{lib}=none\0".encode())
    return h.hexdigest()


def book_key(composed, root: Path, draft: str = "") -> str:
    """What the layout of ``composed`` depends on, as one hash (see the module's docstring)."""
    h = hashlib.sha256(_code_digest().encode())  # forge's assets (fonts, icons) included
    h.update(f"draft:{draft}\0".encode())
    documents = [composed.html]
    if composed.tail_html is not None:
        documents += [composed.tail_html(fillers) for fillers in range(PAGES_PER_SHEET)]
    project = Path(root).resolve()
    base = project.as_uri() + "/"
    # forge's own files by its package folder, first: when forge runs in its own checkout, the project
    # folder holds that package too, and its fonts must hash as they do for forge installed elsewhere
    package = safeio.FORGE_HOME / "forge"
    homes = ((package, "forge"), (project, "project"))
    forge_uri = package.as_uri() + "/"
    for markup in documents:
        # the books load forge's fonts by file: URL; the key must not depend on where forge lies
        h.update(markup.replace(forge_uri, "forge:").encode("utf-8") + b"\0")
        for path in fetchable_files(markup, base, composed.policy):
            try:
                data = safeio.read_bytes(path, Path(root))
            except (safeio.UnsafeInput, OSError):
                data = b"\0unreadable"  # the layout will refuse it too: the book is not written
            h.update(_portable(path, homes).encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def sources_key(root: Path, kind: str, lang: str, draft: str = "") -> str:
    """Everything a book is made from, hashed before it is composed: forge (``_code_digest``), the book,
    the options, the pinned clock, and every file of the project's ``SOURCE_FOLDERS``, by name and
    content. "" (no shortcut: the book is composed and its key decides) when a folder holds a link or
    a file that cannot be read, whose content the hash could not vouch for."""
    h = hashlib.sha256(_code_digest().encode())
    h.update(f"{kind}\0{lang}\0draft:{draft}\0epoch:{os.environ.get('SOURCE_DATE_EPOCH', '')}\0".encode())
    project = Path(root)
    for folder in SOURCE_FOLDERS:
        base = project / folder
        if base.is_symlink():
            return ""
        for path in sorted(base.rglob("*")) if base.is_dir() else ():
            if path.is_symlink():
                return ""
            if path.is_dir():
                continue
            if not path.is_file():
                return ""  # a pipe or a device: never opened here
            try:
                with path.open("rb") as f:
                    digest = hashlib.file_digest(f, "sha256").digest()
            except OSError:
                return ""
            h.update(path.relative_to(project).as_posix().encode() + b"\0" + digest)
    return h.hexdigest()


def _portable(path: Path, homes: tuple[tuple[Path, str], ...]) -> str:
    """A fetched file's name as the key hashes it: relative to forge's package (its own assets) or to
    the project, never where either lies: the key names the press file, which must be the
    same bytes from any folder."""
    for home, tag in homes:
        if path.is_relative_to(home):
            return f"{tag}:{path.relative_to(home).as_posix()}"
    return path.as_posix()  # not fetchable (the policy reads only inside the project): kept as it was


def _on_disk(path: Path, known: dict) -> bool:
    """The file at ``path`` is the one the record describes (size, then hash: an edit behind forge's back)."""
    from ..render.jobs import read_own  # lazy: loads reportlab, yaml ... only when needed

    size = known.get("size")
    data = read_own(path, limit=size) if isinstance(size, int) and size > 0 else None
    return data is not None and len(data) == size and hashlib.sha256(data).hexdigest() == known.get("sha256")


def build_one(root: str, kind: str, lang: str, out: str, known: dict | None = None, draft: str = "",
              press: bool = False) -> BookOutcome:
    """Compose, render, read back and write one book (runs in a worker process); with ``press``, its
    print files too (``forge.books.printing``).

    ``known`` is the record of the book's last build; when its key and files still match,
    the book is not laid out again.

    The cyclic garbage collector waits until the book is done: WeasyPrint's box trees are hundreds
    of thousands of young objects, and the collector's passes over them took about an eighth of a
    book's CPU time. What it would free is freed after, in a process that goes on; a pool worker
    of ``build_books`` never runs it (its cycles, some hundred MB a book, go with the process, and
    one last pass over them would cost a quarter of a second a book)."""
    from ..carddb.database import gc_paused  # lazy: loads yaml only when needed

    with gc_paused():
        return _build_one(root, kind, lang, out, known, draft, press)


def _build_one(root: str, kind: str, lang: str, out: str, known: dict | None, draft: str,
               press: bool) -> BookOutcome:
    from ..text.cardtext import PhraseError  # lazy: loads forge.text only when needed
    from .compose import BookIOError, url_finding  # lazy: loads jinja2, markdown_it ... only when needed
    from .printing import print_files  # lazy: loads pydyf only when needed

    start = time.perf_counter()
    outcome = BookOutcome(kind, lang)
    path = output_path(Path(out), kind, lang)
    outcome.sources = sources_key(Path(root), kind, lang, draft)
    if _left_alone(outcome.sources, known, out, kind, lang, press):
        outcome.key = known["key"]
        outcome.findings = findings_of(known.get("findings"))
        return _unchanged(outcome, path, known, start)
    try:
        project, composed = _COMPOSED.get((root, kind, lang, draft)) or _compose(root, kind, lang, draft)
    except (BookIOError, PhraseError) as exc:
        outcome.io_error = str(exc)
        return outcome
    outcome.findings = list(composed.findings)  # a copy: the web edition may share ``composed`` (build_books)
    if not composed.ok:
        outcome.seconds = time.perf_counter() - start
        return outcome
    outcome.key = book_key(composed, Path(root), draft)
    if known and known.get("key") == outcome.key and _current(known, out, kind, lang, press):
        return _unchanged(outcome, path, known, start)
    try:
        rendered = render_book(composed.html, composed.tail_html, Path(root).resolve().as_uri() + "/",
                               composed.policy, press=outcome.key if press else None)
        data, outcome.pages = rendered.screen, rendered.pages
    except FetchRefused as exc:  # what the scan of the HTML missed, the fetcher still refused: nothing written
        outcome.findings += [url_finding(project, f"{kind}.{lang}.md", r.url, r.reason) for r in exc.refused]
        outcome.seconds = time.perf_counter() - start
        return outcome
    if draft:  # --force on a database validate refuses: never mistaken for the game
        from ..render.draft import stamp_pdf  # lazy: loads forge.render only when needed

        data = stamp_pdf(data, draft)
    screen = read_pdf(data)
    outcome.problems = check_pdf(data, text=False, reader=screen).problems
    printed = print_files(rendered.press, rendered.booklets, draft) if press else {}
    outcome.problems += [problem for name, file in printed.items() for problem in file.problems]
    leaked = smuggled(data, reader=screen)
    if leaked:  # never write a book that carries a file or an action out of the project
        outcome.findings += [Finding(Position(f"templates/books/{kind}.{lang}.md"), "url", f"{what}; not written",
                                     "remove attachments and links to local files from the templates")
                             for what in leaked]
        outcome.seconds = time.perf_counter() - start
        return outcome
    try:
        atomic.write_bytes(path, data)
        for name, file in printed.items():
            target = print_path(Path(out), kind, lang, name)
            atomic.write_bytes(target, file.data)
            outcome.files[name] = {"path": target.as_posix(), **file.record}
        for stale in (known or {}).get("files", {}) if not press else ():
            print_path(Path(out), kind, lang, stale).unlink(missing_ok=True)  # an older layout's: never mistaken for it
    except OSError as exc:  # the previous book is kept (atomic write)
        outcome.io_error = atomic.describe(exc)
        return outcome
    outcome.path, outcome.size, outcome.written = path.as_posix(), len(data), True
    outcome.sha256 = hashlib.sha256(data).hexdigest()
    outcome.seconds = time.perf_counter() - start
    return outcome


def _left_alone(sources: str, known: dict | None, out: str, kind: str, lang: str, press: bool) -> bool:
    """Whether the book's ``sources_key`` is the record's and its files are on disk as the record says: then
    it is left as it is, not even composed."""
    return bool(sources) and bool(known) and known.get("sources") == sources and _current(known, out, kind, lang,
                                                                                         press)


def _compose(root: str, kind: str, lang: str, draft: str) -> tuple:
    """(the project, the book composed from it) (``forge.books.compose``); raises BookIOError, PhraseError."""
    from ..carddb.database import load_database  # lazy: loads yaml only when needed
    from ..text.cardtext import load_phrasebooks  # lazy: loads forge.text only when needed
    from .compose import compose, load_project  # lazy: loads jinja2, markdown_it ... only when needed

    load = load_database(root)
    project = load_project(Path(root), load.db, load_phrasebooks(root))
    project.draft = bool(draft)
    return project, compose(project, kind, lang)


#: Books composed before the pool's workers are forked, by (root, kind, lang, draft): a worker finds its
#: book here instead of composing it again (a spawned worker, which inherits nothing, composes its own).
_COMPOSED: dict[tuple, tuple] = {}


def _compose_first(jobs: list[tuple]) -> dict[tuple[str, str], object]:
    """Compose here, once, every book of ``jobs`` that will be laid out (not left as it is by its
    ``sources_key``), for the workers (``_COMPOSED``) and for the caller: by (kind, lang), the
    composed books the web edition lays out too (``forge.books.web.build_web``). One that fails to
    compose is left to its worker, which reports why."""
    from ..carddb.database import gc_paused  # lazy: loads yaml only when needed
    from ..text.cardtext import PhraseError  # lazy: loads forge.text only when needed
    from .compose import BookIOError  # lazy: loads jinja2, markdown_it ... only when needed

    out = {}
    with gc_paused():  # as in build_one: the collector's passes over a composition's young objects
        for root, kind, lang, target, known, draft, press in jobs:
            if _left_alone(sources_key(Path(root), kind, lang, draft), known, target, kind, lang, press):
                continue
            try:
                _COMPOSED[(root, kind, lang, draft)] = pair = _compose(root, kind, lang, draft)
            except (BookIOError, PhraseError):
                continue
            out[(kind, lang)] = pair[1]
    return out


def _current(known: dict, out: str, kind: str, lang: str, press: bool) -> bool:
    """The book's file, and with ``press`` its print files, are on disk as the record describes them."""
    from .printing import files_on_disk  # lazy: loads pydyf only when needed

    return _on_disk(output_path(Path(out), kind, lang), known) and (
        not press or files_on_disk(known.get("files"),
                                   lambda name, rec: _on_disk(print_path(Path(out), kind, lang, name), rec)))


def _unchanged(outcome: BookOutcome, path: Path, known: dict, start: float) -> BookOutcome:
    """``outcome`` as the record describes the book: left as it is."""
    outcome.path, outcome.size, outcome.pages = path.as_posix(), known["size"], known["pages"]
    outcome.sha256, outcome.problems, outcome.unchanged = known["sha256"], list(known["problems"]), True
    outcome.files = dict(known.get("files") or {})
    outcome.seconds = time.perf_counter() - start
    return outcome


def finding_rows(findings: list[Finding]) -> list[list]:
    """Findings as a record keeps them (JSON): a book left as it is, not composed, still reports them."""
    return [[f.position.file, f.position.line, f.position.col, f.rule, f.message, f.hint, f.severity]
            for f in findings]


def findings_of(rows) -> list[Finding]:
    """The findings a record kept (``finding_rows``), as they were."""
    return [Finding(Position(file, line, col), rule, message, hint, severity)
            for file, line, col, rule, message, hint, severity in rows or ()]


def build_books(root: Path, kinds: tuple[str, ...], langs: tuple[str, ...], out: Path,
                workers: int | None = None, draft: str = "", press: bool = False,
                composed: dict | None = None) -> list[BookOutcome]:
    """Every asked book in every asked language, in parallel when there are several cores; with
    ``press``, their print files too.

    With ``composed`` (a dict, for the web edition that follows: ``build_web(composed=...)``), the
    books to lay out are composed here, before the workers are forked (they inherit them), and put
    in it by (kind, lang): a cold ``forge build`` composes each book once, not once for its PDF and
    once more for its web page. Not for a draft, whose books are composed as drafts (``Project.draft``)."""

    atomic.sweep_orphans(Path(out) / BOOKS_OUT)  # what a killed forge was writing
    record = _read_record(Path(out))
    jobs = [(str(root), kind, lang, str(out), record.get(f"{kind}-{lang}"), draft, press)
            for kind in kinds for lang in langs]
    workers = cap(workers or cpus(), len(jobs))
    try:
        if composed is not None and not draft:
            composed.update(_compose_first(jobs))
        if workers == 1:
            outcomes = [build_one(*job) for job in jobs]
        else:
            if any(known is None for *_, known, _, _ in jobs):
                _preload()  # a book never built here is laid out: its workers inherit the layout libraries

            with process_pool(workers, then=gc.disable) as pool:  # see build_one: a worker lives for two books or so
                futures = [pool.submit(build_one, *job) for job in _heaviest_first(jobs)]
                done = {(o.kind, o.lang): o for o in (f.result() for f in futures)}
            outcomes = [done[(kind, lang)] for _, kind, lang, *_ in jobs]
    finally:
        _COMPOSED.clear()  # the caller's dict keeps what it asked for
    _write_record(Path(out), record, outcomes)
    return outcomes


def _preload() -> None:
    """Import what laying out a book needs, once, before the workers are forked (they share it): each
    worker would otherwise spend most of a second on it (WeasyPrint alone declares its C interface with
    cffi at import), CPU time that a machine shared with other work pays for. Only when a book has no
    record: a build where nothing changed needs no layout, nor this."""
    # lazy: loads pypdf only when needed
    import pypdf  # noqa: F401 - the read-back

    # lazy: loads reportlab, yaml ... only when needed
    from ..render import draw, preflight  # noqa: F401 - the cards' drawing (reportlab), the print preflight
    # lazy: loads jinja2, markdown_it ... only when needed
    from . import compose, pdf, printing  # noqa: F401

    with warnings.catch_warnings():  # as in pdf.render_book
        warnings.simplefilter("ignore", DeprecationWarning)
        # lazy: loads weasyprint only when needed
        import weasyprint  # noqa: F401
    _code_digest()


def _read_record(out: Path) -> dict:
    """The sealed record of the last build (book -> key, size, hash, pages, problems), or nothing."""
    return book_record(out).load() or {}  # a record this machine did not write is no record


def book_record(out: Path):
    """The sealed record of the last build (``BOOK_RECORD``)."""
    return SealedRecord(Path(out) / BOOK_RECORD, "book build", folder=out)


def _write_record(out: Path, record: dict, outcomes: list[BookOutcome]) -> None:
    books = dict(record)
    for o in outcomes:
        name = f"{o.kind}-{o.lang}"
        if o.ready:
            books[name] = {"key": o.key, "sources": o.sources, "size": o.size, "sha256": o.sha256, "pages": o.pages,
                           "problems": list(o.problems), "files": o.files, "findings": finding_rows(o.findings)}
        else:
            books.pop(name, None)  # not current any more: laid out again next time
    if books != record:
        book_record(out).save(books, quiet=True)  # unsaved: the books are laid out again next time, nothing lost


def _heaviest_first(jobs: list[tuple]) -> list[tuple]:
    """The reference is the longer book: start it first so the cores finish together."""
    return sorted(jobs, key=lambda job: job[1] != "reference")
