"""The books' print files (issue 10 §1): the press PDF/X read back as the cards' print-on-demand file is,
and the booklets for home printing; the screen PDF stays as it was."""
from __future__ import annotations

import io
import re
from functools import lru_cache

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, StreamObject

from forge.books.build import build_books, output_path, print_path
from forge.books.impose import SHEETS, booklet_sides, padded_order
from forge.books.press import BLEED_MM, MARK_LENGTH_MM, MARK_OFFSET_MM, SLUG_MM
from forge.render.colour import PRESS_PROFILE, press_lab
from forge.render.preflight import SHOP_RULES, measure_pdf, print_problems

from ..render.pdfread import render
from .conftest import KINDS, LANGS

PT = 72 / 25.4
A5 = (148 * PT, 210 * PT)
BOOKS = [(kind, lang) for kind in KINDS for lang in LANGS]


@lru_cache(maxsize=None)
def _reader(path: str) -> PdfReader:
    return PdfReader(path)


def press(rendered, kind: str, lang: str) -> PdfReader:
    return _reader(str(print_path(rendered[1], kind, lang, "press")))


def screen(rendered, kind: str, lang: str) -> PdfReader:
    return _reader(str(output_path(rendered[1], kind, lang)))


@lru_cache(maxsize=None)
def _figures(path: str) -> dict:
    return measure_pdf(_reader(path))


def figures(rendered, kind, lang) -> dict:
    return _figures(str(print_path(rendered[1], kind, lang, "press")))


# -- the press file ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,lang", BOOKS)
def test_the_print_file_passes_the_print_on_demand_preflight(rendered, kind, lang):
    outcome = rendered[0][(kind, lang)]
    assert set(outcome.files) == {"press", "booklet-a4", "booklet-letter"} and outcome.problems == []
    f = figures(rendered, kind, lang)
    assert print_problems(f, SHOP_RULES["pod"]) == []
    assert f["tac_max_percent"] <= 300.0
    assert f["fonts"] and all(f["fonts"].values())  # every font embedded


