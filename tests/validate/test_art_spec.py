"""A card's `art:`: an icon composition or a picture with crop rules, each checked by `forge validate`.

Issue 8, section 4: an unknown icon name is a finding with a did-you-mean hint, two
designs may not share a picture, a picture below 300 dpi at its printed size is
refused, and an SVG that refers to another file or a URL is refused (untrusted input).
"""
from __future__ import annotations

import io
import re

import pytest

from forge.carddb.art import ArtError, art_dpi, placement, read_svg
from forge.carddb.database import load_database
from forge.carddb.model import IconArt, ImageArt

from .helpers import CREATURE, only, run

ART_LINE = 10  # `    art: ...`, inserted before `activate:` (the schema line is line 1)


def with_art(project, art: str, name: str = "red.yaml", text: str = CREATURE) -> None:
    project(name, text.replace("    activate:", f"    art: {art}\n    activate:"))


def png(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 90, 160)).save(out, "PNG")
    return out.getvalue()


# -- the format ----------------------------------------------------------------------------
def test_an_icon_composition_is_read_into_the_model(project):
    with_art(project, "{icon: fire-dash, accents: [burning-embers, imp], layout: flank, flip: true}")
    card = load_database(project.root).db.cards[0]
    assert card.art == IconArt("fire-dash", ("burning-embers", "imp"), "flank", True)
    _, report = run(project.root)
    assert mine(report) == []


ART_RULES = {"schema", "asset", "art", "art-icon", "art-duplicate", "art-resolution"}


def mine(report: dict) -> list:
    """The findings about the card's art (a one-card project also has count findings)."""
    return [f for f in report["findings"] if f["rule"] in ART_RULES]


def test_a_picture_with_crop_rules_and_a_bare_path_are_read(project):
    (project.root / "art").mkdir()
    (project.root / "art" / "imp.png").write_bytes(png(1300, 900))
    with_art(project, "{image: art/imp.png, focus: [0.25, 0.75], fit: contain, credit: Jane Doe}")
    assert mine(run(project.root)[1]) == []
    assert load_database(project.root).db.cards[0].art == ImageArt("art/imp.png", (0.25, 0.75), "contain", "Jane Doe")
    with_art(project, "art/imp.png")
    assert load_database(project.root).db.cards[0].art == ImageArt("art/imp.png")


@pytest.mark.parametrize("art, words", [
    ("{icon: fire-dash, layout: sideways}", "allowed"),
    ("{icon: fire-dash, accents: [a, b, c]}", "too long"),
    ("{image: art/x.png, focus: [2, 0]}", "maximum"),
    ("{icon: fire-dash, colour: red}", "unknown field `colour`"),
])
def test_a_malformed_art_spec_is_a_schema_finding(project, art, words):
    with_art(project, art)
    code, report = run(project.root)
    found = [f for f in report["findings"] if f["rule"] == "schema"]
    assert found and found[0]["line"] == ART_LINE, report["findings"]
    assert words in found[0]["message"] + found[0]["hint"]
    assert code == 1


# -- icons ---------------------------------------------------------------------------------
def test_an_unknown_icon_is_a_finding_with_a_did_you_mean(project):
    with_art(project, "{icon: fire-dsh}")
    code, report = run(project.root)
    f = only(report, "art-icon")
    assert (f["file"], f["line"]) == ("cards/red.yaml", ART_LINE)
    assert "`fire-dsh`" in f["message"] and "did you mean `fire-dash`?" in f["hint"]
    assert code == 1


def test_an_unknown_accent_is_reported_at_the_accent(project):
    with_art(project, "{icon: fire-dash, accents: [burning-embers, wolf-haed]}")
    _, report = run(project.root)
    f = only(report, "art-icon")
    assert "`wolf-haed`" in f["message"] and "`wolf-head`" in f["hint"]
    assert f["line"] == ART_LINE and f["column"] > 40  # at the accent itself, not at `art:`


def test_two_designs_with_the_same_picture_are_a_finding(project):
    twin = CREATURE.replace("ember-imp", "ember-twin").replace("Ember Imp", "Ember Twin").replace(
        "Diablotin des Braises", "Jumeau des Braises")
    both = CREATURE + twin.removeprefix("cards:\n")
    with_art(project, "{icon: imp, accents: [flame]}", text=both)
    _, report = run(project.root)
    f = only(report, "art-duplicate")
    assert "`ember-twin` has the same picture as `ember-imp`" in f["message"]
    with_art(project, "{icon: imp, accents: [flame]}", text=CREATURE + twin.removeprefix("cards:\n").replace(
        "    activate:", "    art: {icon: imp, accents: [fire-dash]}\n    activate:"))
    _, report = run(project.root)
    assert "art-duplicate" not in [f["rule"] for f in report["findings"]]


