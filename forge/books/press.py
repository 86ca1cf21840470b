"""The books' print files: 3 mm bleed, crop marks, trim and bleed boxes, press CMYK and PDF/X-4.

One layout and one paint serve the screen and the print file. Every book is laid out
and painted with a 3 mm bleed (``BLEED_CSS``: the page backgrounds, the covers' gradient
included, paint into it); the screen PDF is those objects with every page box at the
trim (``at_trim``), so it is cut at the trim as before, and the print file is made from
them by ``Finisher``, before they are written:

- the media box grows past the bleed by a slug that holds the crop marks: printers want
  marks outside the bleed, never drawn on it (WeasyPrint's own ``marks: crop`` draws them
  inside the bleed, over the cover's art), in registration colour (``REGISTRATION``: every
  separation at 100 %, so each plate carries them and the plates can be aligned), hairline; what a page draws is
  clipped to its bleed box, so nothing but the marks reaches the slug;
- TrimBox is the A5 page, BleedBox 3 mm larger on every side;
- colours in the press's CMYK (``forge.books.cmyk``), each page a transparency group
  blending in DeviceCMYK;
- PDF/X-4 identification as the cards' print-on-demand file (``forge.render.pdfx``):
  GTS_PDFXVersion, /Trapped /False, fixed dates (``SOURCE_DATE_EPOCH``), a document ID
  and XMP derived from the book's key, and the output intent with the press profile;
- links are dropped: a press file's annotations inside the bleed box are refused by
  PDF/X preflights, and paper has no use for them (the bookmarks stay).
"""
from __future__ import annotations

import hashlib
import os
import time

import pydyf

from .pdfobjects import kept_streams, number, pages, serialise
from .impose import write_booklets

BLEED_MM = 3.0
#: Crop marks start past the bleed (never printed on it) and run this long into the slug.
MARK_OFFSET_MM = BLEED_MM
MARK_LENGTH_MM = 5.0
SLUG_MM = MARK_OFFSET_MM + MARK_LENGTH_MM + 2.0  # media box past the trim, on every side
MARK_WIDTH_PT = 0.25
#: The marks' colour space, named in each page's resources: the Separation "All" (every plate at 100 %).
REGISTRATION = "ForgeRegistration"
#: Laid out into every book: backgrounds paint into the bleed (WeasyPrint: page background painting area).
BLEED_CSS = f"@page {{ bleed: {BLEED_MM:g}mm }}"
PT_PER_MM = 72 / 25.4
CSS_PX_PER_MM = 96 / 25.4


def _pdf_date(epoch: int) -> tuple[str, str]:
    """(PDF date string, XMP date) of a UTC timestamp."""
    t = time.gmtime(epoch)
    return (time.strftime("D:%Y%m%d%H%M%SZ", t), time.strftime("%Y-%m-%dT%H:%M:%S+00:00", t))


def _marks(trim: list[float]) -> list[bytes]:
    """Crop marks at the four corners of ``trim`` (x0, y0, x1, y1, points), outside the bleed."""
    x0, y0, x1, y1 = trim
    near, far = MARK_OFFSET_MM * PT_PER_MM, (MARK_OFFSET_MM + MARK_LENGTH_MM) * PT_PER_MM
    ops = [b"q", f"/{REGISTRATION} CS 1 SCN".encode(), f"{MARK_WIDTH_PT:g} w".encode(), b"0 J"]
    for x, sx in ((x0, -1), (x1, 1)):
        for y, sy in ((y0, -1), (y1, 1)):
            ops += [f"{x + sx * near:.3f} {y:.3f} m {x + sx * far:.3f} {y:.3f} l S".encode(),
                    f"{x:.3f} {y + sy * near:.3f} m {x:.3f} {y + sy * far:.3f} l S".encode()]
    return ops + [b"Q"]


def _registration(pdf: pydyf.PDF) -> pydyf.Array:
    """The Separation "All" with its CMYK alternate (100 % of each ink), as one object of ``pdf``."""
    tint = pydyf.Dictionary({"FunctionType": 2, "Domain": pydyf.Array([0, 1]), "C0": pydyf.Array([0, 0, 0, 0]),
                             "C1": pydyf.Array([1, 1, 1, 1]), "N": 1})
    space = pydyf.Array(["/Separation", "/All", "/DeviceCMYK", tint])
    pdf.add_object(space)
    return space


def _resolved(pdf: pydyf.PDF, value) -> pydyf.Dictionary:
    return value if isinstance(value, dict) else pdf.objects[number(value)]


def _name_registration(pdf: pydyf.PDF, page: pydyf.Dictionary, space: pydyf.Array) -> None:
    """The page's resources name the registration colour space (WeasyPrint's pages may share them)."""
    if "Resources" not in page:
        page["Resources"] = pydyf.Dictionary()
    resources = _resolved(pdf, page["Resources"])
    if "ColorSpace" not in resources:
        resources["ColorSpace"] = pydyf.Dictionary()
    _resolved(pdf, resources["ColorSpace"])[REGISTRATION] = space.reference


