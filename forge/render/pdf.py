"""Reproducible PDF canvases: fixed dates and ids, title/language/author metadata, fonts subset."""
from __future__ import annotations

import io

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from .assets import register_fonts

AUTHOR = "Benoît Morin"
CREATOR = "forge render (Rift Commanders production pipeline)"
LANG_TAGS = {"en": "en-GB", "fr": "fr-FR"}


class FormCanvas(Canvas):
    """A canvas whose form XObjects carry their gradients and transparency.

    reportlab gives a form only its fonts and nested forms as resources, so a card
    drawn once as a form and placed many times would lose its shadings and alpha;
    this gives each form the same resources a page gets.
    """

    def endForm(self, **extra_attributes):
        shading = dict(self._shadingUsed)
        name = self._formData[0]
        super().endForm(**extra_attributes)
        form = self._doc.idToObject[pdfdoc.xObjectName(name)]
        res = pdfdoc.PDFResourceDictionary()
        res.basicFonts()
        res.allProcs()
        if form.XObjects:
            res.XObject = form.XObjects
        if getattr(form, "ExtGState", None):
            res.ExtGState = form.ExtGState
        res.setShading(shading)
        res.setColorSpace(getattr(form, "_colorsUsed", {}))
        form.Resources = res


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
        self.canvas = FormCanvas(self.buffer, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName="Lato",
                             lang=LANG_TAGS.get(lang or "", lang) if lang else None,
                             enforceColorSpace="cmyk" if cmyk else None, **kwargs)
        c = self.canvas
        c.setTitle(title)
        c.setAuthor(AUTHOR)
        c.setCreator(CREATOR)
        c.setProducer(CREATOR)
        c.setSubject(subject or title)
        c.setKeywords(["Rift Commanders", "card game"] + ([lang] if lang else []))

    def use_form(self, name: str, width: float, height: float, draw) -> None:
        """Place form ``name`` at the origin, defining it first with ``draw()`` the first time."""
        c = self.canvas
        if not c.hasForm(name):
            c.beginForm(name, 0, 0, width, height)
            draw()
            c.endForm()
        c.doForm(name)

    def finish(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()
