"""Fixtures of the book tests: a copy of the shipped project, its books composed and rendered once.

The copy, its books and its web edition are made once for the whole run, by the first xdist worker that
needs them (``tests.shared.once``); every test reads them and writes elsewhere."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forge.books.build import build_books, output_path
from forge.books.compose import compose, load_project
from forge.carddb.database import load_database
from forge.text.cardtext import load_phrasebooks

from ..shared import once

REPO = Path(__file__).resolve().parents[2]
LANGS = ("en", "fr")
KINDS = ("rulebook", "reference")


def copy_project(target: Path) -> Path:
    """The shipped game project (cards, locales, templates, docs), safe to modify."""
    for part in ("cards", "locales", "templates", "docs"):
        shutil.copytree(REPO / part, target / part)
    return target


def project_of(root: Path):
    load = load_database(root)
    return load_project(root, load.db, load_phrasebooks(root))


@pytest.fixture(scope="session")
def shipped_root(tmp_path_factory) -> Path:
    return once(tmp_path_factory, "game", copy_project)


@pytest.fixture(scope="session")
def composed(shipped_root):
    """Every book's HTML, by (kind, lang)."""
    project = project_of(shipped_root)
    return {(k, lang): compose(project, k, lang) for k in KINDS for lang in LANGS}


@pytest.fixture(scope="session")
def rendered(tmp_path_factory, shipped_root):
    """Every book rendered once, with its print files: (outcomes by (kind, lang), output folder)."""
    def build(_):
        out = shipped_root / "output"
        outcomes = build_books(shipped_root, KINDS, LANGS, out, workers=2, press=True)
        return {(o.kind, o.lang): o for o in outcomes}, out

    return once(tmp_path_factory, "books", build)


@pytest.fixture(scope="session")
def pdf_of(rendered):
    from forge.books.pdf import check_pdf

    outcomes, out = rendered
    cache = {}

    def read(kind: str, lang: str):
        if (kind, lang) not in cache:
            cache[(kind, lang)] = check_pdf(output_path(out, kind, lang).read_bytes())
        return cache[(kind, lang)]

    return read


@pytest.fixture(scope="session")
def web_edition(tmp_path_factory, shipped_root, request):
    """The web edition of both books in both languages, built once: (outcomes by (kind, lang), folder).
    Its books are the session's ``composed`` ones, handed over as ``forge build`` hands the PDFs' books
    over (``build_web(composed=...)``, read only), not composed a second time (nor at all on a worker
    that finds the edition built)."""
    from forge.books.web import build_web

    def build(_):
        out = shipped_root / "web-output"
        outcomes = build_web(shipped_root, KINDS, LANGS, out, composed=request.getfixturevalue("composed"))
        return {(o.kind, o.lang): o for o in outcomes}, out / "books"

    return once(tmp_path_factory, "web-edition", build)
