"""Print-and-play sheets read back: layouts that fit each paper, every card's own bleed, crop marks at
every cut line, nothing within 5 mm of the paper's edge, backs behind their faces under a long-edge
flip (shifted by --back-offset when asked), and the viewer preferences for actual-size duplex."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from forge.render.face import build_face
from forge.render.sheets import MARK_LEN, PAPER_MARGIN, PAPERS, pnp_sheets, sheet_layout
from forge.render.template import load_template

from .helpers import books, mini_db, physical_count
from .pdfread import edge_strip_ink, placements, px, render, texts

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
CASES = [(paper, layout) for paper in ("a4", "letter") for layout in ("gutter", "butted")]
OFFSET = (1.5, -0.8)  # mm


@pytest.fixture(scope="module")
def tpl():
    return load_template(REPO)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory, tpl):
    """Every paper × layout, English, without and with a back offset: {(paper, layout, offset): path}."""
    db, bk = mini_db(), books()
    faces = [build_face(c, db, bk["en"], "en", REPO) for c in db.cards]
    out = tmp_path_factory.mktemp("sheets")
    paths = {}
    for paper, layout in CASES:
        for offset in ((0.0, 0.0), OFFSET):
            path = out / f"{paper}-{layout}-{offset[0]}.pdf"
            path.write_bytes(pnp_sheets(tpl, faces, "en", paper, REPO, offset, layout=layout))
            paths[(paper, layout, offset)] = path
    return paths


def test_each_paper_gets_a_layout_that_fits_it(tpl):
    a4, letter = sheet_layout(tpl, "a4"), sheet_layout(tpl, "letter")
    assert (a4.cols, a4.rows, a4.rotated) == (2, 4, True)  # 3 upright cards with bleed: 202.5 mm > 200 mm
    assert (letter.cols, letter.rows, letter.rotated) == (2, 3, True)
    butted = sheet_layout(tpl, "a4", "butted"), sheet_layout(tpl, "letter", "butted")
    assert [(s.cols, s.rows, s.rotated) for s in butted] == [(3, 3, False), (2, 4, True)]  # 3 × 3 left 1.35 mm
    for paper, layout in CASES:
        sheet = sheet_layout(tpl, paper, layout)
        x0, y0, x1, y1 = sheet.printed_box()
        pw, ph = PAPERS[paper]
        assert min(x0, y0, pw - x1, ph - y1) >= PAPER_MARGIN, (paper, layout)
        assert sheet.bleed >= (2 * mm if layout == "gutter" else 0)


@pytest.mark.parametrize("paper,layout", CASES)
def test_pages_count_and_label_say_cards_per_page(sheets, tpl, paper, layout):
    reader = PdfReader(sheets[(paper, layout, (0.0, 0.0))])
    per_page = sheet_layout(tpl, paper, layout).per_page
    assert len(reader.pages) == 2 * math.ceil(physical_count(mini_db()) / per_page)
    for page, text in zip(reader.pages, texts(sheets[(paper, layout, (0.0, 0.0))]), strict=True):
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(PAPERS[paper], abs=0.01)
        assert f"{per_page} cards a page" in text


@pytest.mark.parametrize("paper,layout", CASES)
def test_viewer_preferences_ask_for_actual_size_long_edge_duplex(sheets, paper, layout):
    prefs = PdfReader(sheets[(paper, layout, (0.0, 0.0))]).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
    assert prefs["/PickTrayByPDFSize"].value is True  # a PDF boolean, not a name or a string


@pytest.mark.parametrize("paper,layout", CASES)
@pytest.mark.parametrize("offset", [(0.0, 0.0), OFFSET])
def test_cards_fill_their_slots_and_backs_land_behind_their_faces(sheets, tpl, paper, layout, offset):
    db = mini_db()
    physical = [c for c in db.cards for _ in range(db.box_count(c))]
    sheet = sheet_layout(tpl, paper, layout)
    reader = PdfReader(sheets[(paper, layout, offset)])
    pw = PAPERS[paper][0]
    dx, dy = offset[0] * mm, offset[1] * mm
    for n in range(len(reader.pages) // 2):
        cards = physical[n * sheet.per_page:(n + 1) * sheet.per_page]
        fronts = placements(reader.pages[2 * n], tpl)
        backs = placements(reader.pages[2 * n + 1], tpl)
        assert [f["name"] for f in fronts] == [f"{c.id}.en" for c in cards]
        assert [b["name"] for b in backs] == [f"back-{'rite' if c.set == 'rite' else 'deck'}.en" for c in cards]
        for i, (face, back) in enumerate(zip(fronts, backs)):
            x, y = sheet.slot(i)
            assert face["box"] == pytest.approx((x, y, x + sheet.trim_w, y + sheet.trim_h), abs=0.01)
            # flipped on the long edge (the page's vertical centre line), the back covers its face exactly,
            # moved by the measured offset, and its top is on the same edge of the card as the face's
            fx0, fy0, fx1, fy1 = face["box"]
            assert back["box"] == pytest.approx((pw - fx1 + dx, fy0 + dy, pw - fx0 + dx, fy1 + dy), abs=0.01)
            assert back["top"] == pytest.approx((pw - face["top"][0] + dx, face["top"][1] + dy), abs=0.01)
        if sheet.rotated:  # on their side: the face's top towards the page's left
            assert fronts[0]["top"][0] == pytest.approx(fronts[0]["box"][0], abs=0.01)


@pytest.mark.parametrize("paper,layout", CASES)
@pytest.mark.parametrize("offset", [(0.0, 0.0), OFFSET])
def test_nothing_is_printed_within_5_mm_of_the_paper_edge(sheets, paper, layout, offset):
    path = sheets[(paper, layout, offset)]
    for page in range(len(PdfReader(path).pages)):
        image = render(path, page, 100)
        assert edge_strip_ink(image, 100) == [], (paper, layout, page)


def _mean(image, box) -> list[float]:
    from PIL import ImageStat

    return ImageStat.Stat(image.crop(tuple(round(v) for v in box))).mean


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_bleeds_its_own_colour_past_every_cut(sheets, tpl, paper):
    """1.2–2.2 mm outside each cut, where a miscut lands, the card's own colour: never white nor the neighbour's."""
    dpi = 150
    path = sheets[(paper, "gutter", (0.0, 0.0))]
    ph = PAPERS[paper][1]
    reader = PdfReader(path)
    for page in range(len(reader.pages)):
        image = render(path, page, dpi)
        for card in placements(reader.pages[page], tpl):
            x0, y0, x1, y1 = (px(v, dpi) for v in card["box"])
            y0, y1 = px(ph, dpi) - y1, px(ph, dpi) - y0  # image rows grow downwards
            a, b = px(1.2 * mm, dpi), px(2.2 * mm, dpi)
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            half = px(10 * mm, dpi)
            strips = {  # side: (just outside the cut, the mirror strip just inside it)
                "left": ((x0 - b, my - half, x0 - a, my + half), (x0 + a, my - half, x0 + b, my + half)),
                "right": ((x1 + a, my - half, x1 + b, my + half), (x1 - b, my - half, x1 - a, my + half)),
                "top": ((mx - half, y0 - b, mx + half, y0 - a), (mx - half, y0 + a, mx + half, y0 + b)),
                "bottom": ((mx - half, y1 + a, mx + half, y1 + b), (mx - half, y1 - b, mx + half, y1 - a)),
            }
            for side, (outside, inside) in strips.items():
                out, inn = _mean(image, outside), _mean(image, inside)
                assert min(out) < 235, (paper, page, card["name"], side, out)  # not white paper
                assert max(abs(o - i) for o, i in zip(out, inn)) < 40, (paper, page, card["name"], side, out, inn)


@pytest.mark.parametrize("paper,layout", CASES)
def test_crop_marks_at_both_ends_of_every_cut_line(sheets, tpl, paper, layout):
    dpi = 150
    sheet = sheet_layout(tpl, paper, layout)
    path = sheets[(paper, layout, (0.0, 0.0))]
    image = render(path, 0, dpi).convert("L")
    pix = image.load()
    pw, ph = PAPERS[paper]
    xs, ys = sheet.cut_lines()
    bx0, by0, bx1, by1 = sheet.printed_box()

    def dark(x0, y0, x1, y1) -> bool:  # any dark pixel in the page-space box
        X0, X1 = sorted((px(x0, dpi), px(x1, dpi)))
        Y0, Y1 = sorted((px(ph - y0, dpi), px(ph - y1, dpi)))
        return any(pix[x, y] < 140 for x in range(int(X0), int(X1) + 1) for y in range(int(Y0), int(Y1) + 1))

    assert len(xs) == (2 * sheet.cols if sheet.bleed else sheet.cols + 1)
    for x in xs:
        assert dark(x - 0.5, PAPER_MARGIN, x + 0.5, by0 - 0.1), ("bottom", x)
        assert dark(x - 0.5, by1 + 0.1, x + 0.5, ph - PAPER_MARGIN), ("top", x)
    for y in ys:
        assert dark(PAPER_MARGIN, y - 0.5, bx0 - 0.1, y + 0.5), ("left", y)
        assert dark(bx1 + 0.1, y - 0.5, pw - PAPER_MARGIN, y + 0.5), ("right", y)
    # every mark its full length inside the printable area (Letter's butted marks were 1 mm long)
    assert min(by0, bx0, ph - by1, pw - bx1) >= PAPER_MARGIN + MARK_LEN + 0.3 * mm, (paper, layout)
    for x in xs:
        assert dark(x - 0.5, by0 - 0.3 * mm - MARK_LEN + 0.2 * mm, x + 0.5, by0 - 0.3 * mm - MARK_LEN + 0.6 * mm)


@pytest.mark.parametrize("paper,layout", CASES)
def test_backs_cover_their_faces_pixel_for_pixel_after_a_long_edge_flip(sheets, tpl, paper, layout):
    """Row by row, the printed cards' left and right edges on a faces page, mirrored left to right,
    are those of its backs page (to a pixel of antialiasing, at 100 DPI)."""
    from PIL import ImageOps

    dpi = 100
    sheet = sheet_layout(tpl, paper, layout)
    path = sheets[(paper, layout, (0.0, 0.0))]
    ph = PAPERS[paper][1]
    x0, y0, x1, y1 = sheet.printed_box()
    box = (round(px(x0, dpi)) - 4, round(px(ph - y1, dpi)) + 4, round(px(x1, dpi)) + 4, round(px(ph - y0, dpi)) - 4)

    def edges(image) -> list[tuple[int, int]]:
        ink = image.convert("L").crop(box).point(lambda v: 255 if v < 200 else 0)
        w, h = ink.size
        data = ink.tobytes()
        rows = []
        for y in range(h):
            row = data[y * w:(y + 1) * w]
            xs = [x for x in range(w) if row[x]]
            rows.append((xs[0], xs[-1]) if xs else (-1, -1))
        return rows

    for n in range(len(PdfReader(path).pages) // 2):
        face = edges(render(path, 2 * n, dpi))
        back = edges(ImageOps.mirror(render(path, 2 * n + 1, dpi)))  # the printed box is centred: same crop
        assert any(f != (-1, -1) for f in face)
        worst = max(abs(f[0] - b[0]) + abs(f[1] - b[1]) for f, b in zip(face, back))
        assert worst <= 2, (paper, layout, n, worst)


@pytest.mark.slow
def test_every_glyph_on_the_sheets_is_in_its_font(sheets):
    from .pdfread import missing_glyphs

    for (paper, layout, offset), path in sheets.items():
        if offset == (0.0, 0.0):
            assert missing_glyphs(path) == [], (paper, layout)
