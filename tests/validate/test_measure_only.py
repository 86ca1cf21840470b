"""The text classes only ask how tall a text is and whether it fits, so the fitter measures without placing the
atoms of each line (``layout_at(place=False)``, issue 9, Fast to start); what it measures must be what a placed
layout says, to the last bit, or a text class or an overflow finding could change."""
from __future__ import annotations

from dataclasses import replace

import pytest

from forge.carddb.database import load_database
from forge.render import fit
from forge.render.face import build_face, text_area
from forge.render.template import load_template
from forge.text.cardtext import load_phrasebooks

from ..conftest import REPO


@pytest.fixture(scope="module")
def faces():
    load = load_database(REPO)
    books = load_phrasebooks(REPO)
    tpl = load_template(REPO)
    out = []
    for lang in sorted(books):
        for card in load.db.cards:
            face = build_face(card, load.db, books[lang], lang, REPO)
            out.append((face, fit.TextStyle.from_template(tpl, face.type), text_area(tpl, face.type)))
    return out


def test_a_measured_layout_is_a_placed_one_without_its_lines(faces):
    compared = overflowing = 0
    for face, style, (_, _, w, h) in faces:
        for size in (style.max_size, style.min_size, round((style.max_size + style.min_size) / 2, 2)):
            for hyphenate in (False, True):
                s = replace(style, hyphenate=hyphenate)
                for width, limit in ((w, None), (w, h), (w * 0.55, h)):
                    placed = fit.layout_at(list(face.lines), face.flavor, width, size, s, face.lang, limit)
                    measured = fit.layout_at(list(face.lines), face.flavor, width, size, s, face.lang, limit,
                                             place=False)
                    assert measured.lines == () and placed.lines
                    assert (measured.height, measured.fits, measured.rule_y, measured.size, measured.align) == \
                        (placed.height, placed.fits, placed.rule_y, placed.size, placed.align), face.id
                    compared += 1
                    overflowing += placed.height > h
        for width, height in ((w, h), (w * 0.6, h * 0.7)):
            for size in (style.max_size, style.min_size):
                placed = fit.layout_fixed(list(face.lines), face.flavor, width, height, size, style, face.lang)
                measured = fit.layout_fixed(list(face.lines), face.flavor, width, height, size, style, face.lang,
                                            place=False)
                assert (measured.fits, measured.height) == (placed.fits, placed.height), face.id
    assert compared > 2000 and overflowing > 100  # tall texts and cut-off ones are both compared


def test_a_flavour_text_under_rules_lines_keeps_its_rule_when_only_measured(faces):
    """The rule above the flavour text depends on whether rules lines came before it, placed or not."""
    face, style, (_, _, w, h) = next((f, s, a) for f, s, a in faces if f.lines and f.flavor)
    measured = fit.layout_at(list(face.lines), face.flavor, w, style.max_size, style, face.lang, place=False)
    assert measured.rule_y is not None and measured.rule_y > 0
    alone = fit.layout_at([], face.flavor, w, style.max_size, style, face.lang, place=False)
    assert alone.rule_y is None
