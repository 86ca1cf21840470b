"""Reading a rendered book back page by page: its text (pypdf) and how much of each page is blank."""
from __future__ import annotations

from functools import lru_cache

from forge.books.build import output_path


def pdf_path(rendered, kind: str, lang: str):
    _, out = rendered
    return output_path(out, kind, lang)


def page_texts(rendered, kind: str, lang: str) -> list[str]:
    """Each page's text (pypdf), read once per file and process: the fill, whole-table and paragraph-end
    tests all read the four shipped books, and pypdf spends seconds on each."""
    path = pdf_path(rendered, kind, lang)
    stat = path.stat()
    return list(_texts(str(path), stat.st_size, stat.st_mtime_ns))


@lru_cache(maxsize=8)
def _texts(path: str, size: int, mtime_ns: int) -> tuple[str, ...]:
    """The pages' text of the file at ``path`` as it is (its size and time are the cache's key)."""
    from pypdf import PdfReader

    return tuple(page.extract_text() or "" for page in PdfReader(path).pages)


def blank_below(rendered, kind: str, lang: str, dpi: int = 30) -> list[float]:
    """For each page, the share of its text area (running head and folio left out) below the last ink."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(pdf_path(rendered, kind, lang)))
    shares = []
    try:
        for i in range(len(pdf)):
            image = pdf[i].render(scale=dpi / 72).to_pil().convert("L")
            w, h = image.size
            top, bottom = int(h * 0.08), int(h * 0.92)
            pixels = image.load()
            inked = [y for y in range(top, bottom) if any(pixels[x, y] < 200 for x in range(int(w * 0.1), int(w * 0.9)))]
            shares.append(round(1 - ((inked[-1] - top + 1) if inked else 0) / (bottom - top), 2))
    finally:
        pdf.close()
    return shares


def last_line_sizes(rendered, kind: str, lang: str) -> list[tuple[float, float]]:
    """For each page: (font size of its lowest line of text above the folio, the page's commonest size)."""
    from collections import Counter

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(str(pdf_path(rendered, kind, lang)))
    out = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            text = page.get_textpage()
            rows: dict[int, list[float]] = {}
            sizes: Counter = Counter()
            for index in range(text.count_chars()):
                if not text.get_text_range(index, 1).strip():
                    continue
                bottom = text.get_charbox(index)[1]
                if bottom < 40:  # the folio's band, 17 mm from the bottom edge
                    continue
                size = round(pdfium_c.FPDFText_GetFontSize(text.raw, index), 1)
                rows.setdefault(round(bottom), []).append(size)
                sizes[size] += 1
            if rows:
                out.append((max(rows[min(rows)]), sizes.most_common(1)[0][0]))
            else:
                out.append((0.0, 0.0))
    finally:
        pdf.close()
    return out
