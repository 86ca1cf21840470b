"""Reading a rendered book back page by page: its text (forge's ``page_texts``) and how much of each page is blank.

A book's page texts are read once per file (the session's books are read by a dozen tests each): cached by
the file's path and identity, so a book written again is read again."""
from __future__ import annotations

import os
from functools import lru_cache

from forge.books.build import output_path


def pdf_path(rendered, kind: str, lang: str):
    _, out = rendered
    return output_path(out, kind, lang)


def page_texts(rendered, kind: str, lang: str) -> list[str]:
    path = pdf_path(rendered, kind, lang)
    status = os.stat(path)
    return list(_page_texts(str(path), status.st_ino, status.st_mtime_ns, status.st_size))


@lru_cache(maxsize=16)
def _page_texts(path: str, inode: int, mtime_ns: int, size: int) -> tuple[str, ...]:
    from forge.render.pdftext import page_texts

    return tuple(page_texts(path))


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
            ink = image.crop((int(w * 0.1), top, int(w * 0.9), bottom)).point(lambda v: 255 if v < 200 else 0)
            box = ink.getbbox()  # its bottom: one past the last row with a pixel darker than 200
            shares.append(round(1 - (box[3] if box else 0) / (bottom - top), 2))
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
