"""reportlab's internals forge uses: a canvas's document, content operators, gradients and PDF version.

Tested with reportlab 5.1 (constraints.txt; pyproject allows >=4.0,<6). reportlab draws into
private state that forge reads and extends: the content operators of the page or form being
drawn (``Canvas._code``, to place a gradient defined once and to find what each element
inks), the document (``Canvas._doc``: its objects, its PDF version, its ID and time stamp),
the gradients and colours a form uses, and the alpha setters (``AlphaCanvas`` notes them,
to know which pages need a transparency group). reportlab is imported only when a function
runs: this module is imported by modules that ``forge validate`` loads without drawing.
"""
from __future__ import annotations

from functools import cache
import io

from . import MissingInternal

TESTED = "5.1"
#: The transformation of a canvas that reports none (user space is the page's).
IDENTITY = (1, 0, 0, 1, 0, 0)


def document(canvas):
    """The ``PDFDocument`` ``canvas`` draws into."""
    return canvas._doc


def code(canvas) -> list[str]:
    """The content operators of the page or form ``canvas`` is drawing (a list forge may append to)."""
    return canvas._code


def paint_shading(canvas, name: str) -> None:
    """Paint shading ``name`` (already in the document) through the current transformation, and give it to
    the page or form being drawn as a resource."""
    canvas._shadingUsed[name] = name
    canvas._code.append(f"/{name} sh")


def shadings_used(canvas) -> dict:
    """The shadings the page or form being drawn uses, by name."""
    return canvas._shadingUsed


def form_name(canvas) -> str:
    """The name of the form ``canvas`` is drawing (between ``beginForm`` and ``endForm``)."""
    return canvas._formData[0]


def colours_used(form) -> dict:
    """The colour spaces a ``PDFFormXObject`` uses ({} when reportlab noted none)."""
    return getattr(form, "_colorsUsed", {})


def current_matrix(canvas) -> tuple:
    """The canvas's current transformation (``IDENTITY`` for a canvas that keeps none)."""
    return getattr(canvas, "_currentMatrix", None) or IDENTITY


def page_size(canvas) -> tuple[float, float]:
    return canvas._pagesize


def page_compression(canvas) -> int:
    return canvas._pageCompression


def pdf_version(doc) -> tuple[int, int]:
    return tuple(doc._pdfVersion)


def require_pdf_version(doc, version: tuple[int, int]) -> None:
    """Make ``doc`` at least PDF ``version`` (a later one is kept)."""
    doc._pdfVersion = max(tuple(doc._pdfVersion), tuple(version))


def time_stamp(doc):
    """The document's time stamp (fixed in an ``invariant`` document)."""
    return doc._timeStamp


def set_file_id(doc, first: bytes, second: bytes) -> None:
    """Write ``[first second]`` (two PDF strings, ``<hex>``) as the document's ``/ID``, in place of reportlab's."""
    doc._ID = b"\n[" + first + second + b"]\n"


def color_function(colours: list, positions):
    """reportlab's PDF function of a gradient through ``colours`` (normalised, see ``normalise_colours``)."""
    from reportlab.pdfgen.canvas import _buildColorFunction  # lazy: loads reportlab only when needed

    return _buildColorFunction(colours, positions)


def normalise_colours(colours: list) -> tuple:
    """``(colour space, colours)`` of a gradient's stops, as reportlab's ``linearGradient`` makes them."""
    from reportlab.pdfgen.canvas import _normalizeColors  # lazy: loads reportlab only when needed

    return _normalizeColors(colours)


@cache
def alpha_canvas():
    """A ``Canvas`` subclass calling ``self.alpha_set(value)`` as a fill or stroke alpha is set."""
    from reportlab.pdfgen.canvas import Canvas  # lazy: loads reportlab only when needed

    class AlphaCanvas(Canvas):
        def alpha_set(self, value: float) -> None:
            """Told each fill or stroke alpha set (a hook: does nothing here)."""

        def _setFillAlpha(self, v):
            self.alpha_set(v)
            super()._setFillAlpha(v)

        def _setStrokeAlpha(self, v):
            self.alpha_set(v)
            super()._setStrokeAlpha(v)

    return AlphaCanvas


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    from reportlab.pdfgen import canvas as module  # lazy: loads reportlab only when needed

    for name in ("_buildColorFunction", "_normalizeColors"):
        if not callable(getattr(module, name, None)):
            raise MissingInternal("reportlab", f"reportlab.pdfgen.canvas.{name}", TESTED)
    for name in ("_setFillAlpha", "_setStrokeAlpha"):
        if not callable(getattr(module.Canvas, name, None)):
            raise MissingInternal("reportlab", f"Canvas.{name}", TESTED)
    c = module.Canvas(io.BytesIO(), invariant=1)
    c.beginForm("probe")
    for name in ("_doc", "_code", "_shadingUsed", "_formData", "_currentMatrix", "_pagesize", "_pageCompression"):
        if not hasattr(c, name):
            raise MissingInternal("reportlab", f"Canvas.{name}", TESTED)
    c.endForm()
    for name in ("_pdfVersion", "_timeStamp", "_ID"):
        if not hasattr(c._doc, name):
            raise MissingInternal("reportlab", f"PDFDocument.{name}", TESTED)
