"""The kit around the cards (issue 24 §3), measured on the shipped game: text inside its box on the mat, the
token sheet and the aid cards; mat slots that hold sleeved cards; actual-size printing; track markers
that fit the tracker cards' cells."""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from forge.carddb.database import load_database
from forge.render.aiddocs import draw_mat, mat_pdf, mat_size, slot_size, tokens_pdf
from forge.render.aids import (MARKER_COVER, Aid, aid_cards, aid_set, draw_aid, shop_aid_cards, shop_marker_cell,
                               tracker_cell)
from forge.render.jobs import cards_pdf
from forge.render.paint import Painter
from forge.render.pdf import register_fonts
from forge.render.sheets import PAPERS
from forge.render.template import load_template
from forge.text.cardtext import load_phrasebooks

REPO = Path(__file__).resolve().parents[2]
DB = load_database(REPO).db
BOOKS = load_phrasebooks(REPO)
TPL = load_template(REPO)
CASES = [(lang, paper) for lang in ("en", "fr") for paper in ("a4", "letter")]


def aids(lang: str, **words):
    a = aid_set(TPL, BOOKS[lang], lang, DB.factions)
    return replace(a, words=tuple((k, words.get(k, v)) for k, v in a.words)) if words else a


@pytest.mark.parametrize("lang,paper", CASES)
def test_mat_and_token_sheet_text_stays_in_its_boxes(lang, paper):
    """The French Letter mat's « Marqueurs de poison » ran 0.9 mm out of its zone and preflight passed."""
    for make in (mat_pdf, tokens_pdf):
        problems: list[str] = []
        make(TPL, aids(lang), paper, PAPERS[paper], problems)
        assert problems == [], (make.__name__, problems)


def test_a_word_too_long_for_its_zone_is_a_problem():
    problems: list[str] = []
    mat_pdf(TPL, aids("fr", poison="Marqueursdepoisonbeaucouptroplongspourleurzone"), "letter", PAPERS["letter"],
            problems)
    assert problems and all("out of the zone" in p for p in problems), problems


def test_aid_cards_text_stays_in_its_boxes():
    for lang in ("en", "fr"):
        fronts = aid_cards(aids(lang)) + shop_aid_cards(TPL, aids(lang))
        _, checks = cards_pdf([s for f in fronts for s in (f, f.reverse())], REPO, TPL)
        assert [(c["id"], c["overflow"]) for c in checks if c["overflow"]] == []


@pytest.mark.parametrize("lang,paper", CASES)
def test_mat_card_slots_hold_sleeved_cards(lang, paper):
    """Slots of the card's own size (63.5 × 88.9 mm) held no card in a standard 66 × 91 mm sleeve."""
    register_fonts()
    p = Painter(Canvas(io.BytesIO(), pagesize=mat_size(PAPERS[paper])))
    draw_mat(p, TPL, aids(lang), mat_size(PAPERS[paper]))
    slots = [m.box for m in p.marks if m.label.startswith("slot ")]
    assert len(slots) == 3
    for x0, y0, x1, y1 in slots:
        assert (x1 - x0) / mm >= 66 + 1.5 and (y1 - y0) / mm >= 91 + 1.5, ((x1 - x0) / mm, (y1 - y0) / mm)
    assert slot_size(TPL) == pytest.approx((68 * mm, 93 * mm), abs=0.01 * mm)
    page = mat_size(PAPERS[paper])
    frame = next(m.box for m in p.marks if m.label == "mat frame")
    assert frame[0] >= 10 * mm - 0.01 and frame[2] <= page[0] - 10 * mm + 0.01  # still inside the margin


@pytest.mark.parametrize("make", [mat_pdf, tokens_pdf])
def test_the_kit_pdfs_ask_for_actual_size(make):
    reader = PdfReader(io.BytesIO(make(TPL, aids("en"), "a4", PAPERS["a4"])))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/Simplex"


def test_shop_track_markers_fit_the_tracker_cards_cells():
    """The print shops have no mat: their markers go on the tracker cards, whose allegiance cells are
    4.7 mm wide; the markers were 8.8 mm. Measured from the drawn markers card."""
    for lang in ("en", "fr"):
        a = aids(lang)
        cell = tracker_cell(TPL, a)
        assert 4 * mm < cell < 6 * mm  # the allegiance tracker's narrow cells
        register_fonts()
        p = Painter(Canvas(io.BytesIO(), pagesize=(TPL.full_w, TPL.full_h)))
        draw_aid(p, TPL, Aid("markers", a))
        markers = [m.box for m in p.marks if m.kind == "icon" and m.label.endswith("marker")]
        assert len(markers) == len(a.factions) * 2 + 2  # every player's health and allegiance markers
        for x0, y0, x1, y1 in markers:
            assert max(x1 - x0, y1 - y0) <= cell * MARKER_COVER + 0.01
        assert shop_marker_cell(TPL, a) < 11 * mm