# -- resolution ------------------------------------------------------------------------------
def test_a_picture_below_300_dpi_at_its_printed_size_is_refused(project):
    (project.root / "art").mkdir()
    (project.root / "art" / "imp.png").write_bytes(png(500, 320))  # the creature window needs 646 × 409
    with_art(project, "art/imp.png")
    code, report = run(project.root)
    f = only(report, "art-resolution")
    assert f["line"] == ART_LINE and "prints at" in f["message"] and "300 dpi" in f["message"]
    assert "646 × 409" in f["hint"]
    assert code == 1


def test_a_sharp_enough_picture_passes_and_contain_needs_fewer_pixels(project):
    (project.root / "art").mkdir()
    (project.root / "art" / "imp.png").write_bytes(png(1300, 430))  # wide: cover crops the sides
    with_art(project, "art/imp.png")
    assert mine(run(project.root)[1]) == []
    (project.root / "art" / "imp.png").write_bytes(png(700, 300))  # 300 px high: too few to cover 34.6 mm
    assert "art-resolution" in [f["rule"] for f in run(project.root)[1]["findings"]]
    with_art(project, "{image: art/imp.png, fit: contain}")  # shown whole, 700 px fill the 54.7 mm width
    assert "art-resolution" not in [f["rule"] for f in run(project.root)[1]["findings"]]


def test_art_dpi_by_fit():
    assert art_dpi((646, 409), (54.7, 34.6)) == pytest.approx(300, abs=0.5)
    assert art_dpi((1292, 409), (54.7, 34.6), "cover") == pytest.approx(300, abs=0.5)
    assert art_dpi((1292, 409), (54.7, 34.6), "contain") == pytest.approx(600, abs=1)


# -- focus -------------------------------------------------------------------------------------
def test_cover_keeps_the_focal_point_in_the_window():
    # a tall picture in a wide window: the crop is a band, placed around the focus, clamped to the edges
    crop, where = placement((1000, 3000), (500, 250), (0.5, 0.05), "cover")
    assert where == (0.0, 0.0, 1.0, 1.0) and crop[1] == 0.0 and crop[3] == pytest.approx(500)
    crop, _ = placement((1000, 3000), (500, 250), (0.5, 0.5), "cover")
    assert crop[1] == pytest.approx(1250) and crop[3] == pytest.approx(1750)
    crop, _ = placement((1000, 3000), (500, 250), (0.5, 1.0), "cover")
    assert crop[3] == pytest.approx(3000)
    _, where = placement((1000, 3000), (500, 250), (0.5, 0.5), "contain")
    assert where[3] == 1.0 and where[2] == pytest.approx(1000 / 3000 * 250 / 500)


def test_the_rendered_crop_follows_the_focus(tmp_path):
    """A picture red at the top and blue at the bottom: focus [0.5, 0] shows red, [0.5, 1] blue."""
    from dataclasses import replace

    import pypdfium2 as pdfium
    from PIL import Image

    from forge.render.face import build_face
    from forge.render.jobs import cards_pdf
    from forge.render.template import load_template

    from ..render.helpers import books, mini_db

    (tmp_path / "art").mkdir()
    im = Image.new("RGB", (700, 2100), (200, 20, 20))
    im.paste((20, 20, 200), (0, 1050, 700, 2100))
    im.save(tmp_path / "art" / "tall.png")
    db, bk = mini_db(), books()
    tpl = load_template(tmp_path)
    x, y, w, h = tpl.box(tpl.layout("creature")["art"])
    colours = []
    for fy in (0.0, 1.0):
        card = replace(db.cards[0], art=ImageArt("art/tall.png", (0.5, fy)))
        face = build_face(card, db, bk["en"], "en", tmp_path)
        pdf, _ = cards_pdf([face], tmp_path)
        page = pdfium.PdfDocument(io.BytesIO(pdf))[0].render(scale=1).to_pil().convert("RGB")
        colours.append(page.getpixel((round(x + w / 2), round(tpl.full_h - (y + h / 2)))))
    assert colours[0][0] > 150 > colours[0][2] and colours[1][2] > 150 > colours[1][0]


