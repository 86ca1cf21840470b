"""The print-on-demand PDF read back: PDF/X-4 with the press profile as output intent, colours converted
through that ICC profile (not a formula), black text in black ink only, ink within 300 %, boxes on every
page, transparency in CMYK page groups; the other profiles stay RGB."""
from __future__ import annotations

import hashlib
import io
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from forge.render import colour
from forge.render.cards import RenderOptions, render_cards
from forge.render.paint import Painter, hex_rgb
from forge.render.pdf import PdfBuffer
from forge.render.template import load_template

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]
ICC = REPO / "forge/assets/icc/ISOcoated_v2_300_bas.icc"


@pytest.fixture(scope="module")
def art_root(tmp_path_factory):
    """A project folder with one saturated, dark piece of art (the ink limit matters most there)."""
    from PIL import Image

    root = tmp_path_factory.mktemp("project")
    (root / "art").mkdir()
    img = Image.new("RGB", (900, 700))
    for i, c in enumerate([(0, 0, 0), (0, 0, 255), (30, 0, 60), (255, 0, 0), (0, 255, 0), (20, 20, 20)]):
        img.paste(c, (i * 150, 0, i * 150 + 150, 700))
    img.save(root / "art" / "dark.png")
    return root


@pytest.fixture(scope="module")
def pod(tmp_path_factory, art_root):
    """The pod (and proof) files of the small game, one card with raster art, both languages."""
    db = mini_db()
    db.cards[0] = replace(db.cards[0], art="art/dark.png")
    out = tmp_path_factory.mktemp("render") / "output"
    result = render_cards(db, books(), art_root, RenderOptions(out=out, workers=1, profiles=("pod", "proof")))
    return out, result


def reader(out: Path, lang: str = "en") -> PdfReader:
    return PdfReader(out / f"pod/rift-commanders-{lang}-pod.pdf")


def streams(r: PdfReader):
    """(what, content bytes, resources) of every page and every form they place, nested forms included."""
    seen = set()

    def visit(what, data, res):
        yield what, data, res
        res = res.get_object() if res is not None else {}
        for name, ref in (res.get("/XObject") or {}).items():
            obj = ref.get_object()
            if obj["/Subtype"] == "/Form" and ref.idnum not in seen:
                seen.add(ref.idnum)
                yield from visit(f"form {name}", obj.get_data(), obj.get("/Resources"))

    for i, page in enumerate(r.pages, 1):
        yield from visit(f"page {i}", page.get_contents().get_data(), page.get("/Resources"))


def operations(r: PdfReader):
    for what, data, _ in streams(r):
        for operands, op in ContentStream(ContentStreamData(data), r).operations:
            yield what, op, operands


class ContentStreamData:
    """Bytes that pypdf's ContentStream accepts as a stream."""

    def __init__(self, data: bytes):
        self.data = data

    def get_data(self) -> bytes:
        return self.data

    def get_object(self):
        return self


def images(r: PdfReader) -> list:
    found = {}
    for _, _, res in streams(r):
        res = res.get_object() if res is not None else {}
        for ref in (res.get("/XObject") or {}).values():
            if ref.get_object()["/Subtype"] == "/Image":
                found[ref.idnum] = ref.get_object()
    return list(found.values())