def test_each_font_subset_has_its_own_tag_the_same_on_every_run():
    """reportlab named the first subset of every font AAAAAA: six subsets in a PDF shared one tag."""
    import re

    fronts = aid_cards(aids("fr")) + shop_aid_cards(TPL, aids("fr"))
    pdf, _ = cards_pdf([s for f in fronts for s in (f, f.reverse())], REPO, TPL)
    names = set(re.findall(rb"/BaseFont /([A-Z]{6})\+([^\s/]+)", pdf))
    assert len(names) >= 4  # four fonts, each subset once
    assert len({tag for tag, _ in names}) == len(names) and (b"AAAAAA", b"Lato-Regular") not in names
    again, _ = cards_pdf([s for f in fronts for s in (f, f.reverse())], REPO, TPL)
    assert again == pdf


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_line_of_the_turn_summary_ends_on_a_lone_number(lang):
    """The French turn summary left "(5" at the end of a line, its "au plus" on the next."""
    import re

    pdfium = pytest.importorskip("pypdfium2")
    pdf, checks = cards_pdf([Aid("turn", aids(lang)), Aid("wound", aids(lang))], REPO, TPL)
    assert [c["overflow"] for c in checks] == [[], []]
    doc = pdfium.PdfDocument(pdf)
    lines = [ln.strip() for i in range(len(doc)) for ln in doc[i].get_textpage().get_text_range().splitlines()]
    doc.close()
    assert lines and not [ln for ln in lines if re.search(r"(^|\s)[(\[«]?\d+$", ln)]
    if lang == "fr":
        assert any("(5\u00a0au plus" in ln or "(5 au plus" in ln for ln in lines), lines


def test_allegiance_pips_keep_clear_of_the_art_frame_on_every_card():
    """Six-pip stacks (Plague Queen, Rift Sovereign, Warlord of Cinders, Seraph of the Last Light, Archon of
    Dawn) ended 0.1 mm from the art window's frame. Measured from the drawn operators (rings included)."""
    from forge.render.draw import PIP_CLEARANCE, draw_face
    from forge.render.face import build_faces

    faces = [f for f in build_faces(DB, BOOKS, ["en"], REPO)["en"] if f.allegiance]
    register_fonts()
    clearances = {}
    for face in faces:
        p = Painter(Canvas(io.BytesIO(), pagesize=(TPL.full_w, TPL.full_h)))
        draw_face(p, TPL, face, REPO)
        pips = [m.box for m in p.drawn((0.0, 0.0, TPL.full_w, TPL.full_h)) if "allegiance" in m.label]
        assert pips, face.id
        art_bottom = TPL.box(TPL.layout(face.type)["art"])[1]
        clearances[face.id] = (min(b[1] for b in pips) - art_bottom) / mm
    six = {k: v for k, v in clearances.items() if sum(n for _, n in next(
        f for f in faces if f.id == k).allegiance) >= 6}
    assert {"plague-queen", "rift-sovereign", "warlord-of-cinders", "archon-of-dawn"} <= set(six)
    assert min(clearances.values()) >= PIP_CLEARANCE / mm - 0.05, sorted(clearances.items(), key=lambda kv: kv[1])[:5]


def _everything(lang: str) -> list:
    from forge.render.face import build_faces
    from forge.render.sheets import Back

    fronts = aid_cards(aids(lang)) + shop_aid_cards(TPL, aids(lang))
    return (list(build_faces(DB, BOOKS, [lang], REPO)[lang]) + [s for f in fronts for s in (f, f.reverse())]
            + [Back("deck", lang), Back("rite", lang)])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_small_text_is_reversed_out_of_a_rich_plate(lang):
    """The type line (6.6 pt) and the collector number (6 pt) were light text on a dark plate of about
    260 % ink in the print-on-demand file; they are now dark (black ink only) on a light band."""
    _, checks = cards_pdf(_everything(lang), REPO, TPL)
    assert [(c["id"], c["reversed"]) for c in checks if c["reversed"]] == []
    assert len(checks) > 64


def test_small_light_text_on_a_dark_plate_is_a_preflight_problem():
    from forge.render.face import build_faces
    from forge.render.template import TEMPLATE_FILE, parse_template

    text = (REPO / TEMPLATE_FILE).read_text(encoding="utf-8")
    dark = parse_template(text.replace('parchment: "#f5eedc"', 'parchment: "#1d1a16"')
                          .replace('ink: "#1f1b16"', 'ink: "#f1ead8"', 1))
    face = next(f for f in build_faces(DB, BOOKS, ["en"], REPO)["en"] if f.id == "archon-of-dawn")
    _, (check,) = cards_pdf([face], REPO, dark)
    assert any(r.startswith("type line") and "% ink" in r for r in check["reversed"]), check["reversed"]
