"""Every card design has its own picture: icons chosen per card over a faction background seeded by its id.

Before, 49 recruitment designs shared 4 pictures and the 3 Soul cards were identical
(issue 8, section 4). These tests read the shipped cards and the rendered art back.
"""
from __future__ import annotations

import io
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest

from forge.carddb.database import load_database
from forge.carddb.model import IconArt
from forge.render.face import build_face, build_faces
from forge.render.illustration import PALETTES, theme_of
from forge.render.jobs import cards_pdf
from forge.render.template import load_template
from forge.text.cardtext import load_phrasebooks

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]
DPI = 40  # enough to tell two pictures apart, cheap to rasterise


@pytest.fixture(scope="module")
def shipped():
    load = load_database(REPO)
    assert not [f for f in load.findings if f.severity == "error"]
    return load.db


@pytest.fixture(scope="module")
def art_crops(shipped):
    """Each shipped card's art window, rasterised from the English faces."""
    import pypdfium2 as pdfium

    tpl = load_template(REPO)
    faces = build_faces(shipped, load_phrasebooks(REPO), ["en"], REPO)["en"]
    pdf, _ = cards_pdf(faces, REPO)
    doc = pdfium.PdfDocument(io.BytesIO(pdf))
    crops = {}
    for face, page in zip(faces, doc):
        image = page.render(scale=DPI / 72).to_pil().convert("RGB")
        x, y, w, h = tpl.box(tpl.layout(face.type)["art"])
        k = DPI / 72
        top = tpl.full_h - (y + h)
        crops[face.id] = image.crop((round(x * k) + 2, round(top * k) + 2, round((x + w) * k) - 2,
                                     round((top + h) * k) - 2))
    return crops


def test_every_card_design_declares_an_icon_composition(shipped):
    assert [c.id for c in shipped.cards if not isinstance(c.art, IconArt)] == []


def test_no_two_designs_share_a_main_icon_or_a_picture(shipped):
    mains = [c.art.icon for c in shipped.cards]
    assert len(set(mains)) == len(mains) == 64
    pictures = {(c.art.icon, c.art.accents) for c in shipped.cards}
    assert len(pictures) == len(shipped.cards)


def test_the_three_soul_cards_have_different_pictures(shipped):
    souls = [c for c in shipped.cards if c.type == "soul"]
    assert len(souls) == 3 and len({c.art.icon for c in souls}) == 3


def test_every_rendered_art_window_differs_from_every_other(art_crops):
    from PIL import ImageChops, ImageStat

    assert len(art_crops) == 64
    too_close = []
    for (a, ia), (b, ib) in combinations(sorted(art_crops.items()), 2):
        mean = sum(ImageStat.Stat(ImageChops.difference(ia, ib)).mean) / 3
        if mean < 6:
            too_close.append((a, b, round(mean, 1)))
    assert too_close == []


def test_each_faction_paints_its_own_background(art_crops, shipped):
    """The mean colour of a faction's art windows leans to its palette: Red warm, Blue cold, White light."""
    from PIL import ImageStat

    def mean_of(theme):
        ids = [c.id for c in shipped.cards if theme_of(c.type, c.faction) == theme]
        means = [ImageStat.Stat(art_crops[i]).mean for i in ids]
        return [sum(m[k] for m in means) / len(means) for k in range(3)]

    red, blue, white, black, soul = (mean_of(t) for t in ("red", "blue", "white", "black", "soul"))
    assert red[0] > red[2] + 40  # red over blue
    assert blue[2] > blue[0] + 40
    assert sum(white) > sum(black) + 200  # a pale dawn sky against night smoke
    assert soul[1] > soul[0] + 30  # teal essence
    assert set(PALETTES) >= {"red", "white", "black", "blue", "soul", "neutral"}


def _art_pixels(face, root=REPO):
    import pypdfium2 as pdfium

    pdf, _ = cards_pdf([face], root)
    return pdfium.PdfDocument(io.BytesIO(pdf))[0].render(scale=DPI / 72).to_pil().convert("RGB").tobytes()


def test_the_background_is_seeded_from_the_card_id():
    """Same card, same picture on every run; the same icons on another card id get another sky."""
    db, bk = mini_db(), books()
    whelp = db.cards[0]
    first = _art_pixels(build_face(whelp, db, bk["en"], "en", REPO))
    again = _art_pixels(build_face(whelp, db, bk["en"], "en", REPO))
    assert first == again
    twin = replace(whelp, id="ember-twin")
    bk["en"].text["ember-twin"] = bk["en"].text["ember-whelp"]
    other = _art_pixels(build_face(twin, db, bk["en"], "en", REPO))
    assert other != first


def test_art_is_drawn_once_per_card_per_document():
    """Three copies of a card on a print-and-play sheet are one form: its art's vectors are in the PDF once."""
    from forge.render.sheets import pnp_sheets

    db, bk = mini_db(), books()
    whelp = build_face(db.cards[0], db, bk["en"], "en", REPO)
    one = pnp_sheets(load_template(REPO), [replace(whelp, copies=1)], "en", "a4", REPO)
    three = pnp_sheets(load_template(REPO), [replace(whelp, copies=3)], "en", "a4", REPO)
    assert len(three) < len(one) + 2_000  # two more placements, not two more pictures (~20 KB each)
