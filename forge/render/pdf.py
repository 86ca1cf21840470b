"""Reproducible PDF canvases: fixed dates and ids, title/language/author metadata, fonts subset."""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from .assets import register_fonts

AUTHOR = "Benoît Morin"
CREATOR = "forge render (Rift Commanders production pipeline)"
LANG_TAGS = {"en": "en-GB", "fr": "fr-FR"}


class PdfBuffer:
    """A canvas writing into memory; ``finish()`` returns the bytes (written atomically by the caller)."""

    def __init__(self, pagesize: tuple[float, float], title: str, lang: str | None, cmyk: bool = False,
                 subject: str = "", trim: tuple[float, float, float, float] | None = None):
        register_fonts()
        self.buffer = io.BytesIO()
        kwargs = {}
        if trim:
            x, y, w, h = trim
            kwargs = {"trimBox": (x, y, x + w, y + h), "bleedBox": (0, 0, *pagesize)}
        self.canvas = Canvas(self.buffer, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName="Lato",
                             lang=LANG_TAGS.get(lang or "", lang) if lang else None,
                             enforceColorSpace="cmyk" if cmyk else None, **kwargs)
        c = self.canvas
        c.setTitle(title)
        c.setAuthor(AUTHOR)
        c.setCreator(CREATOR)
        c.setProducer(CREATOR)
        c.setSubject(subject or title)
        c.setKeywords(["Rift Commanders", "card game"] + ([lang] if lang else []))

    def finish(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()