# -- PDF/X-4 identification -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_output_intent_holds_the_press_icc_profile(pod, lang):
    out, _ = pod
    r = reader(out, lang)
    (intent,) = [i.get_object() for i in r.trailer["/Root"]["/OutputIntents"]]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert "ISO Coated v2 300%" in intent["/Info"]
    profile = intent["/DestOutputProfile"].get_object()
    data = profile.get_data()
    assert profile["/N"] == 4
    assert data[12:16] == b"prtr" and data[16:20] == b"CMYK" and data[20:24] == b"Lab "  # ICC header
    assert hashlib.sha256(data).hexdigest() == hashlib.sha256(ICC.read_bytes()).hexdigest()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pdfx4_identification(pod, lang):
    out, _ = pod
    path = out / f"pod/rift-commanders-{lang}-pod.pdf"
    assert path.read_bytes().startswith(b"%PDF-1.6")
    r = PdfReader(path)
    info = r.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-4" and info["/Trapped"] == "/False"
    first, second = r.trailer["/ID"]
    assert len(bytes(first.original_bytes)) == 16 and first == second
    xmp = r.trailer["/Root"]["/Metadata"].get_object()
    assert xmp["/Type"] == "/Metadata" and xmp["/Subtype"] == "/XML"
    text = xmp.get_data().decode("utf-8")
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in text
    assert f">{info['/Title']}</rdf:li>" in text and "<pdf:Trapped>False</pdf:Trapped>" in text
    assert f"uuid:{bytes(first.original_bytes).hex()[:8]}-" in text


def test_the_document_id_differs_between_languages_and_stays_the_same_between_runs(pod, tmp_path, art_root):
    out, _ = pod
    ids = {lang: reader(out, lang).trailer["/ID"][0] for lang in ("en", "fr")}
    assert ids["en"] != ids["fr"]
    db = mini_db()
    db.cards[0] = replace(db.cards[0], art="art/dark.png")
    again = tmp_path / "again"
    render_cards(db, books(), art_root, RenderOptions(out=again, workers=1, profiles=("pod",), langs=("en",)))
    assert (again / "pod/rift-commanders-en-pod.pdf").read_bytes() == (out / "pod/rift-commanders-en-pod.pdf").read_bytes()


def test_every_page_has_trim_and_bleed_boxes(pod):
    out, _ = pod
    tpl = load_template(REPO)
    r = reader(out)
    for page in r.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        trim, bleed = page.trimbox, page.bleedbox
        assert float(trim.left) - float(bleed.left) == pytest.approx(tpl.bleed, abs=0.01)
        assert float(bleed.top) - float(trim.top) == pytest.approx(tpl.bleed, abs=0.01)
        assert float(trim.width) == pytest.approx(tpl.trim_w, abs=0.01)


# -- colours ----------------------------------------------------------------------------------------
def test_no_rgb_operator_gradient_or_image_anywhere(pod):
    out, _ = pod
    r = reader(out)
    ops = {op for _, op, _ in operations(r)}
    assert b"k" in ops and b"K" in ops
    assert not ops & {b"rg", b"RG", b"g", b"G", b"sc", b"scn", b"SC", b"SCN", b"cs", b"CS"}
    for what, _, res in streams(r):
        res = res.get_object() if res is not None else {}
        for sh in (res.get("/Shading") or {}).values():
            assert sh.get_object()["/ColorSpace"] == "/DeviceCMYK", what
        assert not res.get("/ColorSpace"), what
    found = images(r)
    assert found and all(im["/ColorSpace"] == "/DeviceCMYK" for im in found)


def test_text_in_the_design_ink_prints_in_black_ink_only(pod):
    """Every line of text is read back with the colour it is filled with (forms included)."""
    out, _ = pod
    for lang, name, keyword in (("en", "Ember Whelp", "Wound"), ("fr", "Dragonnet des Braises", "Blessures")):
        page = reader(out, lang).pages[0]
        fill, stack, shown = [None], [], []

        def before(op, args, cm, tm, fill=fill, stack=stack):
            if op == b"q":
                stack.append(fill[0])
            elif op == b"Q":
                fill[0] = stack.pop()
            elif op == b"k":
                fill[0] = tuple(float(a) for a in args)

        def text(t, cm, tm, font, size, fill=fill, shown=shown):
            if t.strip():
                shown.append((t.strip(), fill[0], size))

        page.extract_text(visitor_operand_before=before, visitor_text=text)
        colours = {t: c for t, c, _ in shown}
        assert colours[name] == (0, 0, 0, 1)  # the title, in the template's title ink
        assert colours[keyword] == (0, 0, 0, 1)  # rules text, in the template's ink
        # nothing under 12 pt is a black built from several inks
        for t, (c, m, y, k), size in shown:
            if size < 12 and c + m + y > 0.01:
                lightness, a, b = _press_lab((c, m, y, k))
                assert not (lightness < 30 and (a * a + b * b) ** 0.5 < 10), (t, (c, m, y, k))


