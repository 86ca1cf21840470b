"""An icon fills by its own SVG fill rule: nonzero by default, even-odd when it says ``fill-rule="evenodd"``.

reportlab's ``FILL_EVEN_ODD`` is 0 and ``FILL_NON_ZERO`` 1; ``Painter.icon`` once passed
them the other way round, so every icon filled even-odd and forge's even-odd tombstone
nonzero. No vendored icon looked different (their holes wind the other way, which
both rules cut out), but a subpath winding the same way as the one around it is a hole
only under even-odd. These tests draw such an icon and read its pixels back.
"""
from __future__ import annotations

import io

import pytest

from forge.render import paint
from forge.render.paint import Painter
from forge.render.pdf import PdfBuffer
from forge.render.svgpath import parse_icon_body

#: Two squares drawn the same way round: under even-odd the inner one is a hole, under nonzero it is ink.
SAME_WAY = 'M32 32h448v448H32z M160 160h192v192H160z'
#: The inner square drawn the other way round: a hole under both rules.
OTHER_WAY = 'M32 32h448v448H32z M160 160v192h192V160z'

ICONS = {
    "test-evenodd": f'<path fill-rule="evenodd" d="{SAME_WAY}"/>',
    "test-nonzero": f'<path d="{SAME_WAY}"/>',
    "test-nonzero-hole": f'<path d="{OTHER_WAY}"/>',
}


@pytest.fixture
def icons(monkeypatch):
    """Painter.icon draws the test icons above (its path cache emptied before and after)."""
    real = paint.icon_path
    monkeypatch.setattr(paint, "icon_path", lambda name: parse_icon_body(ICONS[name]) if name in ICONS else real(name))
    paint._icon_pdf_path.cache_clear()
    yield
    paint._icon_pdf_path.cache_clear()


def _draw(name: str) -> tuple[object, bytes]:
    """The icon drawn black on a white 64 pt page: the page at 4 px a point, and the PDF."""
    import pypdfium2 as pdfium

    doc = PdfBuffer((64, 64), "t", "en")
    Painter(doc.canvas).icon(name, 0, 0, 64, "#000000")
    doc.canvas.showPage()
    pdf = doc.finish()
    return pdfium.PdfDocument(io.BytesIO(pdf))[0].render(scale=4).to_pil().convert("L"), pdf


def _centre_and_ring(im) -> tuple[int, int]:
    """The grey level at the centre (inside the inner square) and on the ring between the squares."""
    w, h = im.size
    return im.getpixel((w // 2, h // 2)), im.getpixel((w // 2, round(h * 96 / 512)))


def _fill_operators(pdf: bytes) -> list[str]:
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    page = PdfReader(io.BytesIO(pdf)).pages[0]
    ops = [op.decode() for _, op in ContentStream(page.get_contents(), page.pdf).operations]
    return [op for op in ops if op in ("f", "f*")]


def test_svg_fill_rules_map_to_reportlab_fill_modes():
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, PATH_OPS

    assert PATH_OPS[0, 1, FILL_EVEN_ODD] == "f*" and PATH_OPS[0, 1, FILL_NON_ZERO] == "f"
    assert paint.fill_mode(True) == FILL_EVEN_ODD == 0
    assert paint.fill_mode(False) == FILL_NON_ZERO == 1


def test_an_even_odd_icon_has_a_hole_where_its_subpaths_overlap(icons):
    im, pdf = _draw("test-evenodd")
    centre, ring = _centre_and_ring(im)
    assert ring < 30 and centre > 225  # the ring is ink, the inner square a hole
    assert _fill_operators(pdf) == ["f*"]


def test_a_nonzero_icon_fills_a_subpath_that_winds_like_the_one_around_it(icons):
    im, pdf = _draw("test-nonzero")
    centre, ring = _centre_and_ring(im)
    assert ring < 30 and centre < 30  # all ink: nonzero does not cut a same-way subpath out
    assert _fill_operators(pdf) == ["f"]


def test_a_nonzero_icon_keeps_its_holes_that_wind_the_other_way(icons):
    centre, ring = _centre_and_ring(_draw("test-nonzero-hole")[0])
    assert ring < 30 and centre > 225
