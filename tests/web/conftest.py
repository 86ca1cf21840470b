"""Fixtures of the web pages' tests: the shipped database, its gallery written once, a browser."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.database import load_database
from forge.text import load_phrasebooks

from ..browser import DESKTOP, Visit, launch

REPO = Path(__file__).resolve().parents[2]
LANGS = ("en", "fr")


@pytest.fixture(scope="session")
def shipped_db():
    """The shipped card database and its phrasebooks (read, never written)."""
    return load_database(REPO).db, load_phrasebooks(REPO)


@pytest.fixture(scope="session")
def gallery(tmp_path_factory, shipped_db):
    """The shipped game's gallery, written once from scratch: (output folder, the page's text, outcome)."""
    from forge.web.gallery import build_gallery

    out = tmp_path_factory.mktemp("gallery") / "output"
    db, books = shipped_db
    outcome = build_gallery(REPO, out, LANGS, db, books)
    assert outcome.written and outcome.findings == []
    return out, (out / "gallery.html").read_text(encoding="utf-8"), outcome


@pytest.fixture(scope="module")
def browser():
    yield from launch()


@pytest.fixture
def visit(browser):
    opened = []

    def make(folder: Path, viewport=DESKTOP, touch=False) -> Visit:
        v = Visit(browser, folder, viewport, touch)
        opened.append(v)
        return v

    yield make
    for v in opened:
        v.close()