def _press_lab(cmyk):
    from PIL import Image, ImageCms

    t = ImageCms.buildTransform(ImageCms.getOpenProfile(str(ICC)), ImageCms.createProfile("LAB"), "CMYK", "LAB",
                                renderingIntent=1)
    l8, a8, b8 = t.apply(Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))).getpixel((0, 0))
    return l8 / 2.55, a8 - 128, b8 - 128


def test_total_ink_is_at_most_300_percent_in_every_colour_gradient_and_image(pod):
    from PIL import ImageMath

    out, _ = pod
    r = reader(out)
    worst = 0.0
    for _, op, operands in operations(r):
        if op in (b"k", b"K"):
            worst = max(worst, sum(float(v) for v in operands))
    assert 2.0 < worst <= 3.0 + 1e-9
    for what, _, res in streams(r):
        res = res.get_object() if res is not None else {}
        for sh in (res.get("/Shading") or {}).values():
            fn = sh.get_object()["/Function"].get_object()
            for f in fn.get("/Functions", [fn]):
                f = f.get_object()
                for stop in (f["/C0"], f["/C1"]):
                    assert sum(float(v) for v in stop) <= 3.0 + 1e-9, what
    for im in images(r):
        pil = im.decode_as_image()
        assert pil.mode == "CMYK"
        c, m, y, k = pil.split()
        total = ImageMath.lambda_eval(lambda v: v["c"] + v["m"] + v["y"] + v["k"], c=c, m=m, y=y, k=k)
        assert 500 < total.getextrema()[1] <= 765  # dark art reaches the limit, never passes it


def test_colours_go_through_the_icc_profile_not_a_formula(tmp_path):
    """A known sRGB colour prints as LittleCMS converts it with the vendored profile (relative
    colorimetric, black-point compensation), which is far from the naive 1 - RGB formula."""
    from PIL import Image, ImageCms

    red = "#b3261e"
    doc = PdfBuffer((100, 100), "Rift Commanders — colour test", "en", cmyk=True, trim=(9, 9, 82, 82))
    p = Painter(doc.canvas, cmyk=True)
    p.fill(red)
    doc.canvas.rect(0, 0, 50, 50, fill=1, stroke=0)
    doc.canvas.showPage()
    r = PdfReader(io.BytesIO(doc.finish()))
    (got,) = [tuple(float(v) for v in args) for _, op, args in operations(r) if op == b"k"]
    t = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(ICC)), "RGB", "CMYK",
                                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    expected = [v / 255 for v in t.apply(Image.new("RGB", (1, 1), tuple(round(v * 255) for v in hex_rgb(red))))
                .getpixel((0, 0))]
    assert got == pytest.approx(expected, abs=0.6 / 255)
    rr, gg, bb = hex_rgb(red)
    k = 1 - max(rr, gg, bb)
    naive = [(1 - rr - k) / (1 - k), (1 - gg - k) / (1 - k), (1 - bb - k) / (1 - k), k]
    assert max(abs(a - b) for a, b in zip(got, naive)) > 0.1


