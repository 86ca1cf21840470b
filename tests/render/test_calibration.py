"""The duplex calibration page read back: targets in the four corners and the centre on both sides,
rulers on both axes at true length, a text zone nothing else prints in, every glyph in its font,
advice in the page's language, and the back shifted by --back-offset."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from reportlab.lib.units import mm

from forge.render.sheets import (PAPER_MARGIN, PAPERS, RULER_X, RULER_Y, TARGET_INSET, calibration_sheet,
                                 calibration_zones)
from forge.render.template import TEMPLATE_FILE, load_template
from forge.render.pdftext import page_texts

from .pdfread import edge_strip_ink, missing_glyphs, px, render

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
DPI = 150
SHIFT = (2.0, -1.0)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """{(paper, lang, shifted): path} for both papers and languages, and a shifted back on each paper."""
    tpl = load_template(REPO)
    out = tmp_path_factory.mktemp("calibration")
    paths = {}
    for paper in ("a4", "letter"):
        for lang in ("en", "fr"):
            for shifted in (False, True):
                path = out / f"{paper}-{lang}-{shifted}.pdf"
                path.write_bytes(calibration_sheet(tpl, paper, lang, SHIFT if shifted else (0.0, 0.0)))
                paths[(paper, lang, shifted)] = path
    return paths


def _pixel(image, paper, x, y):
    """The pixel under page point (x, y), in points from the bottom-left."""
    return image.getpixel((round(px(x, DPI)), round(px(PAPERS[paper][1] - y, DPI))))


def _dark(rgb) -> bool:
    return sum(rgb) < 300


def _red(rgb) -> bool:
    return rgb[0] > 150 and rgb[1] < 110 and rgb[2] < 110


def _arm_x(image, paper, cx, cy, test) -> float:
    """The x (points) of a target's vertical arm, found 6 mm above its centre, within ±4 mm of ``cx``."""
    y = round(px(PAPERS[paper][1] - (cy + 6 * mm), DPI))
    hits = [x for x in range(round(px(cx - 4 * mm, DPI)), round(px(cx + 4 * mm, DPI)))
            if test(image.getpixel((x, y)))]
    assert hits, (cx, cy)
    return (sum(hits) / len(hits) + 0.5) * 72 / DPI


def _arm_y(image, paper, cx, cy, test) -> float:
    """The y (points, from the bottom) of a target's horizontal arm, found 6 mm right of its centre."""
    x = round(px(cx + 6 * mm, DPI))
    hits = [y for y in range(round(px(PAPERS[paper][1] - cy - 4 * mm, DPI)), round(px(PAPERS[paper][1] - cy + 4 * mm, DPI)))
            if test(image.getpixel((x, y)))]
    assert hits, (cx, cy)
    return PAPERS[paper][1] - (sum(hits) / len(hits) + 0.5) * 72 / DPI


