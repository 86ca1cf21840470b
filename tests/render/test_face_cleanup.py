"""The face carries a set mark and a collector number, not the internal id nor the credits (issue 8, §4).

Also: starter cards say so, the Soul is a drop and not the Blue faction's disc, and
the Demise glyph is a tombstone with a cross, not a plain slab that reads as a bell.
"""
from __future__ import annotations

import io
from pathlib import Path


from forge.carddb.database import load_database
from forge.carddb.model import CardDatabase, collector_order
from forge.render.assets import SYMBOL_ICONS, icon_path
from forge.render.face import build_face, build_faces
from forge.render.jobs import cards_pdf
from forge.render.paint import Painter
from forge.render.template import load_template
from forge.text.cardtext import load_phrasebooks
from forge.render.pdftext import page_texts

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]


def face_text(face, root=REPO) -> str:
    pdf, _ = cards_pdf([face], root)
    return page_texts(pdf)[0]


# -- collector numbers ---------------------------------------------------------------------
def test_collector_order_is_by_set_faction_cost_and_name():
    load = load_database(REPO)
    order = collector_order(load.db)
    assert len(order) == 64
    assert [c.set for c in order[:11]] == ["starter"] * 11 and [c.set for c in order[-4:]] == ["rite"] * 4
    assert [c.id for c in order[:3]] == ["essence-collector", "lost-soul", "volatile-essence"]  # neutral, by name
    recruit = [c for c in order if c.set == "recruit"]
    ranks = {f.id: i for i, f in enumerate(load.db.factions)}
    keys = [(ranks[c.faction], len(c.factions) > 1, c.cost or 0) for c in recruit]
    assert keys == sorted(keys)
    assert load.db.collector_numbers()[order[11].id] == 12


def test_collector_numbers_do_not_depend_on_file_order():
    load = load_database(REPO)
    shuffled = CardDatabase(list(load.db.factions), list(reversed(load.db.cards)))
    assert shuffled.collector_numbers() == load.db.collector_numbers()


def test_the_face_prints_the_collector_number_and_not_the_id_nor_the_credits():
    load = load_database(REPO)
    faces = build_faces(load.db, load_phrasebooks(REPO), ["en", "fr"], REPO)
    numbers = load.db.collector_numbers()
    for lang in ("en", "fr"):
        kindle = next(f for f in faces[lang] if f.id == "kindle")
        text = face_text(kindle)
        assert f"{numbers['kindle']}/64" in text
        assert "Benoît" not in text and "game-icons" not in text and "OFL" not in text


def test_the_internal_id_is_not_printed():
    db, bk = mini_db(), books()
    face = build_face(db.cards[1], db, bk["en"], "en", REPO)  # tide-turn: its name is "Tide Turn"
    text = face_text(face)
    assert "tide-turn" not in text and f"{face.number}/{face.total}" in text


def test_starter_cards_are_marked_as_such_in_both_languages():
    db, bk = mini_db(), books()
    wisp = next(c for c in db.cards if c.set == "starter")
    whelp = next(c for c in db.cards if c.set == "recruit")
    assert "Starter" in face_text(build_face(wisp, db, bk["en"], "en", REPO))
    assert "Départ" in face_text(build_face(wisp, db, bk["fr"], "fr", REPO))
    assert "Starter" not in face_text(build_face(whelp, db, bk["en"], "en", REPO))


# -- the Soul's shape -------------------------------------------------------------------------
def _render_marks(draw):
    """Draw with ``draw(painter)`` on a 60 × 60 pt page; the page as a Pillow image at 8 px per pt."""
    import pypdfium2 as pdfium

    from forge.render.pdf import PdfBuffer

    doc = PdfBuffer((60, 60), "t", "en")
    draw(Painter(doc.canvas))
    doc.canvas.showPage()
    return pdfium.PdfDocument(io.BytesIO(doc.finish()))[0].render(scale=8).to_pil().convert("RGB")


def _blueish(px) -> bool:
    return px[2] > px[0] + 40


def test_the_soul_is_a_drop_and_the_blue_faction_a_disc():
    from forge.render.draw import _medallion, _soul_orb

    tpl = load_template(REPO)
    soul = _render_marks(lambda p: _soul_orb(p, tpl, 30, 30, 20))
    blue = _render_marks(lambda p: _medallion(p, tpl, 30, 30, 20, "#2f63a8", "portal", "blue"))

    def at(im, dx, dy):  # points from the centre, y up
        return im.getpixel((round((30 + dx) * 8), round((30 - dy) * 8)))

    # the disc fills its upper-left shoulder, the drop narrows there towards its point
    assert _blueish(at(blue, -13, 13)) and not _blueish(at(soul, -13, 13))
    assert _blueish(at(soul, 0, 17))  # the drop's point, above its belly
    assert _blueish(at(soul, 0, -10)) and _blueish(at(blue, 0, -10))


# -- the Demise glyph ---------------------------------------------------------------------------
def test_demise_is_a_tombstone_with_a_cross_cut_out():
    assert SYMBOL_ICONS["demise"] == "tombstone-cross"
    path, even_odd = icon_path("tombstone-cross")
    plain, _ = icon_path("tombstone")
    assert even_odd and len(path.ops) > len(plain.ops)
    im = _render_marks(lambda p: p.icon("tombstone-cross", 0, 0, 60, "#000000"))

    def at(ux, uy):  # icon units (512, y down)
        return im.getpixel((round(ux / 512 * 60 * 8), round(uy / 512 * 60 * 8)))

    assert at(256, 180) == (255, 255, 255)  # the cross is cut out of the slab
    assert at(150, 300) == (0, 0, 0)  # the slab beside it is ink
    assert at(256, 440) == (0, 0, 0)  # the base


def test_demise_in_the_books_keeps_the_cut_out():
    import base64

    from forge.books.icons import symbol_uri

    svg = base64.b64decode(symbol_uri("demise", "#000000").split(",", 1)[1]).decode()
    assert 'fill-rule="evenodd"' in svg
