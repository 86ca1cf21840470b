"""Reproducible PDF canvases: fixed dates and ids, title/language/author metadata, fonts subset."""
from __future__ import annotations

import io

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase.pdfdoc import PDFDictionary

from ..core.compat import reportlab as rl_internals
from . import colour, pdfx
from .assets import register_fonts
from . import formcache  # its functions looked up on the module: tests count the fragments drawn

AUTHOR = "Benoît Morin"
CREATOR = "forge render (Rift Commanders production pipeline)"
LANG_TAGS = {"en": "en-GB", "fr": "fr-FR"}


class FormCanvas(rl_internals.alpha_canvas()):
    """A canvas whose form XObjects carry their gradients and transparency.

    reportlab gives a form only its fonts and nested forms as resources, so a card
    drawn once as a form and placed many times would lose its shadings and alpha;
    this gives each form the same resources a page gets.

    It also knows which pages use transparency (an alpha below 1 or a soft mask,
    drawn on the page or in a form it places): with ``page_groups`` those pages get
    a transparency group blending in DeviceCMYK (PDF/X-4, see ``pdfx``).
    """

    page_groups = False
    #: A scratch canvas drawing a card into a fragment: forms nested in it come from ``texture.nested``.
    nested_fragments = False

    def __init__(self, *args, **kwargs):
        self._transparent = False  # the page or form being drawn uses transparency
        self.transparent_forms: dict[str, bool] = {}  # by form name: whether it uses transparency
        self._transparent_stack: list[bool] = []
        super().__init__(*args, **kwargs)

    def alpha_set(self, value: float) -> None:
        self._transparent = self._transparent or value < 1

    def drawImage(self, image, x, y, width=None, height=None, mask=None, *args, **kwargs):
        self._transparent = self._transparent or mask is not None
        return super().drawImage(image, x, y, width, height, mask, *args, **kwargs)

    def beginForm(self, name, *args, **kwargs):
        self._transparent_stack.append(self._transparent)
        self._transparent = False
        super().beginForm(name, *args, **kwargs)

    def doForm(self, name):
        self._transparent = self._transparent or self.transparent_forms.get(name, False)
        super().doForm(name)

    def showPage(self):
        transparent, self._transparent = self._transparent, False
        super().showPage()
        if transparent and self.page_groups:
            page = rl_internals.document(self).Pages.pages[-1]
            page.__NoDefault__ = [*type(page).__NoDefault__, "Group"]
            page.Group = pdfx.transparency_group()

    def endForm(self, **extra_attributes):
        shading = dict(rl_internals.shadings_used(self))
        name = rl_internals.form_name(self)
        self.transparent_forms[name] = self._transparent
        self._transparent = self._transparent_stack.pop()
        super().endForm(**extra_attributes)
        form = rl_internals.document(self).idToObject[pdfdoc.xObjectName(name)]
        res = pdfdoc.PDFResourceDictionary()
        res.basicFonts()
        res.allProcs()
        if form.XObjects:
            res.XObject = form.XObjects
        if getattr(form, "ExtGState", None):
            res.ExtGState = form.ExtGState
        res.setShading(shading)
        res.setColorSpace(rl_internals.colours_used(form))
        form.Resources = res


