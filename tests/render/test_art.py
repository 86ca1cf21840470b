"""Card art: drawn at 300 DPI of its window, in CMYK for print-on-demand; a default when there is none."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.render.face import build_face
from forge.render.jobs import cards_pdf
from forge.render.sheets import pod_document
from forge.render.template import load_template

from .helpers import books, mini_db


@pytest.fixture
def art_project(tmp_path: Path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    img = Image.new("RGB", (1200, 900))
    for x in range(0, 1200, 40):
        img.paste((x % 255, 90, 200 - x % 200), (x, 0, x + 40, 900))
    img.save(tmp_path / "art" / "whelp.png")
    db = mini_db()
    db.cards[0] = replace(db.cards[0], art="art/whelp.png")
    return tmp_path, db


def images_of(page) -> list:
    xobjects = page["/Resources"].get("/XObject") or {}
    found = []
    for ref in xobjects.values():
        obj = ref.get_object()
        if obj["/Subtype"] == "/Image":
            found.append(obj)
        elif obj["/Subtype"] == "/Form":
            found += [r.get_object() for r in (obj["/Resources"].get("/XObject") or {}).values()
                      if r.get_object()["/Subtype"] == "/Image"]
    return found


def test_art_is_resampled_to_300_dpi_of_its_window(art_project):
    import io

    root, db = art_project
    face = build_face(db.cards[0], db, books()["en"], "en", root)
    assert face.art == "art/whelp.png" and face.art_digest
    pdf, _ = cards_pdf([face], root)
    (image,) = images_of(PdfReader(io.BytesIO(pdf)).pages[0])
    tpl = load_template(root)
    _, _, w, h = tpl.box(tpl.layout("creature")["art"])
    assert (image["/Width"], image["/Height"]) == (round(w / 72 * 300), round(h / 72 * 300))
    assert image["/ColorSpace"] == "/DeviceRGB"


def test_print_on_demand_art_is_cmyk(art_project):
    import io

    root, db = art_project
    face = build_face(db.cards[0], db, books()["en"], "en", root)
    pdf = pod_document(load_template(root), [face], "en", root)
    (image,) = images_of(PdfReader(io.BytesIO(pdf)).pages[0])
    assert image["/ColorSpace"] == "/DeviceCMYK"


def test_a_card_without_art_file_gets_the_default_art(art_project):
    root, db = art_project
    (root / "art" / "whelp.png").unlink()
    face = build_face(db.cards[0], db, books()["en"], "en", root)
    assert face.art is None
    _, (check,) = cards_pdf([face], root)
    assert check["safe_zone"] == [] and check["overflow"] == []


def test_changing_the_art_file_changes_the_cache_key(art_project):
    from PIL import Image

    root, db = art_project
    tpl = load_template(root)
    before = build_face(db.cards[0], db, books()["en"], "en", root).key(tpl.digest)
    Image.new("RGB", (600, 400), "white").save(root / "art" / "whelp.png")
    after = build_face(db.cards[0], db, books()["en"], "en", root).key(tpl.digest)
    assert before != after


def test_art_outside_the_project_is_never_read(art_project):
    root, db = art_project
    outside = root.parent / "secret.png"
    outside.write_bytes((root / "art" / "whelp.png").read_bytes())
    card = replace(db.cards[0], art="../secret.png")
    face = build_face(card, db, books()["en"], "en", root)
    assert face.art is None and face.art_digest is None


def test_render_warns_about_missing_art_and_icons(art_project, tmp_path):
    from forge.carddb.model import Faction
    from forge.render.cards import RenderOptions, render_cards

    root, db = art_project
    db.cards[1] = replace(db.cards[1], art="art/nowhere.png")
    db.factions[1] = Faction("blue", {"en": "Blue", "fr": "Bleu"}, "#2f63a8", "no-such-icon", {})
    result = render_cards(db, books(), root, RenderOptions(out=tmp_path / "out", profiles=("proof",), workers=1))
    assert [(f.rule, f.severity) for f in result.findings] == [("art-missing", "warning"), ("icon-missing", "warning")]