def _page_for_press(pdf: pydyf.PDF, page: pydyf.Dictionary) -> None:
    """Media box with the slug, bleed box 3 mm past the trim, content clipped to it, marks, CMYK group."""
    trim = [float(v) for v in page["TrimBox"]]
    bleed, slug = BLEED_MM * PT_PER_MM, SLUG_MM * PT_PER_MM
    x0, y0, x1, y1 = trim
    page["BleedBox"] = pydyf.Array([x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed])
    page["MediaBox"] = pydyf.Array([x0 - slug, y0 - slug, x1 + slug, y1 + slug])
    page["Group"] = pydyf.Dictionary({"Type": "/Group", "S": "/Transparency", "CS": "/DeviceCMYK"})
    page.pop("Annots", None)
    contents = pdf.objects[number(page["Contents"])]
    clip = (f"{x0 - bleed:.3f} {y0 - bleed:.3f} {x1 - x0 + 2 * bleed:.3f} {y1 - y0 + 2 * bleed:.3f} re W n").encode()
    contents.stream[:0] = [b"q", clip]
    contents.stream += [b"Q", *_marks(trim)]


def _identify(pdf: pydyf.PDF, identity: bytes) -> None:
    """PDF/X-4 keys, output intent and XMP (see the module doc)."""
    from ..render import colour, pdfx  # lazy: loads reportlab, forge.render only when needed

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or 0)
    pdf_date, xmp_date = _pdf_date(epoch)
    info = pdf.info
    info["GTS_PDFXVersion"] = pydyf.String(pdfx.PDFX_VERSION)
    info["Trapped"] = "/False"
    info["CreationDate"] = info["ModDate"] = pydyf.String(pdf_date)
    profile = pydyf.Stream([pdfx.compressed_profile()], pydyf.Dictionary({"N": 4, "Filter": "/FlateDecode"}))
    pdf.add_object(profile)
    intent = pydyf.Dictionary({
        "Type": "/OutputIntent", "S": "/GTS_PDFX",
        "OutputConditionIdentifier": pydyf.String(colour.PRESS_CONDITION),
        "OutputCondition": pydyf.String(colour.PRESS_INFO),
        "RegistryName": pydyf.String(colour.PRESS_REGISTRY),
        "Info": pydyf.String(colour.PRESS_INFO),
        "DestOutputProfile": profile.reference,
    })
    pdf.catalog["OutputIntents"] = pydyf.Array([intent])

    def text(key: str) -> str:
        value = info.get(key)
        return value.string if isinstance(value, pydyf.String) else ""

    packet = pdfx.xmp_packet(title=text("Title"), author=text("Author"), subject=text("Subject"),
                             keywords=text("Keywords"), producer=text("Producer"), creator=text("Creator"),
                             date=xmp_date, digest=identity)
    metadata = pydyf.Stream([packet], pydyf.Dictionary({"Type": "/Metadata", "Subtype": "/XML"}))
    pdf.add_object(metadata)
    pdf.catalog["Metadata"] = metadata.reference


def at_trim(document, pdf: pydyf.PDF) -> list[tuple]:
    """Every page box of the painted ``pdf`` at the trim, as WeasyPrint sets them without a bleed: the
    screen PDF. A ``finisher`` of its own (returns the boxes it replaced)."""
    book = pages(pdf)
    saved = [(page["MediaBox"], page["TrimBox"], page["BleedBox"]) for page in book]
    for page in book:
        x0, y0, x1, y1 = page["TrimBox"]
        page["MediaBox"] = pydyf.Array([-0.0, -0.0, x1 - x0, y1 - y0])
        page["TrimBox"] = page["BleedBox"] = pydyf.Array([0.0, 0.0, x1 - x0, y1 - y0])
    return saved


def _write_screen(pdf: pydyf.PDF) -> bytes:
    """The screen PDF from the print file's objects, before they are converted: the very bytes that
    ``write_pdf(finisher=at_trim)`` writes (tested), whether the print files are asked for or not."""
    saved = at_trim(None, pdf)
    screen = serialise(pdf)
    for page, (media, trim, bleed) in zip(pages(pdf), saved):
        page["MediaBox"], page["TrimBox"], page["BleedBox"] = media, trim, bleed
    return screen


class Finisher:
    """WeasyPrint's ``finisher``: writes the screen PDF, then turns the objects into the print file."""

    def __init__(self, identity: str):
        self.identity = hashlib.md5(identity.encode(), usedforsecurity=False).digest()
        self.screen = b""
        self.booklets: dict[str, bytes] = {}

    @property
    def file_id(self) -> bytes:
        """The first half of the document ID (pydyf computes the second from the content)."""
        return self.identity.hex().encode()

    def __call__(self, document, pdf: pydyf.PDF) -> None:
        from .cmyk import to_press  # lazy: loads reportlab, forge.carddb ... only when needed

        self.screen = _write_screen(pdf)
        self.booklets = write_booklets(pdf)
        to_press(pdf)
        registration = _registration(pdf)
        for page in pages(pdf):
            _page_for_press(pdf, page)
            _name_registration(pdf, page, registration)
        _identify(pdf, self.identity)


def write_all(document, identity: str) -> tuple[bytes, bytes, dict[str, bytes]]:
    """The screen PDF, the print file and the booklets of a book laid out with ``BLEED_CSS``, painted once."""
    finisher = Finisher(identity)
    with kept_streams():  # five writes of the same streams (forge.books.pdfobjects)
        press = document.write_pdf(finisher=finisher, pdf_version="1.6", pdf_identifier=finisher.file_id)
    return finisher.screen, press, finisher.booklets
