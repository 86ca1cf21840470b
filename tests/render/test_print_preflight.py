"""Preflight's print figures (colour spaces, total ink, text size, black text, fonts, bleed, PDF/X,
transparency) measured on real files, and the print shops' verdicts failing on an injected violation."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from forge.render import colour, paint
from forge.render.cards import RenderOptions, render_cards
from forge.render.paint import Painter
from forge.render.pdf import PdfBuffer
from forge.render.preflight import SHOP_RULES, check_pdf, measure_pdf, print_advice, print_problems, shop_verdict
from forge.render.template import load_template

from .helpers import books, mini_db, physical_count
from .test_command import CARDS

from ..conftest import invoke

REPO = Path(__file__).resolve().parents[2]
POD = SHOP_RULES["pod"]


def _pod_render(out: Path):
    return render_cards(mini_db(), books(), REPO, RenderOptions(out=out, workers=1, profiles=("pod",), langs=("en",)))


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("render") / "output"
    return out, _pod_render(out)


def test_the_pod_report_has_every_figure(rendered):
    out, result = rendered
    saved = json.loads((out / "pod/preflight.json").read_text())
    assert saved["ok"] and saved["shop"]["pass"] and saved["shop"]["failed"] == []
    assert saved["shop"]["rules"]["max_tac_percent"] == 300
    (entry,) = saved["files"]
    f = entry["figures"]
    assert f["colour_spaces"] == ["DeviceCMYK"]
    assert 200 < f["tac_max_percent"] <= 300 and f["tac_where"].startswith("page ")
    footer = load_template(REPO).layout("creature")["footer"]["size"]
    assert footer >= POD["advised_min_text_pt"]
    assert f["min_text_pt"] == pytest.approx(footer, abs=0.01)  # the footer's collector number, the smallest
    assert f["black_text_k_only"] and f["rich_black_text_under_12pt"] == []
    assert f["fonts_embedded"] == f"{len(entry['fonts'])}/{len(entry['fonts'])}"
    assert f["min_bleed_mm"] == pytest.approx(3.175, abs=0.01) and f["pages_without_trim_or_bleed_box"] == []
    assert f["pdfx"] == {"version": "PDF/X-4", "trapped": "False", "document_id": True, "xmp": True,
                         "output_intent": "FOGRA39",
                         "icc": {"colour_space": "CMYK", "class": "prtr", "n": 4, "bytes": 1052612}}
    # every card page uses transparency; the text-only player aids (turn summary, Wound order) need none
    assert 2 * physical_count(mini_db()) <= f["transparent_pages"] <= entry["pages"]
    assert f["transparent_pages_without_cmyk_group"] == []
    assert saved["shop"]["advice"] == []  # no text under the size that reads comfortably


def test_small_type_is_advice_not_a_refusal():
    assert print_advice({"min_text_pt": 4.1}, POD) == ["has text of 4.1 pt, under the 6 pt that reads comfortably"]
    assert print_advice({"min_text_pt": 6.0}, POD) == []


def test_the_measured_ink_is_the_highest_colour_of_the_file(rendered):
    """The figure is the largest C+M+Y+K among the file's colours and gradient stops, read independently."""
    import re

    out, _ = rendered
    r = PdfReader(out / "pod/rift-commanders-en-pod.pdf")
    worst = 0.0
    for page in r.pages:
        for ref in page["/Resources"]["/XObject"].values():
            form = ref.get_object()
            for m in re.finditer(rb"([-.\d]+) ([-.\d]+) ([-.\d]+) ([-.\d]+) [kK]\b", form.get_data()):
                worst = max(worst, sum(float(v) for v in m.groups()))
            for sh in (form["/Resources"].get("/Shading") or {}).values():
                fn = sh.get_object()["/Function"].get_object()
                for part in fn.get("/Functions", [fn]):
                    for stop in ("/C0", "/C1"):
                        worst = max(worst, sum(float(v) for v in part.get_object()[stop]))
    assert measure_pdf(r)["tac_max_percent"] == pytest.approx(worst * 100, abs=0.05)


@pytest.mark.slow
def test_the_cli_prints_the_figures(project):
    """On a ten-card game (tests/render/test_command.py's): the figures are the file's, whatever its cards."""
    project("game.yaml", CARDS)
    result = invoke(["render", "cards", "--root", str(project.root), "--profile", "pod", "--lang", "fr",
                     "--workers", "1"])
    assert result.exit_code in (0, 1), result.output
    line = next(x for x in result.output.splitlines() if "rift-commanders-fr-pod.pdf:" in x)
    assert "DeviceCMYK" in line and "ink ≤" in line and "PDF/X-4 (FOGRA39)" in line and "bleed 3.2 mm" in line