def test_images_go_through_the_icc_profile_perceptually(pod, art_root):
    from PIL import Image, ImageCms

    out, _ = pod
    (im,) = images(reader(out))
    pil = im.decode_as_image()
    t = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(ICC)), "RGB", "CMYK",
                                renderingIntent=ImageCms.Intent.PERCEPTUAL,
                                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    blue = t.apply(Image.new("RGB", (1, 1), (0, 0, 255))).getpixel((0, 0))
    # the second band of the art is pure sRGB blue; sample the middle of it
    got = pil.getpixel((round(pil.width * (1.5 / 6)), pil.height // 2))
    assert max(abs(a - b) for a, b in zip(got, blue)) <= 3
    assert got != Image.new("RGB", (1, 1), (0, 0, 255)).convert("CMYK").getpixel((0, 0))  # Pillow's formula


def test_ink_limit_takes_the_excess_off_cmy_and_keeps_black():
    from PIL import Image

    assert colour.limit_ink((1.0, 1.0, 1.0, 1.0)) == pytest.approx((2 / 3, 2 / 3, 2 / 3, 1.0), abs=1e-4)
    assert colour.limit_ink((0.5, 0.4, 0.3, 0.2)) == (0.5, 0.4, 0.3, 0.2)
    im = Image.new("CMYK", (3, 1))
    im.putpixel((0, 0), (255, 255, 255, 255))
    im.putpixel((1, 0), (250, 240, 230, 200))
    im.putpixel((2, 0), (10, 20, 30, 40))
    limited = colour.limit_image_ink(im)
    assert colour.image_max_ink(im) == 4.0 and colour.image_max_ink(limited) <= 3.0
    assert limited.getpixel((0, 0))[3] == 255 and limited.getpixel((1, 0))[3] == 200
    assert limited.getpixel((2, 0)) == (10, 20, 30, 40)


def test_dark_neutral_text_is_black_ink_at_the_same_lightness():
    assert colour.text_cmyk("#1f1b16") == (0, 0, 0, 1.0)  # the template's ink: darker than solid black
    c, m, y, k = colour.text_cmyk("#5a5046")  # the flavour text's grey: a black tint
    assert (c, m, y) == (0, 0, 0) and 0.7 < k < 0.95
    assert colour.text_cmyk("#b3261e") == colour.press_cmyk("#b3261e")  # red text stays red
    assert colour.text_cmyk("#0b1d3a")[:3] != (0, 0, 0)  # a dark blue is not black


# -- transparency -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kept", [False, True], ids=["drawn", "from-a-fragment"])
def test_pages_with_transparency_get_a_cmyk_page_group_and_the_others_none(kept):
    from forge.render.formcache import FormCache

    forms = FormCache(None, lambda item: f"glow-{item}") if kept else None
    doc = PdfBuffer((100, 100), "Rift Commanders — groups", "en", cmyk=True, trim=(9, 9, 82, 82), forms=forms)
    p = Painter(doc.canvas, cmyk=True)
    p.fill("#2f63a8", alpha=0.5)  # 1: alpha on the page
    doc.canvas.rect(0, 0, 50, 50, fill=1, stroke=0)
    doc.canvas.showPage()
    p.fill("#2f63a8")  # 2: opaque
    doc.canvas.rect(0, 0, 50, 50, fill=1, stroke=0)
    doc.canvas.showPage()

    def glow(painter):
        painter.fill("#ffffff", alpha=0.1)
        painter.canvas.circle(50, 50, 20, fill=1, stroke=0)

    doc.use_form("glow", 100, 100, glow, p, "transparent")  # 3: alpha inside a form the page places
    doc.canvas.showPage()
    doc.use_form("glow", 100, 100, glow, p, "transparent")  # 4: the same form placed again
    doc.canvas.showPage()
    r = PdfReader(io.BytesIO(doc.finish()))
    groups = [page.get("/Group") for page in r.pages]
    assert groups[1] is None
    for i in (0, 2, 3):
        g = groups[i].get_object()
        assert (g["/Type"], g["/S"], g["/CS"]) == ("/Group", "/Transparency", "/DeviceCMYK"), i


def test_every_pod_page_that_uses_alpha_has_its_group(pod):
    out, _ = pod
    r = reader(out)
    for page in r.pages:
        uses_alpha = False
        for _, _data, res in _page_streams(r, page):
            states = (res.get_object() if res is not None else {}).get("/ExtGState") or {}
            uses_alpha |= any(float(s.get_object().get("/ca", 1)) < 1 or float(s.get_object().get("/CA", 1)) < 1
                              for s in states.values())
        if uses_alpha:
            assert page["/Group"]["/CS"] == "/DeviceCMYK"


def _page_streams(r, page):
    res = page.get("/Resources")
    yield "page", page.get_contents().get_data(), res
    for ref in (res.get_object().get("/XObject") or {}).values():
        obj = ref.get_object()
        if obj["/Subtype"] == "/Form":
            yield "form", obj.get_data(), obj.get("/Resources")


# -- the other profiles -----------------------------------------------------------------------------------
def test_the_proof_stays_rgb(pod):
    out, _ = pod
    r = PdfReader(out / "proof/rift-commanders-en-proof.pdf")
    ops = {op for _, op, _ in operations(r)}
    assert b"rg" in ops and b"k" not in ops and b"K" not in ops
    assert "/OutputIntents" not in r.trailer["/Root"] and "/GTS_PDFXVersion" not in (r.metadata or {})


def test_gradients_follow_the_srgb_design_between_their_stops():
    """Interpolating two converted stops in CMYK would pass through other colours than the sRGB gradient;
    the shading carries converted sRGB mixes, so its middle is the design's middle, as the press prints it."""
    from forge.render.paint import mix

    a, b = "#8f74e0", "#2a2340"
    doc = PdfBuffer((100, 100), "Rift Commanders — gradient", "en", cmyk=True, trim=(9, 9, 82, 82))
    Painter(doc.canvas, cmyk=True).linear(0, 0, 100, 0, [a, b])
    doc.canvas.showPage()
    r = PdfReader(io.BytesIO(doc.finish()))
    (sh,) = [s.get_object() for s in r.pages[0]["/Resources"]["/Shading"].values()]
    fn = sh["/Function"].get_object()
    bounds = [0.0] + [float(v) for v in fn["/Bounds"]] + [1.0]
    parts = [f.get_object() for f in fn["/Functions"]]
    middle = [i for i, x in enumerate(bounds) if abs(x - 0.5) < 1e-6][0]
    got = [float(v) for v in parts[middle]["/C0"]]
    assert got == pytest.approx(colour.press_cmyk(mix(a, b, 0.5)), abs=1e-4)
    naive_middle = [(x + y) / 2 for x, y in zip(colour.press_cmyk(a), colour.press_cmyk(b))]
    assert max(abs(x - y) for x, y in zip(got, naive_middle)) > 0.02


def test_black_text_knocks_out_so_no_spot_exceeds_the_ink_limit():
    """Overprinted 100 % K over a dark frame would put C+M+Y+K over 300 % on paper; nothing overprints."""
    doc = PdfBuffer((100, 100), "Rift Commanders — overprint", "en", cmyk=True, trim=(9, 9, 82, 82))
    p = Painter(doc.canvas, cmyk=True)
    p.text(10, 50, "ink", "Lato", 8, "#1f1b16")
    p.text(10, 30, "red", "Lato", 8, "#b3261e")
    p.fill("#2f63a8")
    doc.canvas.rect(0, 0, 5, 5, fill=1, stroke=0)
    doc.canvas.showPage()
    r = PdfReader(io.BytesIO(doc.finish()))
    states = r.pages[0]["/Resources"].get("/ExtGState") or {}
    current, at_text, stack = {}, [], []
    for _, op, args in operations(r):
        if op == b"q":
            stack.append(dict(current))
        elif op == b"Q":
            current = stack.pop()
        elif op == b"gs":
            current.update(states[args[0]].get_object())
        elif op == b"k":
            current["k"] = tuple(float(v) for v in args)
        elif op in (b"Tj", b"TJ"):
            at_text.append((current["k"], bool(current.get("/op")), current.get("/OPM")))
        elif op in (b"f", b"f*"):
            at_text.append(("rect", bool(current.get("/op")), None))
    assert at_text[0][:2] == ((0, 0, 0, 1), False)
    assert at_text[1][1] is False and at_text[2] == ("rect", False, None)
