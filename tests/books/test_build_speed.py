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


def test_a_card_image_is_the_same_from_an_uncompressed_pdf(shipped_root, monkeypatch):
    """The books' card images are rasterised from a PDF made for that alone, left uncompressed (Flate cost
    a sixth of the rulebook's composing): the pixels, so the JPEG bytes, are those of a compressed one."""
    from reportlab.pdfgen.canvas import Canvas

    from forge.books import anatomy
    from forge.core.memo import Memo
    from forge.render import raster

    from .conftest import project_of

    project = project_of(shipped_root)
    card = next(c for c in project.db.cards if c.type == "creature")
    sizes = []
    rasterise = raster.render_pages
    monkeypatch.setattr(raster, "render_pages", lambda pdf, size: sizes.append(len(pdf)) or rasterise(pdf, size))

    def drawn_afresh():  # not the pictures this process drew already (``anatomy._DRAWN``)
        monkeypatch.setattr(anatomy, "_DRAWN", Memo(items=8))

    drawn_afresh()
    uncompressed = (anatomy.render_card(card, project.db, project.books["fr"], "fr", shipped_root,
                                        books=project.books)[0], anatomy.render_back("rite", "en", shipped_root))
    real = Canvas.setPageCompression
    monkeypatch.setattr(Canvas, "setPageCompression", lambda self, value: real(self, 1))  # compressed as made
    drawn_afresh()
    compressed = (anatomy.render_card(card, project.db, project.books["fr"], "fr", shipped_root,
                                      books=project.books)[0], anatomy.render_back("rite", "en", shipped_root))
    assert uncompressed == compressed and len(uncompressed[0]) > 1000
    assert sizes[0] > 1.3 * sizes[2] and sizes[1] > 1.3 * sizes[3]  # the PDFs were not the same
