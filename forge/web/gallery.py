"""The card gallery: every card of the database, in each language, on one static page.

Each card shows as printed (its picture, from the card renderer) and as text: its
name, type line, cost, allegiance and the printed rules text, compiled from its
effects by the locales' phrase templates exactly as the card prints it. The page
filters by faction, type, cost and keyword and searches names and text, in the
browser, from what this module wrote into each card's ``data-`` attributes; a
language switch shows the other language's cards and words. Each card links to
its page of the proof sheet and to its print image (``forge render cards``),
relative to the page, which sits in the output folder.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from ..books.content import KEYWORD_KEYS, card_constructs, sort_key
from ..core.escape import json_in_html
from ..core.findings import Finding, ERROR
from ..carddb.model import Card, CardDatabase, Position
from ..text.cardtext import parse_markup, PhraseError, load_phrasebooks
from ..carddb.vocabulary import MAX_ALLEGIANCE
from .icons import Icons
from .page import PageOutcome, asset, render, write
from .strings import words

PAGE_NAME = "gallery.html"
TEMPLATE = "gallery.html.j2"
NEUTRAL = "neutral"


def proof_link(lang: str, index: int) -> tuple[str, int]:
    """The proof sheet of ``lang`` and the page that shows the ``index``-th card of the database."""
    from ..render.sheets import PROOF_COLS, PROOF_ROWS  # lazy: loads reportlab, yaml ... only when needed

    return f"proof/rift-commanders-{lang}-proof.pdf", index // (PROOF_COLS * PROOF_ROWS) + 1


def print_image(lang: str, card_id: str) -> str:
    """The card's print image (The Game Crafter's PNG, the full face with its bleed)."""
    return f"gamecrafter/{lang}/{card_id}.png"


@dataclass
class Face:
    """One card in one language, as the page shows it."""

    lang: str
    name: str
    type_line: str
    lines: list[Markup]
    allegiance: Markup
    flavor: str
    picture: str
    search: str
    proof: str
    proof_page: int
    print_image: str


@dataclass
class Entry:
    """One card: what the filters read, and its face in each language."""

    card: Card
    factions: tuple[str, ...]
    keywords: tuple[str, ...]
    faces: dict[str, Face] = field(default_factory=dict)

    @property
    def cost(self) -> str:
        return "" if self.card.cost is None else str(self.card.cost)


def icon_labels(book, db: CardDatabase) -> dict[str, str]:
    """What each icon says to a reader who does not see it, in the book's language."""
    labels = {f.id: book.faction_name(f.id) for f in db.factions}
    labels.update(soul=book.label("types", "soul"), demise=book.keyword("demise"), trap=book.label("types", "trap"),
                  activate="⟳")
    return labels


def line_html(line: str, icons: Icons, labels: dict[str, str]) -> Markup:
    """A printed line's markup as HTML: keywords bold, icons as labelled pictures, the rest escaped."""
    out = []
    for span in parse_markup(line):
        if span.kind == "keyword":
            out.append(Markup("<strong>{}</strong>").format(span.value))
        elif span.kind == "icon":
            out.append(icons.span(span.value, labels.get(span.value, span.value)))
        else:
            out.append(escape(span.value))
    return Markup("").join(out)


def entries(db: CardDatabase, books: dict, langs: tuple[str, ...], pictures, icons: Icons) -> list[Entry]:
    """Every card of the database, in its order, with its face in each of ``langs``."""
    out = []
    for index, card in enumerate(db.cards):
        constructs = card_constructs(card)
        entry = Entry(card, card.factions or (NEUTRAL,), tuple(k for k in KEYWORD_KEYS if k in constructs))
        entry.faces = {lang: face(card, index, lang, books[lang], db, pictures, icons) for lang in langs}
        out.append(entry)
    return out


def face(card: Card, index: int, lang: str, book, db: CardDatabase, pictures, icons: Icons) -> Face:
    """``card`` in ``lang``: the text the card prints, compiled by ``book``, and what the search reads."""
    labels = icon_labels(book, db)
    lines = book.card_text(card)
    name = card.name.get(lang) or card.name.get("en") or card.id
    flavor = card.flavor.get(lang, "")
    searched = " ".join([name, book.type_line(card), flavor, card.id] + [book.plain(ln) for ln in lines])
    allegiance = Markup("").join(icons.span(f, labels.get(f, f)) for f, n in card.allegiance.items()
                                 for _ in range(min(int(n), MAX_ALLEGIANCE)))
    proof, page_number = proof_link(lang, index)
    return Face(lang, name, book.type_line(card), [line_html(ln, icons, labels) for ln in lines], allegiance, flavor,
                pictures.uri(card, lang), sort_key(searched), proof, page_number, print_image(lang, card.id))