# -- injected violations ------------------------------------------------------------------------------------
def _raw(path: Path, draw, size=(200, 200)) -> Path:
    """A PDF made straight with reportlab, without forge's colour management or PDF/X."""
    from forge.render.assets import register_fonts

    register_fonts()
    c = Canvas(str(path), pagesize=size, invariant=1, trimBox=(9, 9, 191, 191), bleedBox=(0, 0, 200, 200))
    c.setTitle("Rift Commanders — bad")
    c.setAuthor("test")
    draw(c)
    c.showPage()
    c.save()
    return path


def test_too_much_ink_is_refused(tmp_path):
    def draw(c):
        c.setFillColorCMYK(1, 1, 1, 1)
        c.rect(0, 0, 10, 10, fill=1, stroke=0)

    f = measure_pdf(PdfReader(_raw(tmp_path / "a.pdf", draw)))
    assert f["tac_max_percent"] == 400
    assert "puts 400.0 % ink on paper (page 1: a colour), over the press's 300 %" in print_problems(f, POD)


def test_too_much_ink_in_an_image_is_refused(tmp_path):
    from PIL import Image

    def draw(c):
        from reportlab.lib.utils import ImageReader

        c.drawImage(ImageReader(Image.new("CMYK", (20, 20), (255, 255, 255, 200))), 0, 0, 50, 50)

    f = measure_pdf(PdfReader(_raw(tmp_path / "a.pdf", draw)))
    assert f["tac_max_percent"] == pytest.approx(378.4, abs=0.1)
    assert f["images"][0]["colour_space"] == "DeviceCMYK" and f["images"][0]["tac_max_percent"] == f["tac_max_percent"]
    assert any("ink on paper (page 1: an image)" in p for p in print_problems(f, POD))


def test_rgb_rich_black_text_missing_pdfx_and_groups_are_refused(tmp_path):
    def draw(c):
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c.rect(0, 0, 10, 10, fill=1, stroke=0)
        c.setFillColorCMYK(0.75, 0.68, 0.67, 0.9)  # a rich black
        c.setFont("Lato", 8)
        c.drawString(20, 100, "rich black")
        c.setFillAlpha(0.5)
        c.rect(50, 50, 10, 10, fill=1, stroke=0)

    f = measure_pdf(PdfReader(_raw(tmp_path / "a.pdf", draw)))
    assert f["colour_spaces"] == ["DeviceCMYK", "DeviceRGB"] and f["min_text_pt"] == 8
    assert not f["black_text_k_only"] and f["rich_black_text_under_12pt"] == ["page 1: 8.0 pt"]
    problems = print_problems(f, POD)
    assert problems == [
        "uses the colour space DeviceRGB; the press takes DeviceCMYK only",
        "prints small black text with several inks (rich black), at page 1: 8.0 pt",
        "is not identified as PDF/X-4 (GTS_PDFXVersion None)",
        "lacks a PDF/X key: /Trapped True or False, a document ID and XMP metadata",
        "has no PDF/X output intent with a CMYK ICC profile",
        "uses transparency without a DeviceCMYK page group on pages [1]",
    ]


def test_missing_bleed_is_refused(tmp_path):
    doc = PdfBuffer((200, 200), "Rift Commanders — no bleed", "en", cmyk=True, trim=(0, 0, 200, 200))
    Painter(doc.canvas, cmyk=True).text(20, 100, "x", "Lato", 9, "#1f1b16")
    doc.canvas.showPage()
    path = tmp_path / "a.pdf"
    path.write_bytes(doc.finish())
    report = check_pdf(path, (200, 200), 1, cmyk=True, lang="en")
    assert report["figures"]["min_bleed_mm"] == 0
    assert "has 0.00 mm of bleed, under the press's 3.0 mm" in report["problems"]


def test_a_forge_pdf_with_text_in_ink_passes_the_press(tmp_path):
    doc = PdfBuffer((200, 200), "Rift Commanders — good", "en", cmyk=True, trim=(9, 9, 182, 182))
    p = Painter(doc.canvas, cmyk=True)
    p.text(20, 100, "ink", "Lato", 7, "#1f1b16")
    p.fill("#000000", alpha=0.3)
    doc.canvas.rect(0, 0, 50, 50, fill=1, stroke=0)
    doc.canvas.showPage()
    path = tmp_path / "a.pdf"
    path.write_bytes(doc.finish())
    report = check_pdf(path, (200, 200), 1, cmyk=True, lang="en")
    assert report["problems"] == [] and report["figures"]["black_text_k_only"]


def test_a_render_with_rich_black_text_fails_the_pod_shop(tmp_path, monkeypatch):
    """Inject the fault in the renderer (text converted like any colour): the real file is refused."""
    monkeypatch.setattr(paint, "text_cmyk", colour.press_cmyk)
    result = _pod_render(tmp_path / "out")
    report = result.preflight["pod"]
    assert not report["ok"] and not report["shop"]["pass"]
    assert any("rich black" in f for f in report["shop"]["failed"])
    assert any(f.rule == "preflight" and "rich black" in f.message for f in result.findings)


