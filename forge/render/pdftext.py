"""A PDF's text read back, page by page, by PDFium (the ``pypdfium2`` wheel the rasteriser uses).

For the read-back checks of the books and the tests of every printed file: PDFium reads a 32-page book in a
tenth of a second, where pypdf's ``extract_text`` took 1.5 to 2 s (and 0.2 s for a card sheet, whose forms it
parsed again at every place one is drawn), and it spaced justified words apart.
"""
from __future__ import annotations

from pathlib import Path

#: PDFium's mark for a hyphen the layout added to split a word at a line end (PDFium then joins the two lines).
_SPLIT_HYPHEN = "\x02"


def page_texts(pdf: bytes | str | Path) -> list[str]:
    """The text of each page of ``pdf`` (its bytes or its path), in reading order, line by line as printed: lines
    end in ``\\n``, and a word the layout split at a line end reads as printed, a hyphen then a line break (as
    pypdf read it)."""
    import pypdfium2 as pdfium  # lazy: loads pypdfium2 only when needed

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        texts = []
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_bounded().replace("\r\n", "\n").replace(_SPLIT_HYPHEN, "-\n"))
            textpage.close()
            page.close()
        return texts
    finally:
        doc.close()
