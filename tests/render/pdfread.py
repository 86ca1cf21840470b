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


def texts(pdf) -> list[str]:
    """Each page's text (``pdf``: a path or the bytes of a PDF), as pdfium reads it: form XObjects included,
    each read once in C (pypdf's extract_text parses a form again at every place it is drawn: a second a sheet)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def printed_chars(pdf) -> list[tuple[int, str, str, str]]:
    """Every character printed on every page (``pdf``: a path or the bytes of a PDF): (page index, font base
    name without its subset tag, the character as its font's ToUnicode map gives it, the text around it).
    The spaces and line breaks pdfium adds between runs are left out: no font printed them."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    chars, name = [], ctypes.create_string_buffer(256)
    try:
        for i in range(len(doc)):
            page = doc[i].get_textpage()
            text = page.get_text_range()
            for k in range(raw.FPDFText_CountChars(page)):
                if raw.FPDFText_IsGenerated(page, k):
                    continue
                size = raw.FPDFText_GetFontInfo(page, k, name, len(name), None)
                font = name.value.decode() if 0 < size <= len(name) else ""
                chars.append((i, font.split("+", 1)[-1], chr(raw.FPDFText_GetUnicode(page, k)),
                              text[max(0, k - 20):k + 20]))
    finally:
        doc.close()
    return chars


def font_cmaps() -> dict[str, set[int]]:
    """The code points each embedded font has a glyph for, by its PostScript name."""
    from reportlab.pdfbase.pdfmetrics import getFont

    register_fonts()
    return {getFont(n).face.name.decode(): set(getFont(n).face.charToGlyph) for n in FONT_FILES}


def missing_glyphs(pdf) -> list[tuple[int, str, str, str]]:
    """(page, font, character, the text around it) for every printed character its font has no glyph for;
    ``pdf`` is a path or the bytes of a PDF."""
    cmaps = font_cmaps()
    missing = []
    for page, font, ch, around in printed_chars(pdf):
        if ch in "\n\r":
            continue
        have = cmaps.get(font)
        if ch == "\x00" or have is None or ord(ch) not in have:
            missing.append((page, font, ch, around))
    return missing