def test_a_render_over_the_ink_limit_fails_the_pod_shop(tmp_path, monkeypatch):
    from forge.render.template import load_template

    gold = load_template(REPO).color("gold")  # the frame's gold, on every card
    monkeypatch.setattr(paint, "press_cmyk", lambda value: (1.0, 1.0, 1.0, 0.5) if value == gold else
                        colour.press_cmyk(value))
    report = _pod_render(tmp_path / "out").preflight["pod"]
    assert report["files"][0]["figures"]["tac_max_percent"] == 350
    assert any("350.0 % ink" in f for f in report["shop"]["failed"])


@pytest.mark.parametrize("shop", ["gamecrafter", "mpc"])
def test_png_shops_fail_on_a_bad_file_or_a_safe_zone_crossing(shop):
    good = {"path": f"{shop}/en/a.png", "problems": []}
    bad = {"path": f"{shop}/en/b.png", "problems": ["is 800×1100 px, expected 825×1125"]}
    assert shop_verdict(shop, [good], [])["pass"]
    verdict = shop_verdict(shop, [good, bad], [])
    assert not verdict["pass"] and verdict["failed"] == [f"{shop}/en/b.png is 800×1100 px, expected 825×1125"]
    crossing = [{"lang": "en", "id": "x", "overflow": [], "safe_zone": ["text 'name' at (1.0, 2.0)"]}]
    assert shop_verdict(shop, [good], crossing)["failed"] == ["en/x: text 'name' at (1.0, 2.0) crosses the safe zone"]
    assert verdict["rules"]["dpi"] == 300


def test_inline_images_and_strings_with_brackets_are_read(tmp_path):
    """The content-stream reader is not fooled by parentheses and brackets inside strings."""
    from forge.render.pdfscan import tokens

    data = b"BT /F1 9 Tf (a\\) ] k 1 1 1 1 k [) Tj ET BI /W 1 /H 1 /CS /RGB /BPC 8 ID \x00\xff\x10 EI 0 0 0 1 k"
    toks = list(tokens(data))
    assert ("op", b"Tj") in toks and toks[-1] == ("op", b"k")
    assert sum(1 for t in toks if t == ("op", b"k")) == 1
    doc = io.BytesIO()
    c = Canvas(doc, pagesize=(100, 100), invariant=1)
    c.setFillColorRGB(1, 0, 0)
    c.drawString(10, 10, "(x) [y]")
    c.showPage()
    c.save()
    f = measure_pdf(PdfReader(io.BytesIO(doc.getvalue())))
    assert f["colour_spaces"] == ["DeviceRGB"] and f["min_text_pt"] == 12


def test_an_inline_rgb_image_is_found():
    from PIL import Image

    doc = io.BytesIO()
    c = Canvas(doc, pagesize=(100, 100), invariant=1)
    c.setFillColorCMYK(0, 0, 0, 1)
    c.drawInlineImage(Image.new("RGB", (4, 4), (200, 10, 10)), 10, 10, 20, 20)
    c.showPage()
    c.save()
    f = measure_pdf(PdfReader(io.BytesIO(doc.getvalue())))
    assert f["colour_spaces"] == ["DeviceCMYK", "DeviceRGB"]
    assert f["images"] == [{"where": "page 1", "colour_space": "DeviceRGB", "inline": True}]
    assert "uses the colour space DeviceRGB; the press takes DeviceCMYK only" in print_problems(f, POD)


def _weasy(svg: str) -> PdfReader:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import weasyprint
    return PdfReader(io.BytesIO(weasyprint.HTML(string=f'<body style="margin: 0">{svg}</body>').write_pdf()))


def test_a_colour_inside_a_tiling_pattern_is_measured():
    """WeasyPrint paints an SVG gradient through a tiling pattern's cell: its RGB must not hide there."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><linearGradient id="g">'
           '<stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs>'
           '<rect width="100" height="100" fill="url(#g)"/></svg>')
    f = measure_pdf(_weasy(svg))
    assert f["colour_spaces"] == ["DeviceRGB", "Pattern"]
    assert print_problems(f, POD)[0] == "uses the colour space DeviceRGB; the press takes DeviceCMYK only"


def test_a_pattern_is_no_colour_space_of_its_own_for_the_press():
    figures = {"colour_spaces": ["DeviceCMYK", "Pattern"], "tac_max_percent": 100.0, "tac_where": "",
               "black_text_k_only": True, "pages_without_trim_or_bleed_box": [], "min_bleed_mm": 3.0,
               "pdfx": {"version": "PDF/X-4", "trapped": "False", "document_id": True, "xmp": True,
                        "output_intent": "FOGRA39", "icc": {"colour_space": "CMYK", "n": 4}},
               "transparent_pages_without_cmyk_group": []}
    assert print_problems(figures, POD) == []
    assert print_problems({**figures, "colour_spaces": ["DeviceCMYK", "DeviceGray"]}, POD) == [
        "uses the colour space DeviceGray; the press takes DeviceCMYK only"]
