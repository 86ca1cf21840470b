"""One laid-out book, written several times from WeasyPrint's PDF objects (pydyf) without painting it again.

Painting a book (its text, and the SVG icons drawn anew at every use) is most of the cost
of writing a PDF. WeasyPrint's ``finisher`` hook hands over the painted objects just before
they are serialised: the screen PDF, the booklets and the print file are each a few
changes to those objects and one ``serialise``, which undoes what pydyf's ``write`` leaves
behind, so the same objects can be written again.
"""
from __future__ import annotations

import io

import pydyf


def number(reference) -> int:
    """The object number of an indirect reference as pydyf writes them (``b"12 0 R"``)."""
    return int(bytes(reference).split()[0])


def pages(pdf: pydyf.PDF) -> list[pydyf.Dictionary]:
    """The page dictionaries, in order."""
    return [pdf.objects[n] for n in pdf.pages["Kids"][::3]]  # pydyf's Kids: number, 0, "R", ...


def serialise(pdf: pydyf.PDF, version: str | None = None, identifier: bool | bytes = False) -> bytes:
    """The PDF as WeasyPrint writes it (compressed object streams; PDF 1.7 unless ``version``), leaving
    ``pdf`` as it was: pydyf's ``write`` appends the Info dictionary, the object stream and the
    cross-reference stream to the document, and moves its write position."""
    count = len(pdf.objects)
    out = io.BytesIO()
    pdf.write(out, version, identifier, True)
    del pdf.objects[count:]
    pdf.current_position, pdf.xref_position = 0, None
    return out.getvalue()