def filters(db: CardDatabase, books: dict, langs: tuple[str, ...], items: list[Entry]) -> dict:
    """The choices of each filter, each with its label in every language; only what some card has."""
    first = books[langs[0]]
    factions = [f.id for f in db.factions if any(f.id in e.factions for e in items)]
    faction_opts = [{"value": f, "labels": {l: books[l].faction_name(f) for l in langs}} for f in factions]
    if any(NEUTRAL in e.factions for e in items):
        faction_opts.append({"value": NEUTRAL, "labels": {l: words(books, l)["neutral"] for l in langs}})
    types = sorted({e.card.type for e in items}, key=lambda t: sort_key(first.label("types", t)))
    costs = sorted({e.card.cost for e in items if e.card.cost is not None})
    keys = sorted({k for e in items for k in e.keywords}, key=lambda k: sort_key(first.keyword(k)))
    return {
        "faction": faction_opts,
        "type": [{"value": t, "labels": {l: books[l].label("types", t) for l in langs}} for t in types],
        "cost": [{"value": str(c), "labels": {l: str(c) for l in langs}} for c in costs],
        "keyword": [{"value": k, "labels": {l: books[l].keyword(k) for l in langs}} for k in keys],
    }


def page(db: CardDatabase, books: dict, langs: tuple[str, ...], pictures) -> str:
    """The gallery page's text."""
    icons = Icons(db)
    items = entries(db, books, langs, pictures, icons)
    ui = {lang: words(books, lang) for lang in langs}
    return render(TEMPLATE, {
        "langs": list(langs), "lang": langs[0], "w": ui, "entries": items, "filters": filters(db, books, langs, items),
        "total": len(items), "factions": {f.id: f.color for f in db.factions},
        "names": {lang: ui[lang]["language"] for lang in langs},
        "css": asset("base.css") + asset("gallery.css") + icons.css(),
        "data": json_in_html({"ui": {lang: {k: ui[lang][k] for k in ("shown", "none")} for lang in langs},
                           "langs": list(langs)}),
    }, script="gallery.js")


@dataclass
class GalleryOutcome(PageOutcome):
    cards: int = 0
    langs: tuple[str, ...] = ()
    seconds: float = 0.0


def build_gallery(root: Path, out: Path, langs: tuple[str, ...] = ("en", "fr"), db: CardDatabase | None = None,
                  books: dict | None = None) -> GalleryOutcome:
    """Write ``<out>/gallery.html`` (when its bytes changed); the pictures are kept for the next run.

    A database that does not load, a locale or card template that cannot print a card: findings, no page."""
    from ..render.template import TemplateError  # lazy: loads reportlab, yaml ... only when needed
    from .pictures import CardPictures  # lazy: loads jinja2, markdown_it ... only when needed

    started = time.perf_counter()
    outcome = GalleryOutcome(langs=langs)
    try:
        if db is None or books is None:
            db, books = _load(root, outcome)
            if db is None:
                return outcome
        outcome.cards = len(db.cards)
        pictures = CardPictures(root, db, books, out)
        text = page(db, books, langs, pictures)
    except PhraseError as exc:
        outcome.findings.append(Finding(Position(exc.file or "locales", exc.line, exc.col), exc.rule, exc.reason,
                                        exc.hint or "fix the phrase in the locale file (forge validate)"))
        return outcome
    except TemplateError as exc:
        outcome.findings.append(Finding(Position("templates/cards/card.yaml", exc.line, exc.col), exc.rule, str(exc),
                                        exc.hint or "fix the card template (forge validate)"))
        return outcome
    write(Path(out) / PAGE_NAME, text, outcome)
    pictures.save()
    outcome.seconds = time.perf_counter() - started
    return outcome


def _load(root: Path, outcome: GalleryOutcome):
    """The database and the phrasebooks, or (None, None) with the findings that refuse them."""
    from ..carddb.database import load_database  # lazy: loads yaml only when needed

    load = load_database(root)
    errors = [f for f in load.findings if f.severity == ERROR]
    if load.io_error or errors or not load.db.cards:
        outcome.findings += errors or [Finding(Position("cards"), "count", "no card loads: no gallery to make",
                                               "add cards under cards/ (forge validate)")]
        outcome.io_error = "the card database cannot be read" if load.io_error else ""
        return None, None
    return load.db, load_phrasebooks(root)
