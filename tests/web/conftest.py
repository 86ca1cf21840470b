"""Fixtures of the web pages' tests: the shipped database, its gallery written once, a browser."""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.carddb.database import load_database
from forge.text.cardtext import load_phrasebooks

from ..browser import DESKTOP, Visit, launch
from ..shared import once

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

    def build(folder: Path):
        out = folder / "output"
        db, books = shipped_db
        outcome = build_gallery(REPO, out, LANGS, db, books)
        assert outcome.written and outcome.findings == []
        return out, (out / "gallery.html").read_text(encoding="utf-8"), outcome

    return once(tmp_path_factory, "gallery", build)


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


@pytest.fixture(scope="session")
def played(tmp_path_factory, shipped_db):
    """A game the heuristic agents play, watched as it is played: (record path, the board after the deal and
    after each decision, the final state). The viewer must show the same boards from the record."""
    from forge.engine import Game, HeuristicAgent, run
    from forge.engine.record import make_record, to_jsonl
    from forge.web.board import view

    db, _ = shipped_db
    state = Game(db).new_state(11, ("red", "blue"), first=0, log=True)
    views = [view(state)]
    run(state, (HeuristicAgent(1), HeuristicAgent(2)), on_step=lambda s: views.append(view(s)))
    path = tmp_path_factory.mktemp("records") / "game-seed-11.jsonl"
    path.write_text(to_jsonl(make_record(state, ("heuristic", "heuristic"))), encoding="utf-8")
    return path, views, state


@pytest.fixture(scope="session")
def viewer_pages(tmp_path_factory, played):
    """The replay page of ``played`` in each language, written once: (folder, {lang: outcome})."""
    from forge.web.replay import build_replay

    folder = tmp_path_factory.mktemp("viewer")
    outcomes = {lang: build_replay(REPO, lambda: played[0].open("rb"),
                                   played[0].name, folder / f"game-{lang}.html", lang) for lang in LANGS}
    return folder, outcomes