@pytest.mark.parametrize("kind,lang", BOOKS)
def test_every_page_has_its_trim_box_the_a5_page_and_3_mm_of_bleed(rendered, kind, lang):
    reader = press(rendered, kind, lang)
    assert len(reader.pages) == rendered[0][(kind, lang)].pages
    bleed, slug = BLEED_MM * PT, SLUG_MM * PT
    for page in reader.pages:
        trim, box, media = ([float(v) for v in b] for b in (page.trimbox, page.bleedbox, page.mediabox))
        assert trim[2] - trim[0] == pytest.approx(A5[0], abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(A5[1], abs=0.01)
        assert box == pytest.approx([trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed], abs=0.01)
        assert media == pytest.approx([trim[0] - slug, trim[1] - slug, trim[2] + slug, trim[3] + slug], abs=0.01)


@pytest.mark.parametrize("kind,lang", BOOKS)
def test_the_print_file_is_identified_as_pdf_x4_with_the_press_profile(rendered, kind, lang):
    reader = press(rendered, kind, lang)
    assert reader.pdf_header == "%PDF-1.6"
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-4" and info["/Trapped"] == "/False"
    assert info["/CreationDate"] == info["/ModDate"] and info["/Title"]
    root = reader.trailer["/Root"]
    (intent,) = [i.get_object() for i in root["/OutputIntents"]]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == PRESS_PROFILE.read_bytes()
    xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp and "<pdf:Trapped>False" in xmp
    ids = reader.trailer["/ID"]
    assert len(ids) == 2 and ids[0]
    assert f"uuid:{str(ids[0])[:8]}-" in xmp  # the XMP document ID is the file's


def _walk(obj, seen: set, found: list, where: str) -> None:
    """Every name and content-stream colour operator under ``obj``: DeviceRGB left anywhere is found."""
    if isinstance(obj, IndirectObject):
        if obj.idnum in seen:
            return
        seen.add(obj.idnum)
        obj = obj.get_object()
    if isinstance(obj, StreamObject) and obj.get("/Subtype") in ("/Form", None) and "/Length1" not in obj \
            and obj.get("/Type") in ("/XObject", "/Pattern", None) and "/FunctionType" not in obj:
        data = obj.get_data()
        if re.search(rb"(^|\s)[\d.]+\s+[\d.]+\s+[\d.]+\s+(rg|RG)(\s|$)", data):
            found.append(f"{where}: an rg operator")
    if isinstance(obj, DictionaryObject):
        for key, value in obj.items():
            if key not in ("/Parent", "/P", "/Dest", "/First", "/Last", "/Next", "/Prev"):
                _walk(value, seen, found, f"{where}{key}")
    elif isinstance(obj, ArrayObject):
        for value in obj:
            _walk(value, seen, found, where)
    elif isinstance(obj, NameObject) and obj == "/DeviceRGB":
        found.append(where)


@pytest.mark.parametrize("kind,lang", BOOKS)
def test_no_device_rgb_is_left_in_the_print_file_and_the_screen_pdf_is_still_rgb(rendered, kind, lang):
    found: list[str] = []
    seen: set = set()
    reader = press(rendered, kind, lang)
    for number, page in enumerate(reader.pages, 1):
        _walk(page.indirect_reference, seen, found, f"page {number}")
    assert found == []
    f = figures(rendered, kind, lang)
    assert set(f["colour_spaces"]) <= {"DeviceCMYK", "Pattern", "Separation(All)"}  # registration: the crop marks
    assert {im["colour_space"] for im in f["images"]} <= {"DeviceCMYK"}
    assert all(page.get("/Group", {}).get("/CS") == "/DeviceCMYK" for page in reader.pages)
    on_screen = measure_pdf(screen(rendered, kind, lang))
    assert "DeviceRGB" in on_screen["colour_spaces"] and on_screen["pdfx"]["output_intent"] is None


@pytest.mark.parametrize("kind,lang", BOOKS)
def test_black_text_prints_in_black_ink_only(rendered, kind, lang):
    from forge.render.pdfscan import scan

    texts = scan(press(rendered, kind, lang)).texts
    black = [t for t in texts if press_lab(tuple(t.colour.values))[0] <= 25]
    assert black, "the body text is black"
    assert all(t.colour.space == "DeviceCMYK" and t.colour.values[:3] == (0, 0, 0) for t in black)
    assert {t.page for t in black} == {t.page for t in black if t.colour.values == (0, 0, 0, 1)}  # the ink: 100 % K
    assert figures(rendered, kind, lang)["black_text_k_only"]


def _rgb_dark(p) -> bool:
    return sum(p) < 200


@pytest.mark.parametrize("lang", LANGS)
def test_the_cover_and_the_paper_tint_run_into_the_bleed_and_the_marks_sit_outside_it(rendered, lang):
    path = print_path(rendered[1], "rulebook", lang, "press")
    dpi = 72
    slug, bleed = SLUG_MM * PT, BLEED_MM * PT  # at 72 dpi, one pixel a point
    inside = int(slug - bleed / 2)  # the middle of the bleed strip
    cover, inner = render(path, 0, dpi), render(path, 1, dpi)
    w, h = cover.size
    # the bleed strip, all round the page, is painted as the page is: the cover dark, a page its paper tint
    for x, y in ((w // 2, inside), (w // 2, h - 1 - inside), (inside, h // 2), (w - 1 - inside, h // 2)):
        assert _rgb_dark(cover.getpixel((x, y))), (x, y)
        assert inner.getpixel((x, y)) != (255, 255, 255) and not _rgb_dark(inner.getpixel((x, y)))
    # no seam at the trim: the cover's gradient goes on into the bleed (the corners differ most from a flat fill)
    trim = round(slug)
    diagonal = [cover.getpixel((i, i)) for i in range(trim - 6, trim + 8)]
    steps = [max(abs(a - b) for a, b in zip(p, q)) for p, q in zip(diagonal, diagonal[1:])]
    assert max(steps) <= 4, diagonal
    # past the bleed: white paper, but for the crop marks, along the trim lines
    corner = int(slug - bleed) - 2
    assert all(cover.getpixel((x, y)) == (255, 255, 255) for x in range(corner) for y in range(corner)
               if abs(x - slug) > 2 and abs(y - slug) > 2)
    mark_x = int(slug - (MARK_OFFSET_MM + MARK_LENGTH_MM / 2) * PT)  # halfway along the top-left horizontal mark
    assert _rgb_dark(cover.getpixel((mark_x, round(slug))))
    assert cover.getpixel((mark_x, round(slug) + 6)) == (255, 255, 255)


def test_the_screen_pdf_is_the_a5_page_without_bleed_or_marks(rendered):
    reader = screen(rendered, "rulebook", "en")
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, *A5], abs=0.01)
        assert [float(v) for v in page.trimbox] == [float(v) for v in page.mediabox]
    assert "/OutputIntents" not in reader.trailer["/Root"] and "/GTS_PDFXVersion" not in reader.metadata


def test_the_same_inputs_give_the_same_bytes_and_each_stream_encoded_once_changes_none(rendered, shipped_root,
                                                                                       tmp_path, monkeypatch):
    """A second build of a book gives the very bytes of the first: its screen PDF, its print file and its
    booklets. The first (the session's, in a pool worker) wrote each stream encoded once while it stayed the
    same (``forge.books.pdfobjects.kept_streams``: the five writes of a book's objects); this one, in this
    process, writes with pydyf's own encoding at every write: the same bytes prove that the kept streams
    change none, and that the same inputs give the same files from run to run."""
    from contextlib import nullcontext

    from forge.books import press

    monkeypatch.setattr(press, "kept_streams", nullcontext)
    again = build_books(shipped_root, ("rulebook",), ("fr",), tmp_path, workers=1, press=True)[0]
    assert again.written and set(again.files) == {"press", "booklet-a4", "booklet-letter"}
    assert output_path(tmp_path, "rulebook", "fr").read_bytes() == output_path(rendered[1], "rulebook", "fr").read_bytes()
    for name in again.files:
        assert print_path(tmp_path, "rulebook", "fr", name).read_bytes() == \
            print_path(rendered[1], "rulebook", "fr", name).read_bytes(), name


@pytest.mark.slow
def test_the_screen_pdf_is_the_same_with_or_without_the_print_files(tmp_path):
    """With --print, the screen PDF is serialised from the print file's objects (forge.books.pdfobjects):
    the same bytes as without, and the same pictures as a book laid out without any bleed. A mechanism, not
    the shipped prose: the small project's rulebook (tests/books/miniproject.py) has forge's cover and pages."""
    import weasyprint
    from PIL import ImageChops, ImageStat

    from forge.books.compose import compose
    from forge.books.pdf import render_book

    from .conftest import project_of
    from .miniproject import mini_project

    root = mini_project(tmp_path / "game")
    book = compose(project_of(root), "rulebook", "en")
    base = root.resolve().as_uri() + "/"
    alone = render_book(book.html, book.tail_html, base, book.policy)
    both = render_book(book.html, book.tail_html, base, book.policy, press="key")
    assert alone.screen == both.screen and alone.press is None and both.press and set(both.booklets) == set(SHEETS)
    assert render_book(book.html, book.tail_html, base, book.policy, press="key") == both  # nothing left behind
    no_bleed = weasyprint.HTML(string=book.html, base_url=base).write_pdf()
    (tmp_path / "screen.pdf").write_bytes(alone.screen)
    (tmp_path / "no-bleed.pdf").write_bytes(no_bleed)
    assert alone.pages >= 4
    for page in (0, 1, 2):
        a, b = render(tmp_path / "screen.pdf", page, 40), render(tmp_path / "no-bleed.pdf", page, 40)
        assert max(ImageStat.Stat(ImageChops.difference(a, b)).mean) < 1.5, page  # the cover's gradient: a hair


# -- the booklets -----------------------------------------------------------------------------------
def test_booklet_order_of_a_known_page_count():
    assert booklet_sides(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]  # pages 8|1, 2|7, 6|3, 4|5
    assert padded_order(6) == [0, 1, 2, 3, 4, None, None, 5]  # blanks before the back cover
    assert booklet_sides(6) == [(5, 0), (1, None), (None, 2), (3, 4)]
    assert booklet_sides(16)[0] == (15, 0) and booklet_sides(16)[-1] == (7, 8)
    for n in range(1, 41):
        sides = booklet_sides(n)
        placed = [p for side in sides for p in side if p is not None]
        assert sorted(placed) == list(range(n)) and len(sides) * 2 % 4 == 0


def _placed(reader: PdfReader, sheet_page) -> list[tuple[int, tuple[float, ...]]]:
    """(book page, cm matrix) of each page placed on a sheet, left to right."""
    ops = sheet_page.get_contents().get_data().decode()
    return [(int(name) - 1, tuple(float(v) for v in cm.split()))
            for cm, name in re.findall(r"([-\d. ]+) cm\s+/P(\d+) Do", ops)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sheet", sorted(SHEETS))
def test_the_booklet_places_the_pages_in_booklet_order_for_short_edge_duplex(rendered, lang, sheet):
    kind = "reference"
    booklet = PdfReader(str(print_path(rendered[1], kind, lang, f"booklet-{sheet}")))
    book = screen(rendered, kind, lang)
    n = len(book.pages)
    assert n % 4 == 0 and len(booklet.pages) == n // 2
    prefs = booklet.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge" and prefs["/PrintScaling"] == "/None"
    paper = SHEETS[sheet]
    for side, sheet_page in zip(booklet_sides(n), booklet.pages):
        assert [float(v) for v in sheet_page.mediabox] == pytest.approx([0, 0, paper.width, paper.height], abs=0.01)
        placed = _placed(booklet, sheet_page)
        assert [p for p, _ in placed] == [p for p in side if p is not None]
        (left, lm), (right, rm) = placed
        scale = lm[0]
        assert lm[4] + A5[0] * scale == pytest.approx(paper.width / 2, abs=0.01) == rm[4]  # either side of the fold
        assert 0 <= lm[4] and rm[4] + A5[0] * scale <= paper.width + 0.01 and A5[1] * scale <= paper.height + 0.01
        assert scale == (1.0 if sheet == "a4" else pytest.approx(paper.width / 2 / A5[0]))
        for index in (left, right):  # the form placed is that page's own drawing, clipped to the page
            form = sheet_page["/Resources"]["/XObject"][f"/P{index + 1}"].get_object()
            assert form.get_data() == book.pages[index].get_contents().get_data()
            assert [float(v) for v in form["/BBox"]] == pytest.approx([0, 0, *A5], abs=0.01)


def test_a_booklet_pads_with_blanks_before_the_back_cover():
    import weasyprint

    from forge.books.impose import write_booklets

    pages = "".join(f'<p style="break-before: page">page {i}</p>' for i in range(1, 7))
    booklets: dict = {}
    html = f"<style>@page {{ size: A5 }}</style>{pages}"
    weasyprint.HTML(string=html).render().write_pdf(finisher=lambda doc, pdf: booklets.update(write_booklets(pdf)))
    reader = PdfReader(io.BytesIO(booklets["a4"]))
    assert len(reader.pages) == 4
    assert [[p for p, _ in _placed(reader, page)] for page in reader.pages] == [[5, 0], [1], [2], [3, 4]]
    assert [reader.pages[i].extract_text().strip() for i in (1, 2)] == ["page 2", "page 3"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_a4_booklet_looks_like_the_book_two_up(rendered, lang):
    booklet = print_path(rendered[1], "rulebook", lang, "booklet-a4")
    book = output_path(rendered[1], "rulebook", lang)
    sheet = render(booklet, 0, 36)  # the outside of the cover sheet: the last page | the cover
    cover, last = render(book, 0, 36), render(book, len(screen(rendered, "rulebook", lang).pages) - 1, 36)
    half = sheet.width // 2

    def close(a, b) -> bool:
        from PIL import ImageChops, ImageStat

        diff = ImageChops.difference(a.resize((40, 56)), b.resize((40, 56)))
        return max(ImageStat.Stat(diff).mean) < 6

    assert close(sheet.crop((half, 0, sheet.width, sheet.height)), cover)
    assert close(sheet.crop((0, 0, half, sheet.height)), last)


@pytest.mark.parametrize("kind, lang", [("rulebook", "en"), ("reference", "fr")])
def test_the_crop_marks_are_in_registration_colour_on_every_page(rendered, kind, lang):
    """Issue 24 §4: crop marks print on every plate (Separation All, 100 % of each ink), not in black
    alone, so the printer aligns the four plates on them; the shop's preflight accepts them."""
    reader = press(rendered, kind, lang)
    for page in reader.pages:
        space = page["/Resources"]["/ColorSpace"]["/ForgeRegistration"].get_object()
        assert [space[0], space[1], space[2]] == ["/Separation", "/All", "/DeviceCMYK"]
        assert [float(v) for v in space[3].get_object()["/C1"]] == [1, 1, 1, 1]
        data = page.get_contents().get_data()
        assert data.count(b"/ForgeRegistration CS 1 SCN") == 1 and b"0 0 0 1 K" not in data
    figures = measure_pdf(reader)
    assert "Separation(All)" in figures["colour_spaces"]
    assert print_problems(figures, SHOP_RULES["pod"]) == []