def _targets(paper):
    pw, ph = PAPERS[paper]
    t = TARGET_INSET
    return [(t, t), (pw - t, t), (t, ph - t), (pw - t, ph - t), (pw / 2, ph / 2)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_targets_in_the_corners_and_centre_coincide_front_and_back(pages, paper):
    front, back = render(pages[(paper, "en", False)], 0, DPI), render(pages[(paper, "en", False)], 1, DPI)
    pw = PAPERS[paper][0]
    tol = 0.25 * mm
    for cx, cy in _targets(paper):
        assert _arm_x(front, paper, cx, cy, _dark) == pytest.approx(cx, abs=tol)
        assert _arm_y(front, paper, cx, cy, _dark) == pytest.approx(cy, abs=tol)
        # the back, flipped on the long edge, puts its red target behind the black one
        assert _arm_x(back, paper, pw - cx, cy, _red) == pytest.approx(pw - cx, abs=tol)
        assert _arm_y(back, paper, pw - cx, cy, _red) == pytest.approx(cy, abs=tol)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_back_offset_moves_the_back_and_only_the_back(pages, paper):
    path = pages[(paper, "fr", True)]
    front, back = render(path, 0, DPI), render(path, 1, DPI)
    dx, dy = SHIFT[0] * mm, SHIFT[1] * mm
    tol = 0.25 * mm
    for cx, cy in _targets(paper)[-1:] + _targets(paper)[:1]:
        assert _arm_x(front, paper, cx, cy, _dark) == pytest.approx(cx, abs=tol)
        assert _arm_x(back, paper, cx + dx, cy + dy, _red) == pytest.approx(cx + dx, abs=tol)
        assert _arm_y(back, paper, cx + dx, cy + dy, _red) == pytest.approx(cy + dy, abs=tol)
    assert "+2, -1 mm" in page_texts(path)[1]


def _longest_run(flags) -> int:
    best = run = 0
    for f in flags:
        run = run + 1 if f else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rulers_on_both_axes_measure_true_length(pages, paper):
    image = render(pages[(paper, "en", False)], 0, DPI)
    w, h = image.size
    ph = PAPERS[paper][1]
    row = round(px(ph - PAPER_MARGIN - 12 * mm, DPI))  # the horizontal ruler's line
    col = round(px(PAPER_MARGIN + 12 * mm, DPI))  # the vertical ruler's line
    across = max(_longest_run(_dark(image.getpixel((x, y))) for x in range(w)) for y in (row - 1, row, row + 1))
    up = max(_longest_run(_dark(image.getpixel((x, y))) for y in range(h)) for x in (col - 1, col, col + 1))
    assert across * 25.4 / DPI == pytest.approx(RULER_X, abs=0.5)
    assert up * 25.4 / DPI == pytest.approx(RULER_Y, abs=0.5)
    text = page_texts(pages[(paper, "en", False)])[0]
    assert f"{RULER_X} mm" in text and f"{RULER_Y} mm" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_text_zone_holds_the_text_and_nothing_else(pages, paper, lang):
    import pypdfium2 as pdfium

    path = pages[(paper, lang, False)]
    tpl = load_template(REPO)
    zone = calibration_zones(paper, len(tpl.labels(lang)["calibration_help"]))["text"]
    ph = PAPERS[paper][1]
    doc = pdfium.PdfDocument(str(path))
    for index in (0, 1):
        image = render(path, index, DPI)
        text = doc[index].get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
        inside = [b for b in boxes if zone[0] <= b[0] and b[2] <= zone[2] and zone[1] <= b[1] and b[3] <= zone[3]]
        assert len(inside) > 400, "the help text is in the zone"
        covered = set()  # each glyph's box, and the two pixels around it that antialiasing touches
        for left, bottom, right, top in inside:
            for x in range(int(px(left, DPI)) - 2, int(px(right, DPI)) + 3):
                for y in range(int(px(ph - top, DPI)) - 2, int(px(ph - bottom, DPI)) + 3):
                    covered.add((x, y))
        stray = [(x, y) for x in range(int(px(zone[0], DPI)), int(px(zone[2], DPI)))
                 for y in range(int(px(ph - zone[3], DPI)), int(px(ph - zone[1], DPI)))
                 if (x, y) not in covered and image.getpixel((x, y)) != (255, 255, 255)]
        assert stray == [], (index, stray[:5])
    doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_within_5_mm_of_the_edge_and_actual_size_duplex_asked(pages, paper):
    for shifted in (False, True):
        path = pages[(paper, "en", shifted)]
        for index in (0, 1):
            assert edge_strip_ink(render(path, index, 100), 100) == []
    prefs = PdfReader(pages[(paper, "en", False)]).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_every_glyph_printed_is_in_its_font(pages):
    for path in pages.values():
        assert missing_glyphs(path) == [], path.name


def test_a_glyph_missing_from_the_font_is_caught(tmp_path):
    data = yaml.safe_load((REPO / TEMPLATE_FILE).read_text(encoding="utf-8"))
    data["labels"]["en"]["calibration_help"][0] += " → then cut"
    (tmp_path / TEMPLATE_FILE).parent.mkdir(parents=True)
    (tmp_path / TEMPLATE_FILE).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    path = tmp_path / "calibration.pdf"
    path.write_bytes(calibration_sheet(load_template(tmp_path), "a4", "en"))
    assert {(font, ch) for _, font, ch, _ in missing_glyphs(path)} == {("Lato-Regular", "\x00")}


def test_advice_in_the_page_language(pages):
    tpl = load_template(REPO)
    for lang in ("en", "fr"):
        text = page_texts(pages[("a4", lang, False)])[0]
        assert tpl.labels(lang)["calibration"] in text
        assert "--back-offset -1.5,0.5" in text
    en = page_texts(pages[("a4", "en", False)])[0]
    fr = page_texts(pages[("a4", "fr", False)])[0]
    assert "Without forge" in en and "Sans forge" in fr and "Without forge" not in fr
