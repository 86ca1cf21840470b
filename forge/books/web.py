"""The web edition: each book in each language as one static, accessible, self-contained HTML page.

The text is the PDF's: ``compose`` gives the body the prose pipeline made and the
layout's context (titles, contents, cover cards); this module lays them out for
a screen with forge's own layout ``forge/books/layout/page.html.j2`` (autoescaped), after
``webrewrite`` has made every card name a preview of the card and anchored the
keywords for the index. Every book of every language is composed, so that the
language switch and the links between the books land on the same section of the
other page; only the asked pages are written, atomically, next to the PDFs.

Nothing is loaded from outside the page (``webassets``): the same inputs give the
same bytes.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import time
from dataclasses import dataclass, field
from typing import ClassVar
from pathlib import Path

from markupsafe import Markup

from ..render.draft import MARK as DRAFT_MARK
from ..core.findings import Finding, WARNING
from ..carddb.model import Card, Position
from ..text.cardtext import parse_markup, PhraseError, load_phrasebooks
from . import content
from .build import BOOKS_OUT, sources_key, finding_rows, findings_of
from ..carddb import yamlsrc
from .compose import (BOOKS, BookIOError, Composed, Project, compose, layout_environment, layout_finding,
                      load_project, read_source)
from .typography import typeset
from .webassets import (AssetCache, BOOK_SCRIPT, PREVIEW_PX, PREVIEW_QUALITY, content_policy, data_uri, font_faces,
                        local_image, share_images)
from .webrewrite import Heading, Rewritten, rewrite
from ..carddb.database import load_database
from ..core import atomic
from ..core.csp import forge_script
from ..core.seal import SealedRecord
from ..render.jobs import differs, read_own
from ..render.template import load_template
from .anatomy import classed_face, render_card
from .webcss import unstyled

WEB_DIR = "web"
#: forge's web layout and script (package files, never a project's).
PAGE = "page.html.j2"
_ICON_ALT = re.compile(r'(<img class="(?:icon|medal)\b[^"]*" src="[^"]*" alt=")([a-z_]+)(")')


@dataclass
class WebOutcome:
    """One web page: where it went, its size, and what was found."""

    kind: str
    lang: str
    path: str = ""
    size: int = 0
    seconds: float = 0.0
    written: bool = False
    unchanged: bool = False  # the page on disk already had these bytes
    sha256: str = ""
    findings: list[Finding] = field(default_factory=list)
    io_error: str = ""
    web: ClassVar[bool] = True  # told apart from a PDF's outcome in the command's report

    @property
    def ready(self) -> bool:
        """The page is on disk and current: written now, or already so."""
        return self.written or self.unchanged

    def to_json(self) -> dict:
        return {"book": self.kind, "lang": self.lang, "edition": "web", "path": self.path, "bytes": self.size,
                "seconds": round(self.seconds, 2), "written": self.written, "unchanged": self.unchanged,
                "findings": [f.to_json() for f in self.findings], **({"error": self.io_error} if self.io_error else {})}


def web_path(out: Path, kind: str, lang: str) -> Path:
    return Path(out) / BOOKS_OUT / f"{kind}-{lang}.html"


# -- one language's names ------------------------------------------------------------------
@dataclass
class Words:
    """What the pages of one language call things: cards, keywords, icons, and the web labels."""

    lang: str
    L: content.Language
    w: dict

    @property
    def names(self) -> dict[str, str]:
        """Card name -> id; a name two cards share is left out (it could preview the wrong card)."""
        found: dict[str, list[str]] = {}
        for card in self.L.db.cards:
            found.setdefault(self.L.name(card), []).append(card.id)
        return {name: ids[0] for name, ids in found.items() if len(ids) == 1}

    @property
    def keywords(self) -> dict[str, str]:
        return {self.L.keyword(key).casefold(): key for key in content.KEYWORD_KEYS}

    @property
    def icons(self) -> dict[str, str]:
        """The alternative text of each card icon, in this language."""
        labels = {f.id: self.L.faction_word(f.id) for f in self.L.db.factions}
        labels.update(soul=self.L.type_word("soul"), demise=self.L.keyword("demise"), trap=self.L.type_word("trap"),
                      activate=str(self.w.get("activate", "activate")))
        return labels

    def card_alt(self, card: Card) -> str:
        """A card as words, for a reader who does not see its picture: name, type, cost and text."""
        icons = self.icons
        lines = ["".join(icons.get(s.value, s.value) if s.kind == "icon" else s.value for s in parse_markup(line))
                 for line in self.L.text(card)]
        head = f"{self.L.name(card)} — {self.L.book.type_line(card)}"
        if card.cost is not None:
            head += f" ({card.cost})"
        return " ".join([head + ("." if lines else "")] + lines)


def _web_strings(project: Project) -> dict:
    path = project.source(f"{WEB_DIR}/strings.yaml")
    if path is None:
        raise BookIOError(f"templates/books/{WEB_DIR}/strings.yaml: not found")
    try:
        data, _ = yamlsrc.load(read_source(project, path))
    except yamlsrc.YamlError as exc:
        raise BookIOError(f"{project.rel(path)}:{exc.line}:{exc.col}: [{exc.rule}] {exc.message}") from None
    return data if isinstance(data, dict) else {}


def words_for(project: Project, lang: str, strings: dict) -> Words:
    other = next((b for l, b in project.books.items() if l != lang), project.books[lang])
    w = dict(strings.get("en") or {})
    w.update(strings.get(lang) or {})
    return Words(lang, content.Language(lang, project.db, project.books[lang], other), w)


# -- the language switch ---------------------------------------------------------------------
def equivalents(mine: list[Heading], theirs: list[Heading]) -> dict[str, str]:
    """Each section of a page -> the same section of its translation.

    An anchor both pages have (the reference's entries, traps, Rites, questions: named by key,
    whatever order each language lists them in) is the same section. The other headings are
    named from their words, which differ; translations keep the books' structure, so when both
    pages have the same sequence of heading levels the n-th heading is the n-th heading."""
    ids = {h.id for h in theirs}
    if [h.level for h in mine] == [h.level for h in theirs]:
        return {a.id: a.id if a.id in ids else b.id for a, b in zip(mine, theirs)}
    return {h.id: h.id for h in mine if h.id in ids}


# -- a page ------------------------------------------------------------------------------------
def keyword_index(words: Words, body: Rewritten, entries: dict[str, str]) -> list[dict]:
    """The index: every keyword, alphabetically, with the sections that use it and its reference entry."""
    parents: dict[str, Heading] = {}
    last: Heading | None = None
    for h in body.headings:
        if h.level <= 2:
            last = h
        elif last is not None:
            parents[h.id] = last
    rows = []
    for key in content.KEYWORD_KEYS:
        uses = []
        for anchor, section in body.keywords.get(key, []):
            parent = parents.get(section.id)
            uses.append({"anchor": anchor, "label": f"{parent.title} › {section.title}" if parent else section.title})
        rows.append({"key": key, "name": words.L.keyword(key), "uses": uses, "entry": entries.get(key)})
    return sorted(rows, key=lambda r: content.sort_key(r["name"]))


def palette(book_css: str) -> str:
    """The ``:root`` rules of the PDF's stylesheet (its colours): the web edition's colours are the book's."""
    return "\n".join(re.findall(r"^:root\s*\{[^}]*\}", book_css, re.M))


