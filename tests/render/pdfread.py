"""Reading rendered PDFs back for the sheet tests: where each card form lands, pixels, text with its font."""
from __future__ import annotations

from pypdf.generic import ContentStream
from reportlab.lib.units import mm

from forge.render.assets import FONT_FILES, register_fonts


def _mul(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def placements(page, tpl) -> list[dict]:
    """Each card form drawn on a page: its name (e.g. "ember-whelp.en"), the page box its trim lands
    on (x0, y0, x1, y1), and where the middle of the card's top edge lands."""
    ctm, stack, found = [1, 0, 0, 1, 0, 0], [], []
    b = tpl.bleed
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"Do":
            corners = [_apply(ctm, b + u, b + v) for u in (0, tpl.trim_w) for v in (0, tpl.trim_h)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            found.append({"name": str(operands[0]).removeprefix("/FormXob."),
                          "box": (min(xs), min(ys), max(xs), max(ys)),
                          "top": _apply(ctm, b + tpl.trim_w / 2, b + tpl.trim_h)})
    return found


def render(pdf_path, page: int, dpi: int):
    """Page ``page`` (0-based) as an RGB Pillow image at ``dpi``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def px(points: float, dpi: int) -> float:
    return points / 72 * dpi


def edge_strip_ink(image, dpi: int, margin: float = 5 * mm) -> list[tuple[int, int]]:
    """Pixels that are not white within ``margin`` of the paper's edge (the last pixel row spared)."""
    w, h = image.size
    m = int(px(margin, dpi)) - 1
    pix = image.load()
    bad = []
    for y in range(h):
        xs = range(w) if y < m or y >= h - m else list(range(m)) + list(range(w - m, w))
        for x in xs:
            if pix[x, y] != (255, 255, 255):
                bad.append((x, y))
    return bad


def text_runs(reader) -> list[tuple[int, str, str]]:
    """Every text run of every page: (page index, font base name without its subset tag, text)."""
    runs = []
    for i, page in enumerate(reader.pages):
        def visit(text, cm, tm, font, size, i=i):
            if text and font is not None:
                runs.append((i, str(font.get("/BaseFont", "")).split("+", 1)[-1], text))
        page.extract_text(visitor_text=visit)
    return runs


def font_cmaps() -> dict[str, set[int]]:
    """The code points each embedded font has a glyph for, by its PostScript name."""
    from reportlab.pdfbase.pdfmetrics import getFont

    register_fonts()
    return {getFont(n).face.name.decode(): set(getFont(n).face.charToGlyph) for n in FONT_FILES}


def missing_glyphs(reader) -> list[tuple[int, str, str, str]]:
    """(page, font, character, run) for every printed character its font has no glyph for."""
    cmaps = font_cmaps()
    missing = []
    for page, font, text in text_runs(reader):
        have = cmaps.get(font)
        for ch in text:
            if ch in "\n\r":
                continue
            if ch == "\x00" or have is None or ord(ch) not in have:
                missing.append((page, font, ch, text))
    return missing