# -- SVG -------------------------------------------------------------------------------------
SVG_OK = (b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">'
          b'<rect width="200" height="120" fill="#204080"/><circle cx="100" cy="60" r="40" fill="#f0c020"/></svg>')


@pytest.mark.parametrize("svg", [
    b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
    b'<image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="https://example.com/a.png"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="../secret.png"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><use href="other.svg#shape"/></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><style>@import "http://example.com/x.css";'
    b'</style></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b'<rect style="fill:url(http://example.com/p.svg#g)" width="10" height="10"/></svg>',
])
def test_an_svg_that_refers_outside_itself_is_refused(svg):
    with pytest.raises(ArtError, match="outside itself"):
        read_svg(svg)


def test_an_svg_with_a_doctype_is_refused():
    """XXE: an SVG declaring entities is refused before any parser could read a local file (issue 23 §3)."""
    svg = (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
           b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>')
    with pytest.raises(ArtError, match="document type"):
        read_svg(svg)


def test_a_self_contained_svg_passes_and_prints_as_vectors(project):
    from dataclasses import replace

    from forge.render.face import build_face
    from forge.render.jobs import cards_pdf

    from ..render.helpers import books, mini_db

    (project.root / "art").mkdir()
    (project.root / "art" / "imp.svg").write_bytes(SVG_OK)
    with_art(project, "{image: art/imp.svg, fit: contain}")
    assert mine(run(project.root)[1]) == []
    db, bk = mini_db(), books()
    card = replace(db.cards[0], art=ImageArt("art/imp.svg", fit="contain"))
    face = build_face(card, db, bk["en"], "en", project.root)
    assert face.art == "art/imp.svg"
    pdf, _ = cards_pdf([face], project.root)
    import pypdfium2 as pdfium

    from forge.render.template import load_template

    tpl = load_template(project.root)
    x, y, w, h = tpl.box(tpl.layout("creature")["art"])
    page = pdfium.PdfDocument(io.BytesIO(pdf))[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    centre = image.getpixel((round((x + w / 2) * 2), round((tpl.full_h - y - h / 2) * 2)))
    assert centre[0] > 200 and centre[1] > 150 and centre[2] < 80  # the SVG's yellow disc, drawn in the window
    assert not any(isinstance(o, pdfium.PdfImage) for o in page.get_objects(max_depth=4))  # vectors, no raster


def test_an_svg_with_an_outside_reference_is_a_validate_finding(project):
    (project.root / "art").mkdir()
    (project.root / "art" / "imp.svg").write_bytes(
        b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="file:///etc/passwd"/></svg>')
    with_art(project, "art/imp.svg")
    code, report = run(project.root)
    f = only(report, "art")
    assert f["line"] == ART_LINE and "outside itself" in f["message"] and code == 1


def test_svg_art_in_the_print_on_demand_pdf_is_press_cmyk(tmp_path):
    """The SVG's RGB fills go through the press profile like every other colour of the pod PDF."""
    from dataclasses import replace

    from pypdf import PdfReader

    from forge.render.face import build_face
    from forge.render.sheets import pod_document
    from forge.render.template import load_template

    from ..render.helpers import books, mini_db

    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "imp.svg").write_bytes(SVG_OK)
    db, bk = mini_db(), books()
    face = build_face(replace(db.cards[0], art=ImageArt("art/imp.svg")), db, bk["en"], "en", tmp_path)
    pdf = pod_document(load_template(tmp_path), [face], "en", tmp_path)
    reader = PdfReader(io.BytesIO(pdf))
    streams = [reader.pages[0].get_contents().get_data()]
    for ref in (reader.pages[0]["/Resources"].get("/XObject") or {}).values():
        streams.append(ref.get_object().get_data())
    data = b"\n".join(streams)
    from forge.render.colour import press_cmyk

    c, m, y, k = press_cmyk("#204080")  # the SVG's rectangle, as the press profile converts it
    fills = {tuple(round(float(v), 3) for v in f.split()) for f in re.findall(rb"(?m)^([\d. ]+) k$", data)}
    assert (round(c, 3), round(m, 3), round(y, 3), round(k, 3)) in fills
    assert re.findall(rb"(?m)^[\d. ]+ rg$", data) == []  # no RGB fill left