class PdfBuffer:
    """A canvas writing into memory; ``finish()`` returns the bytes (written atomically by the caller).

    ``cmyk``: the print-on-demand file, a PDF/X-4 one whose colours are the press's CMYK
    (the ``Painter`` converts them through ``colour``) with that press as its output intent.
    """

    def __init__(self, pagesize: tuple[float, float], title: str, lang: str | None, cmyk: bool = False,
                 subject: str = "", trim: tuple[float, float, float, float] | None = None, forms=None):
        register_fonts()
        self.pagesize, self.trim, self.forms = pagesize, trim, forms
        self.buffer = io.BytesIO()
        kwargs = {}
        if trim:
            x, y, w, h = trim
            kwargs = {"trimBox": (x, y, x + w, y + h), "bleedBox": (0, 0, *pagesize)}
        self.canvas = FormCanvas(self.buffer, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName="Lato",
                             lang=LANG_TAGS.get(lang or "", lang) if lang else None,
                             enforceColorSpace=_press_colour if cmyk else None, **kwargs)
        c = self.canvas
        self.pdfx = cmyk
        if cmyk:
            pdfx.prepare(c)
            c.page_groups = True
        c.setTitle(title)
        c.setAuthor(AUTHOR)
        c.setCreator(CREATOR)
        c.setProducer(CREATOR)
        c.setSubject(subject or title)
        c.setKeywords(["Rift Commanders", "card game"] + ([lang] if lang else []))
        if forms is not None:
            formcache.preseed(c)

    def ask_actual_size_duplex(self) -> None:
        """Ask viewers to print at 100 %, two-sided flipping on the long edge, on paper of the page's size.

        Home printers otherwise shrink sheets to fit the printable area, and the duplex
        mirroring of the backs (and the cut lines) only holds at actual size.
        """
        self.ask_actual_size("DuplexFlipLongEdge")

    def ask_actual_size(self, duplex: str = "Simplex") -> None:
        """Ask viewers to print at 100 % on paper of the page's size (one-sided unless ``duplex`` says):
        a token sheet or a mat shrunk to fit the printable area no longer holds the cards and markers
        it is measured for."""
        c = self.canvas
        c.setViewerPreference("PrintScaling", "None")
        c.setViewerPreference("Duplex", duplex)
        # reportlab's checked dictionary does not know this PDF 1.7 key, so it is set directly
        PDFDictionary.__setitem__(rl_internals.document(c).Catalog.ViewerPreferences, "PickTrayByPDFSize", "true")

    def use_form(self, name: str, width: float, height: float, draw, painter=None, item=None) -> None:
        """Place form ``name`` at the origin, defining it the first time with ``draw(painter)``.

        With a form cache (``forms``) and the ``item`` the form shows, the form is copied from the
        item's kept fragment, drawn once on a scratch canvas when there is none (``formcache``).
        """
        c = self.canvas
        if not c.hasForm(name):
            fragment = None
            if self.forms is not None and item is not None:
                def make():
                    scratch = PdfBuffer(self.pagesize, "", None, cmyk=self.pdfx, trim=self.trim, forms=self.forms)
                    scratch.canvas.nested_fragments = True
                    return formcache.capture(scratch, name, width, height, draw, self.pdfx)

                fragment = self.forms.get(item, name, make, self.pdfx)
            if fragment is not None:
                formcache.place(c, fragment, self.pdfx)
            else:
                c.beginForm(name, 0, 0, width, height)
                draw(painter)
                c.endForm()
        c.doForm(name)

    def finish(self) -> bytes:
        """The document's bytes. Streams are Flate-compressed only: reportlab's default ASCII85 layer
        on top makes every stream 25 % bigger and slower to read back, for 7-bit-clean files nobody needs."""
        if self.pdfx:
            pdfx.finish(self.canvas)
        a85, rl_config.useA85 = rl_config.useA85, 0
        try:
            self.canvas.save()
        finally:
            rl_config.useA85 = a85
        return self.buffer.getvalue()


def _press_colour(color):
    """reportlab's colour check for a CMYK document: CMYK as is; an sRGB colour (one set on the canvas
    without the ``Painter``) converted through the press profile rather than refused or guessed."""
    c = toColor(color)
    if isinstance(c, CMYKColor):
        return c
    if isinstance(c, Color):
        value = "#" + "".join(f"{round(v * 255):02x}" for v in (c.red, c.green, c.blue))
        return CMYKColor(*colour.press_cmyk(value), alpha=c.alpha)
    raise ValueError(f"{color!r} is not a colour this CMYK document can print")
