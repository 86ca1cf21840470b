"""Home printing: an A5 book imposed two-up on A4 or Letter, in booklet order, for saddle stitching.

A player prints the file double-sided, flipping on the short edge, folds the stack of
sheets in half and staples it on the fold: the pages come out in reading order. Each
sheet carries four pages, so the book is padded to a multiple of 4 with blank pages,
inserted before the back cover so that it stays the last page.

The booklets are written from the screen PDF's own objects (``forge.books.pdfobjects``):
each page's content stream becomes a form XObject clipped to the page (drawn once, placed
once; fonts and images are the book's own), placed on landscape sheets: at full size on A4
(two A5 pages are exactly an A4 sheet), scaled down to fit on Letter. The file asks the
viewer for short-edge duplex and actual size (``/ViewerPreferences``); links and bookmarks,
which point at the book's pages, are left out.
"""
from __future__ import annotations

from dataclasses import dataclass

import pydyf

from .pdfobjects import number, pages, serialise

PAGES_PER_SHEET = 4
MM = 72 / 25.4


@dataclass(frozen=True)
class Sheet:
    """A paper size, landscape, in points."""

    name: str
    width: float
    height: float


SHEETS = {"a4": Sheet("A4", 297 * MM, 210 * MM), "letter": Sheet("Letter", 11 * 72, 8.5 * 72)}


def padded_order(pages: int) -> list[int | None]:
    """The book's pages (0-based) with blanks (None) before the back cover, to a multiple of 4."""
    order: list[int | None] = list(range(pages))
    blanks = -pages % PAGES_PER_SHEET
    if pages > 1:
        return order[:-1] + [None] * blanks + order[-1:]
    return order + [None] * blanks


def booklet_sides(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page of each printed side, front then back of each sheet, outermost sheet first.

    For 8 pages (1-based): [8, 1], [2, 7], [6, 3], [4, 5].
    """
    order = padded_order(pages)
    n = len(order)
    sides = []
    for sheet in range(n // PAGES_PER_SHEET):
        sides.append((order[n - 1 - 2 * sheet], order[2 * sheet]))
        sides.append((order[2 * sheet + 1], order[n - 2 - 2 * sheet]))
    return sides


def _sheet(pdf: pydyf.PDF, sheet: Sheet, forms: list[pydyf.Stream], side: tuple, trim) -> pydyf.Dictionary:
    """One printed side: its two pages (or blanks) either side of the fold."""
    x0, y0, x1, y1 = trim
    page_w, page_h = x1 - x0, y1 - y0
    scale = min(1.0, sheet.width / 2 / page_w, sheet.height / page_h)
    fold, bottom = sheet.width / 2, (sheet.height - page_h * scale) / 2
    xobjects, ops = pydyf.Dictionary(), []
    for index, x in zip(side, (fold - page_w * scale, fold)):
        if index is not None:
            name = f"P{index + 1}"
            xobjects[name] = forms[index].reference
            ops += [b"q", f"{scale:.6f} 0 0 {scale:.6f} {x - x0 * scale:.4f} {bottom - y0 * scale:.4f} cm".encode(), f"/{name} Do".encode(), b"Q"]
    contents = pydyf.Stream(ops, compress=True)
    pdf.add_object(contents)
    return pydyf.Dictionary({"Type": "/Page", "Parent": pdf.pages.reference,
                             "MediaBox": pydyf.Array([0, 0, round(sheet.width, 4), round(sheet.height, 4)]),
                             "Resources": pydyf.Dictionary({"XObject": xobjects}), "Contents": contents.reference})


def write_booklets(pdf: pydyf.PDF) -> dict[str, bytes]:
    """Every booklet (by ``SHEETS`` name) of a book, from its screen PDF's objects, which are left as they were."""
    book = pages(pdf)
    forms = [pdf.objects[number(page["Contents"])] for page in book]
    saved = ([dict(form.extra) for form in forms], dict(pdf.pages), dict(pdf.catalog), dict(pdf.info), len(pdf.objects))
    trim = [float(v) for v in book[0]["TrimBox"]]
    for form, page in zip(forms, book):
        form.extra.update({"Type": "/XObject", "Subtype": "/Form", "BBox": pydyf.Array(page["TrimBox"]),
                           "Resources": page["Resources"]})
    kept = {key: pdf.catalog[key] for key in ("Type", "Pages", "Lang") if key in pdf.catalog}
    pdf.catalog.clear()
    pdf.catalog.update(kept, ViewerPreferences=pydyf.Dictionary({"Duplex": "/DuplexFlipShortEdge",
                                                                 "PrintScaling": "/None"}))
    title = saved[3].get("Title")
    out = {}
    try:
        for name, sheet in SHEETS.items():
            kids = []
            for side in booklet_sides(len(book)):
                page = _sheet(pdf, sheet, forms, side, trim)
                pdf.add_object(page)
                kids += [page.number, 0, "R"]
            pdf.pages.update(Kids=pydyf.Array(kids), Count=len(kids) // 3)
            if isinstance(title, pydyf.String):
                pdf.info["Title"] = pydyf.String(f"{title.string} ({sheet.name} booklet)")
            out[name] = serialise(pdf)
            del pdf.objects[saved[4]:]
    finally:
        for form, extra in zip(forms, saved[0]):
            form.extra.clear()
            form.extra.update(extra)
        for obj, values in zip((pdf.pages, pdf.catalog, pdf.info), saved[1:4]):
            obj.clear()
            obj.update(values)
        del pdf.objects[saved[4]:]
    return out
