"""The DRAFT mark: what `--force` prints on every page rendered from a database that `validate` refuses.

A designer may want to look at a half-finished set; a print shop, or a player
downloading the kit, must never mistake it for the game. Each page gets a large
diagonal "DRAFT" across it and a line naming why, drawn over the content as
vectors (so no crop, resize or rasterisation loses it), and the PDF's title says so.
"""
from __future__ import annotations

import io

from .assets import register_fonts

MARK = "DRAFT"
COLOR = (0.85, 0.1, 0.1)
FONT = "Lato-Bold"


def stamp_pdf(data: bytes, reason: str) -> bytes:
    """``data`` with the mark over every page, within its trim box (same page sizes, same content underneath)."""
    from pypdf import PdfReader, PdfWriter, Transformation  # lazy: loads pypdf only when needed

    reader = PdfReader(io.BytesIO(data))
    writer = PdfWriter(clone_from=reader)  # outlines, links and page labels kept
    marks: dict[tuple[float, float], object] = {}
    for page in writer.pages:
        # the page as it is cut (a press file's bleed is trimmed off, and its box does not start at 0, 0): the
        # mark drawn over the media box from 0, 0 lost its line past the top edge and sat off centre
        box = page.trimbox
        size = (float(box.width), float(box.height))
        if size not in marks:
            marks[size] = _mark_page(size, reason)
        page.merge_transformed_page(marks[size], Transformation().translate(float(box.left), float(box.bottom)))
    info = reader.metadata or {}
    writer.add_metadata({**{k: str(v) for k, v in info.items()},
                         "/Title": f"{MARK}: {info.get('/Title', '')}".strip(": "),
                         "/Subject": f"{MARK}, not for print: {reason}"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _mark_page(size: tuple[float, float], reason: str):
    from pypdf import PdfReader  # lazy: loads pypdf only when needed
    from reportlab.pdfgen.canvas import Canvas  # lazy: loads reportlab only when needed

    register_fonts()  # the mark's font is embedded like every other: a draft passes the same font check
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=1, initialFontName=FONT)
    w, h = size
    c.saveState()
    c.setFillColorRGB(*COLOR, alpha=0.28)
    c.translate(w / 2, h / 2)
    c.rotate(35)
    font = min(w, h) * 0.28
    c.setFont(FONT, font)
    c.drawCentredString(0, -font / 3, MARK)
    c.restoreState()
    c.setFillColorRGB(*COLOR)
    line = max(min(w, h) * 0.025, 4)
    c.setFont(FONT, line)
    c.drawCentredString(w / 2, h - line * 2.2, f"{MARK}, not for print: {reason}"[:160])
    c.showPage()
    c.save()
    return PdfReader(io.BytesIO(buffer.getvalue())).pages[0]
