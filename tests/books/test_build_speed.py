"""What the books build does to spend less CPU on the same bytes (benchmarks/books_bench.py measures it)."""
from __future__ import annotations

import gc

from forge.books import build
from forge.books.build import BookOutcome, build_books


def _collector_state(root, kind, lang, out, *rest) -> BookOutcome:
    """A stand-in for a book's build that reports whether the cyclic garbage collector runs."""
    return BookOutcome(kind, lang, io_error=f"collector on: {gc.isenabled()}")


def test_a_book_is_built_with_the_collector_paused_then_left_as_it_was(monkeypatch):
    monkeypatch.setattr(build, "_build_one", _collector_state)
    assert gc.isenabled()
    assert build.build_one("root", "rulebook", "en", "out").io_error == "collector on: False"
    assert gc.isenabled()
    gc.disable()
    try:
        build.build_one("root", "rulebook", "en", "out")
        assert not gc.isenabled()  # a caller's own pause is not ended by the book's
    finally:
        gc.enable()


def test_the_workers_build_with_the_collector_off(monkeypatch, tmp_path):
    """A pool worker lives for a build: the cycles it leaves go with it, no pass over them is paid for."""
    monkeypatch.setattr(build, "build_one", _collector_state)  # the forked workers inherit it
    monkeypatch.setattr(build, "_preload", lambda: None)
    outcomes = build_books(tmp_path, ("rulebook", "reference"), ("en",), tmp_path / "out", workers=2)
    assert [o.io_error for o in outcomes] == ["collector on: False"] * 2
    assert gc.isenabled()  # the parent's is untouched
