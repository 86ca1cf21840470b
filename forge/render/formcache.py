"""Cards drawn once as PDF forms and kept, so a document re-uses a card's form instead of drawing it again.

A print-and-play sheet, the print-on-demand file and the proof each place every card as a
form XObject. Drawing a card costs about 5 ms of reportlab work (icons, gradients, text), and
after one card changed the eight documents that show it were drawn whole again: 500 cards
redrawn for one. Here a card's form is drawn once, on a scratch canvas, into a *fragment*:
its content stream (compressed, as the document writes it), its graphics states, the
gradients it uses and the forms nested in it (the faction's frame texture). The fragment is
kept under ``<out>/.cache/forms/``, keyed by the card's cache key (its data, the template,
the assets and the renderer's code) and the colour mode, and copied into each document that
places the card, in any run.

A fragment means the same in every document only if nothing in it depends on the document:
- gradients are named by what they are (``paint.shading_name``), not by a counter;
- graphics states are named inside each form (reportlab starts each form's names afresh);
- text: reportlab gives each character of a subset font its code in the order a document first
  shows it. ASCII keeps its own codes; every document that places fragments gets the other
  characters forge prints (``PRESEED``) first, in a fixed order, in all its fonts, so a
  character's code is the same everywhere. A card that shows a character outside that set, an
  image or a font forge does not register is not kept: it is drawn straight into each document.

Every document of a run, cold or not, places every card the same way (from a fragment, or drawn
straight in when it cannot be kept), so a document is byte-identical whether its fragments were
just drawn or read back. Fragments are sealed like the other records (``seal``): one this
machine did not write is drawn again.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import getFont

from .paint import SHADINGS, Painter
from ..core.compat import reportlab as rl_internals
from ..core.seal import SealedBlob
from ..core.safeio import within
from .assets import FONT_FILES, register_fonts

#: Where fragments are kept, under the output folder.
FORMS = Path(".cache") / "forms"
#: Bump when what a fragment holds, or how it is placed, changes.
FORMAT = "1"
#: No fragment of a card is near this (about 10 kB compressed).
MAX_FRAGMENT = 16 * 1024 * 1024
#: The characters (beyond ASCII, whose codes are fixed) every fragment-using document assigns first, in
#: this order: the letters of French and English and the typography and signs forge prints. A card
#: showing another one is drawn straight into each document (slower, the same bytes).
PRESEED = ("ÀÂÄÆÇÈÉÊËÎÏÔÖŒÙÛÜŸàâäæçèéêëîïôöœùûüÿ«»‘’‚“”„–—…•·×÷−→←↑↓≤≥°©€™′″"
           "\u2009\u202f\u2011")


def preseed(canvas) -> None:
    """Give ``canvas``'s document its fonts (in a fixed order) and their characters' codes (``PRESEED``)."""

    register_fonts()
    doc = rl_internals.document(canvas)
    for name in sorted(FONT_FILES):
        font = getFont(name)
        have = font.face.charToGlyph
        font.splitString("".join(ch for ch in PRESEED if ord(ch) in have), doc)
        font.getSubsetInternalName(0, doc)


def _font_codes(doc) -> tuple:
    """Where each forge font's code assignment stands in ``doc`` (it moves when a new character is shown)."""

    out = []
    for name in sorted(FONT_FILES):
        state = getFont(name).state.get(doc)
        out.append((name, None if state is None else (state.nextCode, len(state.subsets))))
    return tuple(out), len(doc.fontMapping)


@dataclass(frozen=True)
class FormPart:
    """One form of a fragment, with what its resource dictionary names."""

    name: str  # the form's name (``beginForm``)
    bbox: tuple[float, float, float, float]
    stream: bytes  # the content stream, Flate-compressed
    states: tuple[tuple[str, str, object], ...]  # graphics states: (name, key, value)
    shadings: tuple[str, ...]
    xobjects: tuple[str, ...]  # internal names of the forms it places
    transparent: bool


@dataclass(frozen=True)
class Fragment:
    """A card's form and the forms nested in it (first), with the gradients they use."""

    parts: tuple[FormPart, ...]
    shadings: dict  # name -> (kind, colours, positions), see ``paint.Painter.shading``
    version: tuple[int, ...]  # the PDF version the drawing asked for

    def to_bytes(self) -> bytes:
        head = {"parts": [[p.name, list(p.bbox), len(p.stream), [list(s) for s in p.states], list(p.shadings),
                           list(p.xobjects), p.transparent] for p in self.parts],
                "shadings": self.shadings, "version": list(self.version)}
        data = json.dumps(head, sort_keys=True, separators=(",", ":")).encode()
        return len(data).to_bytes(4, "big") + data + b"".join(p.stream for p in self.parts)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Fragment | None:
        try:
            n = int.from_bytes(raw[:4], "big")
            head = json.loads(raw[4:4 + n])
            at, parts = 4 + n, []
            for name, bbox, size, states, shadings, xobjects, transparent in head["parts"]:
                stream = raw[at:at + size]
                at += size
                if len(stream) != size:
                    return None
                parts.append(FormPart(str(name), tuple(float(v) for v in bbox), stream,
                                      tuple((str(a), str(b), v) for a, b, v in states), tuple(map(str, shadings)),
                                      tuple(map(str, xobjects)), bool(transparent)))
            shadings = {str(k): (str(v[0]), [str(c) for c in v[1]], None if v[2] is None else [float(x) for x in v[2]])
                        for k, v in head["shadings"].items()}
            return cls(tuple(parts), shadings, tuple(int(v) for v in head["version"])) if at == len(raw) else None
        except (ValueError, TypeError, KeyError, IndexError):
            return None