def _slot(name: str) -> Markup:
    """A placeholder the page is rendered with, filled after typesetting (which reads text, not data)."""
    return Markup(f"forge-web-slot-{name}")


def _json(data) -> str:
    """JSON for a ``<script type="application/json">``: no ``<`` can close the element."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("<", "\\u003c")


@dataclass
class Edition:
    """Everything the pages of one build share: the project, each book composed and rewritten, the previews."""

    project: Project
    composed: dict[tuple[str, str], Composed]
    bodies: dict[tuple[str, str], Rewritten]
    words: dict[str, Words]
    cache: AssetCache = field(default_factory=AssetCache)

    @property
    def langs(self) -> tuple[str, ...]:
        return tuple(self.words)

    def preview(self, lang: str, card_id: str) -> tuple[str, str]:
        """A card as printed in ``lang``: (JPEG data URI, alternative text), drawn by the card renderer
        once for as long as the printed face stays the same (its key is the face's own)."""
        project = self.project
        card = project.db.by_id()[card_id]
        face = classed_face(card, project.db, project.books, lang, project.root)
        key = f"card-{face.key(load_template(project.root).digest)}-{PREVIEW_PX}-{PREVIEW_QUALITY}"

        def draw() -> str:
            image = render_card(card, project.db, project.books[lang], lang, project.root, PREVIEW_PX,
                                books=project.books, face=face, quality=PREVIEW_QUALITY)[0]
            return data_uri("image/jpeg", image)

        return self.cache.get(key, draw), self.words[lang].card_alt(card)

    def entries(self, lang: str, kind: str) -> dict[str, str]:
        """Keyword -> the link to its entry in the reference (this page, or the reference in this language)."""
        reference = self.bodies.get(("reference", lang))
        if reference is None:
            return {}
        ids = {h.id for h in reference.headings}
        prefix = "" if kind == "reference" else f"reference-{lang}.html"
        return {key: f"{prefix}#entry-{key}" for key in content.KEYWORD_KEYS if f"entry-{key}" in ids}

    def page(self, kind: str, lang: str, draft: str = "") -> str:
        """The web page of one book in one language; ``draft`` (why it is one) marks it as a draft."""
        composed, body, words = self.composed[(kind, lang)], self.bodies[(kind, lang)], self.words[lang]
        context = composed.context
        env = layout_environment(keep_trailing_newline=False)
        langs = [{"lang": l, "name": self.project.books[l].data.get("language", l), "href": f"{kind}-{l}.html",
                  "current": l == lang} for l in self.langs if (kind, l) in self.bodies]
        books = [{"kind": k, "title": self.composed[(k, lang)].title, "href": f"{k}-{lang}.html", "current": k == kind}
                 for k in BOOKS if (k, lang) in self.composed]
        switch = {}
        for other in self.langs:
            if other != lang and (kind, other) in self.bodies:
                mapping = equivalents(body.headings, self.bodies[(kind, other)].headings)
                mapping.update({"index": "index", **{f"index-{k}": f"index-{k}" for k in content.KEYWORD_KEYS}})
                switch[other] = {"href": f"{kind}-{other}.html", "map": mapping}
        ui = {k: typeset(str(words.w.get(k, "")), lang) for k in ("results_none", "results_one", "results_many")}
        data = {"cards": {cid: list(self.preview(lang, cid)) for cid in body.cards}, "langs": switch, "ui": ui}
        script = forge_script(BOOK_SCRIPT)  # the very file the policy hashes
        css = read_source(self.project, self.project.source(f"{WEB_DIR}/web.css"))
        if re.search(r"</\s*style", css, re.I):
            raise BookIOError(f"templates/books/{WEB_DIR}/web.css: closes its <style> element (what follows "
                              "would be markup, not style); remove `</style>`")
        css = palette(read_source(self.project, self.project.source("book.css"))) + "\n" + css
        page = env.get_template(PAGE).render({
            **context, "w": words.w, "draft": draft, "draft_mark": DRAFT_MARK, "body": Markup(body.html), "has_h1": any(h.level == 1 for h in body.headings),
            "index": keyword_index(words, body, self.entries(lang, kind)), "langs": langs, "books": books,
            "css": _slot("css"), "script": _slot("script"), "data": _slot("data"), "csp": _slot("csp")})
        page = typeset(page, lang)  # the text only: styles, script and data are set in their slots after
        labels = words.icons
        page = _ICON_ALT.sub(lambda m: m.group(1) + html.escape(labels.get(m.group(2), m.group(2))) + m.group(3), page)
        page, pictures = share_images(page)
        for name, value in (("css", f"{font_faces(self.cache)}\n{css}\n{pictures}"), ("script", script), ("data", _json(data))):
            page = page.replace(_slot(name), value, 1)
        return page.replace(_slot("csp"), content_policy(), 1)


def load_edition(project: Project, langs: tuple[str, ...] | None = None, cache: AssetCache | None = None,
                 given: dict[tuple[str, str], Composed] | None = None) -> Edition:
    """Compose every book in every language of the project and rewrite their bodies for the web; a book
    in ``given`` (by kind and language, composed from the same sources: ``build_books``) is not composed again."""
    strings = _web_strings(project)
    langs = langs or tuple(project.books)
    words = {lang: words_for(project, lang, strings) for lang in langs}
    composed, bodies = {}, {}
    for kind in BOOKS:
        for lang in langs:
            if project.source(f"{kind}.{lang}.md") is None:
                continue  # a locale without this book's prose: no page, and no link to one
            c = composed[(kind, lang)] = (given or {}).get((kind, lang)) or compose(project, kind, lang)
            if not c.ok or not c.context:
                continue
            bodies[(kind, lang)] = rewrite(str(c.context["body"]), words[lang].names, words[lang].keywords,
                                           lambda src, c=c: local_image(src, project.root, c.policy),
                                           str(words[lang].w.get("table", "Table")))
    return Edition(project, composed, bodies, words, cache or AssetCache())


def _unstyled(project: Project, body: str) -> list[Finding]:
    """A warning at web.css for each class book.css styles, the page uses, and web.css forgets (``webcss``)."""
    web_css = project.source(f"{WEB_DIR}/web.css")
    sheets = [read_source(project, path) for path in (project.source("book.css"), web_css)]
    return [Finding(Position(f"templates/books/{WEB_DIR}/web.css"), "web-style", f"the class `{name}` is styled in book.css, not here",
                    "style it for a screen in web.css, or add it to the comment `/* print-only classes: … */` there",
                    severity=WARNING)
            for name in unstyled(sheets[0], sheets[1], body)]


def build_web(root: Path, kinds: tuple[str, ...], langs: tuple[str, ...], out: Path,
              draft: str = "", composed: dict[tuple[str, str], Composed] | None = None) -> list[WebOutcome]:
    """Write the web page of every asked book in every asked language; one outcome each.

    ``draft`` says why the cards are not fit to print (``--force``): every page then says so at its top.
    ``composed``: books the PDFs' build composed from the same sources (``build_books(composed=...)``)."""
    outcomes = [WebOutcome(kind, lang) for kind in kinds for lang in langs]
    start = time.perf_counter()
    sources = sources_key(Path(root), "web", ",".join(kinds) + "/" + ",".join(langs), draft)
    if _unchanged(Path(out), sources, outcomes):
        return outcomes
    try:
        load = load_database(root)
        project = load_project(Path(root), load.db, load_phrasebooks(root))
        edition = load_edition(project, cache=AssetCache(Path(out)), given=composed)
    except (BookIOError, PhraseError) as exc:
        for o in outcomes:
            o.io_error = str(exc)
        return outcomes
    atomic.sweep_orphans(Path(out) / BOOKS_OUT)
    for o in outcomes:
        composed = edition.composed.get((o.kind, o.lang))
        if composed is None:
            o.io_error = f"the project has no `{o.lang}` locale"
            continue
        o.findings = list(composed.findings)
        if (o.kind, o.lang) not in edition.bodies:
            continue
        try:
            text = edition.page(o.kind, o.lang, draft)
        except BookIOError as exc:
            o.io_error = str(exc)
            continue
        except Exception as exc:  # a web layout that fails is a finding at its line
            o.findings.append(layout_finding(exc, PAGE))
            continue
        o.findings += _unstyled(project, edition.bodies[(o.kind, o.lang)].html)
        data = text.encode("utf-8")
        path = web_path(Path(out), o.kind, o.lang)
        o.path, o.size, o.sha256 = path.as_posix(), len(data), hashlib.sha256(data).hexdigest()
        if not differs(path, data):
            o.unchanged = True  # the page on disk is this one already: not written again
            continue
        try:
            atomic.write_bytes(path, data)
        except OSError as exc:
            o.io_error = atomic.describe(exc)
            continue
        o.written = True
    edition.cache.save()
    _record(Path(out), sources, outcomes)
    seconds = time.perf_counter() - start
    for o in outcomes:
        o.seconds = seconds / max(1, len(outcomes))
    return outcomes


#: The last edition's record: its ``sources_key`` and each page's hash and findings, sealed (``forge.core.seal``).
WEB_RECORD = Path(".cache") / "web.json"


def web_record(out: Path):
    """The last edition's sealed record (``WEB_RECORD``)."""
    return SealedRecord(Path(out) / WEB_RECORD, "web edition", folder=out)


def _unchanged(out: Path, sources: str, outcomes: list[WebOutcome]) -> bool:
    """When the project's sources, forge and the options are the last edition's and every asked page is on
    disk as it was written, the outcomes as they were (the pages not even composed): True."""
    record = web_record(out).load()
    if not sources or record is None or record.get("sources") != sources:
        return False
    pages = record.get("pages") or {}
    for o in outcomes:
        known, path = pages.get(f"{o.kind}-{o.lang}"), web_path(out, o.kind, o.lang)
        data = read_own(path, limit=known["size"]) if known and known.get("size") else None
        if data is None or hashlib.sha256(data).hexdigest() != known.get("sha256"):
            return False
    for o in outcomes:
        known = pages[f"{o.kind}-{o.lang}"]
        o.path, o.size, o.sha256, o.unchanged = web_path(out, o.kind, o.lang).as_posix(), known["size"], known["sha256"], True
        o.findings = findings_of(known.get("findings"))
    return True


def _record(out: Path, sources: str, outcomes: list[WebOutcome]) -> None:
    """Keep this edition's record when every page is current; drop it otherwise (the next run composes)."""
    record = web_record(out)
    if sources and all(o.ready for o in outcomes):
        pages = {f"{o.kind}-{o.lang}": {"size": o.size, "sha256": o.sha256, "findings": finding_rows(o.findings)}
                 for o in outcomes}
        record.save({"sources": sources, "pages": pages}, quiet=True)  # unsaved: composed again next time
    else:
        try:
            record.path.unlink(missing_ok=True)
        except OSError:
            pass  # no record: the pages are composed again next time, nothing is lost
