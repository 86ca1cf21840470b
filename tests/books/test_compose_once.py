"""A cold build composes each book once: for its PDF (before the workers fork) and for its web page."""
from __future__ import annotations

import pytest

import forge.books.compose as compose_module
import forge.books.pdf as pdf_module
from forge.books import build
from forge.books.build import build_books
from forge.books.fetch import FetchRefused

from .miniproject import mini_project


@pytest.fixture
def counted(monkeypatch):
    """compose() counted by (kind, lang), and every layout refused at once (no book is written: the test is
    about composing, and a layout costs seconds)."""
    calls: list[tuple[str, str]] = []
    original = compose_module.compose

    def compose(project, kind, lang):
        calls.append((kind, lang))
        return original(project, kind, lang)

    def no_layout(*args, **kwargs):
        raise FetchRefused([])

    monkeypatch.setattr(compose_module, "compose", compose)
    monkeypatch.setattr(pdf_module, "render_book", no_layout)
    return calls


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The small books project: composing once does not depend on the prose's length."""
    return mini_project(tmp_path_factory.mktemp("compose-once"))


@pytest.mark.slow
def test_the_books_composed_for_the_pdfs_are_handed_over_and_not_composed_again(game, counted, tmp_path):
    given: dict = {}
    outcomes = build_books(game, ("reference",), ("en",), tmp_path, workers=1, composed=given)
    assert counted == [("reference", "en")]  # here, before the workers; build_one found it composed
    assert list(given) == [("reference", "en")] and given[("reference", "en")].ok
    assert outcomes[0].findings == given[("reference", "en")].findings
    assert outcomes[0].findings is not given[("reference", "en")].findings  # the web's findings stay its own
    assert not build._COMPOSED  # nothing kept past the build but what the caller asked for


def test_a_draft_is_composed_by_its_worker_as_a_draft(game, counted, tmp_path):
    given: dict = {}
    build_books(game, ("reference",), ("en",), tmp_path, workers=1, draft="cards refused", composed=given)
    assert given == {} and counted == [("reference", "en")]


def test_the_web_edition_lays_out_the_books_it_is_given(game, composed, monkeypatch):
    from forge.books.web import load_edition

    from .conftest import project_of

    def refuse(*args):
        raise AssertionError("composed again")

    monkeypatch.setattr(compose_module, "compose", refuse)
    edition = load_edition(project_of(game), given=composed)
    assert set(edition.bodies) == set(composed)
    assert all(edition.composed[key] is composed[key] for key in composed)