def capture(scratch, name: str, width: float, height: float, draw: Callable, cmyk: bool) -> Fragment | None:
    """Draw form ``name`` on ``scratch`` (a fresh, preseeded ``PdfBuffer``) and take it as a fragment;
    None when what it drew depends on the document (see the module doc)."""
    c = scratch.canvas
    doc = rl_internals.document(c)
    before, codes = set(doc.idToObject), _font_codes(doc)
    c.beginForm(name, 0, 0, width, height)
    draw(Painter(c, cmyk=cmyk))
    c.endForm()
    if _font_codes(doc) != codes:
        return None
    specs = c.__dict__.get(SHADINGS, {})
    parts = []
    for key in [k for k in doc.idToObject if k not in before]:
        obj = doc.idToObject[key]
        if key in specs:
            continue
        if not isinstance(obj, pdfdoc.PDFFormXObject) or not key.startswith("FormXob."):
            return None  # an image, a colour space...: kept out
        res = obj.Resources
        if getattr(obj, "Annots", None) or getattr(res, "ColorSpace", None) or getattr(res, "Pattern", None):
            return None
        states = []
        for state, value in sorted(((getattr(res, "ExtGState", None) or pdfdoc.PDFDictionary()).dict.items())):
            (k, v), = value.dict.items()
            states.append((state, k, v))
        stream = obj.stream if isinstance(obj.stream, bytes) else pdfdoc.pdfdocEnc(obj.stream)
        parts.append(FormPart(key[len("FormXob."):], (obj.lowerx, obj.lowery, obj.upperx, obj.uppery),
                              zlib.compress(stream), tuple(states), tuple(sorted(res.Shading)),
                              tuple(sorted(res.XObject.dict)) if getattr(res, "XObject", None) else (),
                              bool(c.transparent_forms.get(key[len("FormXob."):]))))
    used = {s for p in parts for s in p.shadings}
    if not parts or parts[-1].name != name or not used <= set(specs):
        return None
    return Fragment(tuple(parts), {s: specs[s] for s in sorted(used)}, rl_internals.pdf_version(doc))


def place(canvas, fragment: Fragment, cmyk: bool) -> None:
    """Define the fragment's forms in ``canvas``'s document (those it does not have yet), gradients first."""
    doc = rl_internals.document(canvas)
    painter = Painter(canvas, cmyk=cmyk)
    for part in fragment.parts:
        if canvas.hasForm(part.name):
            continue
        for name in part.shadings:
            kind, colors, positions = fragment.shadings[name]
            painter.shading(kind, colors, positions)
        form = pdfdoc.PDFFormXObject(*part.bbox)
        form.compression = rl_internals.page_compression(canvas)
        form.stream = zlib.decompress(part.stream)  # what pdfx's document digest reads
        contents = pdfdoc.PDFStream(content=part.stream)
        contents.__Comment__ = "xobject form stream"
        contents.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
        form.Contents = contents
        res = pdfdoc.PDFResourceDictionary()
        res.basicFonts()
        res.allProcs()
        if part.xobjects:
            form.XObjects = res.XObject = pdfdoc.PDFDictionary(
                {n: pdfdoc.PDFObjectReference(n) for n in part.xobjects})
        if part.states:
            res.ExtGState = pdfdoc.PDFDictionary({n: pdfdoc.PDFDictionary({k: v}) for n, k, v in part.states})
        res.setShading({s: s for s in part.shadings})
        form.Resources = res
        doc.addForm(part.name, form)
        canvas.transparent_forms[part.name] = part.transparent
    rl_internals.require_pdf_version(doc, fragment.version)


class FormCache:
    """Fragments by card: in this process, and under ``out`` between runs (none kept when ``out`` is None).

    ``key_of(item)`` is the card's cache key (``jobs.item_key``); it covers the renderer's code.
    """

    _memory: dict[str, Fragment | None] = {}  # shared by the documents a worker makes in one run

    def __init__(self, out: Path | None, key_of: Callable):
        self.out = Path(out) if out is not None else None
        self.key_of = key_of

    def path(self, key: str, cmyk: bool) -> Path:
        return FORMS / key[:2] / f"{key}.{'cmyk' if cmyk else 'rgb'}.{FORMAT}.form"

    def get(self, item, name: str, make: Callable[[], Fragment | None], cmyk: bool) -> Fragment | None:
        key = self.key_of(item)
        rel = self.path(key, cmyk)
        tag = f"{self.out}|{rel}|{name}"
        if tag in self._memory:
            return self._memory[tag]
        fragment = self._read(rel)
        if fragment is None or fragment.parts[-1].name != name:
            fragment = make()
            if fragment is not None and self.out is not None:
                self._record(rel).save(fragment.to_bytes())
        if len(self._memory) > 4096:
            self._memory.clear()
        self._memory[tag] = fragment
        return fragment

    def _record(self, rel: Path) -> SealedBlob:
        return SealedBlob(self.out / rel, "form fragment", FORMAT, folder=self.out, limit=MAX_FRAGMENT)

    def _read(self, rel: Path) -> Fragment | None:
        payload = self._record(rel).load() if self.out is not None else None
        return Fragment.from_bytes(payload) if payload is not None else None


def prune(out: Path, keep: set[str]) -> None:
    """Remove the fragments of cards no longer drawn (their key not in ``keep``), and any of another format."""
    base = Path(out) / FORMS
    if not base.is_dir() or base.is_symlink():
        return
    for f in sorted(base.glob("*/*.form")):
        key, _, rest = f.name.partition(".")
        if (key not in keep or not rest.endswith(f".{FORMAT}.form")) and not f.is_symlink() and within(f.parent, out):
            f.unlink(missing_ok=True)
