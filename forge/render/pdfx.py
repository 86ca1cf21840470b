"""PDF/X-4 identification of the print-on-demand file, on top of a reportlab canvas.

A press's preflight (Acrobat, callas pdfToolbox, a RIP) asks of a PDF/X-4 file: PDF 1.6,
GTS_PDFXVersion in the Info dictionary and in XMP metadata that agrees with it, /Trapped
True or False, a document ID, and an output intent (``/S /GTS_PDFX``) whose destination
profile is the CMYK ICC profile the colours were converted for (``colour.PRESS_PROFILE``).
Trim and bleed boxes on every page come from ``PdfBuffer`` (its ``trim``).

Transparency stays live: PDF/X-4, unlike X-1a and X-3, allows it, and flattening would
rasterise or split the soft glows and rays into hundreds of pieces and could turn the
black text into images. Each page that uses transparency (including through the card
forms it places) gets a page group blending in DeviceCMYK, the output intent's space, so
a RIP blends exactly as a viewer does (``FormCanvas`` tracks which pages need one).

Everything written is derived from the document (dates from reportlab's invariant
timestamp, the ID from the content), so the file stays byte-identical from run to run.
"""
from __future__ import annotations

import hashlib
import zlib
from functools import lru_cache
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfdoc

from ..core.compat import reportlab as rl_internals
from . import colour

PDFX_VERSION = "PDF/X-4"
PDF_VERSION = (1, 6)


class _PdfxInfo(pdfdoc.PDFInfo):
    """reportlab's Info dictionary plus the PDF/X version key (Trapped is already /False)."""

    def format(self, document):
        base = super().format(document)  # the usual keys, as one dictionary "<< ... >>"
        end = base.rindex(b">>")
        key = b"/GTS_PDFXVersion " + pdfdoc.format(pdfdoc.PDFString(PDFX_VERSION), document) + b"\n"
        return base[:end] + key + base[end:]


@lru_cache(maxsize=1)
def compressed_profile() -> bytes:
    """The press profile, Flate-compressed once per process (it is 1 MB): an output intent's DestOutputProfile."""
    return zlib.compress(colour.press_profile_bytes(), 6)


def _icc_stream() -> pdfdoc.PDFStream:
    """The press profile as an ICC stream (compressed once per process: it is 1 MB)."""
    d = pdfdoc.PDFDictionary({"N": 4, "Filter": pdfdoc.PDFName("FlateDecode")})
    return pdfdoc.PDFStream(d, compressed_profile(), filters=[])


def _output_intent(doc) -> pdfdoc.PDFDictionary:
    return pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"),
        "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString(colour.PRESS_CONDITION),
        "OutputCondition": pdfdoc.PDFString(colour.PRESS_INFO),
        "RegistryName": pdfdoc.PDFString(colour.PRESS_REGISTRY),
        "Info": pdfdoc.PDFString(colour.PRESS_INFO),
        "DestOutputProfile": doc.Reference(_icc_stream()),
    })


def prepare(canvas) -> None:
    """Make ``canvas``'s document a PDF/X-4 one; call before setting its title and author."""
    doc = rl_internals.document(canvas)
    rl_internals.require_pdf_version(doc, PDF_VERSION)
    info = _PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    info.trapped = "False"
    doc.info = info
    cat = doc.Catalog
    cat.__NoDefault__ = [*type(cat).__NoDefault__, "OutputIntents"]
    cat.OutputIntents = pdfdoc.PDFArray([_output_intent(doc)])


def _xmp_date(ts) -> str:
    y, mo, d, h, mi, s = ts.YMDhms
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}{ts.dhh:+03d}:{ts.dmm:02d}"


def _uuid(digest: bytes) -> str:
    h = digest.hex()[:32]
    return f"uuid:{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _content_digest(doc) -> bytes:
    """A digest of what the document shows: its Info strings, page streams and form streams."""
    md5 = hashlib.md5(usedforsecurity=False)
    info = doc.info
    for text in (info.title, info.author, info.subject, info.keywords, info.creator):
        md5.update(str(text).encode("utf-8") + b"\0")
    for page in doc.Pages.pages:
        stream = page.stream or ""
        md5.update(stream.encode("latin-1", "replace") if isinstance(stream, str) else bytes(stream))
    for name in sorted(doc.idToObject, key=str):
        obj = doc.idToObject[name]
        if isinstance(obj, pdfdoc.PDFFormXObject) and obj.stream is not None:
            md5.update(str(name).encode() + b"\0")
            stream = obj.stream
            md5.update(stream.encode("latin-1", "replace") if isinstance(stream, str) else bytes(stream))
    return md5.digest()


def _xmp(doc, digest: bytes) -> bytes:
    info = doc.info
    return xmp_packet(title=info.title, author=info.author, subject=info.subject, keywords=info.keywords,
                      producer=info.producer, creator=info.creator, date=_xmp_date(rl_internals.time_stamp(doc)),
                      digest=digest, trapped=info.trapped)


def xmp_packet(*, title, author, subject, keywords, producer, creator, date: str, digest: bytes,
               trapped: str = "False") -> bytes:
    """The XMP metadata a PDF/X-4 file carries, from plain values (``date`` in ISO 8601 with an offset).

    The document and instance IDs derive from ``digest``: the same content, the same bytes.
    Shared by the cards' print-on-demand file and the books' print files.
    """
    e = escape
    packet = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{e(str(title))}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>{e(str(author))}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">{e(str(subject))}</rdf:li></rdf:Alt></dc:description>
   <pdf:Keywords>{e(str(keywords))}</pdf:Keywords>
   <pdf:Producer>{e(str(producer))}</pdf:Producer>
   <pdf:Trapped>{trapped}</pdf:Trapped>
   <xmp:CreatorTool>{e(str(creator))}</xmp:CreatorTool>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmpMM:DocumentID>{_uuid(digest)}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{_uuid(digest)}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return packet.encode("utf-8")


def finish(canvas) -> None:
    """Before saving: the document ID and the XMP metadata, both derived from the content."""
    doc = rl_internals.document(canvas)
    digest = _content_digest(doc)
    ids = b"<" + digest.hex().encode() + b">"
    rl_internals.set_file_id(doc, ids, ids)
    meta = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("Metadata"),
                                                  "Subtype": pdfdoc.PDFName("XML")}), _xmp(doc, digest), filters=[])
    doc.Catalog.Metadata = meta


def transparency_group() -> pdfdoc.PDFDictionary:
    """The page group of a page that uses transparency: blending in the output intent's CMYK."""
    return pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("Group"), "S": pdfdoc.PDFName("Transparency"),
                                 "CS": pdfdoc.PDFName("DeviceCMYK")})
