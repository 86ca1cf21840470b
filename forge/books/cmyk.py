"""A WeasyPrint PDF's sRGB colours in the press's CMYK, rewritten on its pydyf objects before they are written.

WeasyPrint draws in DeviceRGB only. Rather than lay a book out again with CMYK colours
(the layout is most of a book's time) or hand the file to Ghostscript (which rebuilds the
fonts, stamps dates, and turns black text into four-colour black), the print file is the
screen file's own drawing with every colour converted through the press profile, by the
same LittleCMS transforms as the cards' print-on-demand file (``forge.render.colour``):

- colour operators (``rg``/``RG`` -> ``k``/``K``): relative colorimetric with black-point
  compensation, except dark neutrals, which print in black ink only (``text_cmyk``): the
  text, rules and inline icons drawn in the book's ink. The books have no large dark solid
  that would want a rich black, and thin four-colour type blurs when the plates are a hair
  out of register;
- gradients: each RGB segment becomes a CMYK one sampled at ``GRADIENT_STEPS + 1`` converted
  sRGB mixes, so the press's gradient (interpolated in CMYK) follows the screen's;
- images: perceptual intent, ink-limited, stored losslessly (Flate); their alpha masks
  stay DeviceGray, as PDF requires;
- transparency stays live (PDF/X-4 allows it): groups blend in DeviceCMYK, the output
  intent's space; a soft mask's group is DeviceGray, whose luminosity equals the RGB one
  for the grey gradients WeasyPrint draws in masks.

It reads and writes WeasyPrint's pydyf objects (the ``finisher`` hook of ``write_pdf``),
never the serialised file, so nothing is parsed and the fonts are untouched.
"""
from __future__ import annotations

import io
import re
import struct
import zlib
from functools import lru_cache

import pydyf

from ..core.compat import pydyf as pydyf_internals
from ..render.colour import image_to_press, press_cmyk, text_cmyk
from ..render.paint import GRADIENT_STEPS
from .pdfobjects import number
from ..core.safeio import pillow

_RGB_OP = re.compile(rb"^([-+]?[\d.]+) ([-+]?[\d.]+) ([-+]?[\d.]+) (rg|RG)$")
#: Luminosity of DeviceRGB, as a soft mask computes it (ISO 32000-1, 11.6.5.3, non-separable blend modes).
_LUMA = (0.3, 0.59, 0.11)


def _hex(rgb) -> str:
    return "#" + "".join(f"{max(0, min(255, round(float(v) * 255))):02x}" for v in rgb)


def _num(v: float) -> bytes:
    return (f"{v:.4f}".rstrip("0").rstrip(".") or "0").encode()


def _cmyk_op(rgb, stroke: bool) -> bytes:
    return b" ".join([*(_num(v) for v in text_cmyk(_hex(rgb))), b"K" if stroke else b"k"])


def _grey_op(rgb, stroke: bool) -> bytes:
    grey = sum(w * float(v) for w, v in zip(_LUMA, rgb))
    return _num(grey) + (b" G" if stroke else b" g")


def convert_ops(ops: list, mask: bool = False) -> None:
    """Rewrite a content stream's DeviceRGB colour operators in place (to grey in a soft mask)."""
    for i, op in enumerate(ops):
        if not isinstance(op, bytes) or not op.endswith((b"rg", b"RG")):
            continue
        m = _RGB_OP.match(op)
        if m is not None:
            rgb, stroke = m.group(1, 2, 3), m.group(4) == b"RG"
            ops[i] = _grey_op(rgb, stroke) if mask else _cmyk_op(rgb, stroke)


# -- gradients ------------------------------------------------------------------------------------
def _segment(pdf: pydyf.PDF, c0, c1, domain) -> bytes:
    """One RGB interpolation as a sampled CMYK function: ``GRADIENT_STEPS + 1`` converted sRGB mixes,
    interpolated linearly (a stream of a few bytes: the icons' thousands of gradient stops stay small
    to write and to read back)."""
    c0, c1 = [float(v) for v in c0], [float(v) for v in c1]
    mixes = [press_cmyk(_hex([a + (b - a) * s / GRADIENT_STEPS for a, b in zip(c0, c1)]))
             for s in range(GRADIENT_STEPS + 1)]
    samples = bytes(round(v * 255) for mix in mixes for v in mix)
    function = pydyf.Stream([samples], pydyf.Dictionary({
        "FunctionType": 0, "Domain": pydyf.Array([float(domain[0]), float(domain[1])]),
        "Range": pydyf.Array([0, 1] * 4), "Size": pydyf.Array([GRADIENT_STEPS + 1]), "BitsPerSample": 8}))
    pdf.add_object(function)
    return function.reference


def _function(pdf: pydyf.PDF, fn, grey: bool):
    """An RGB shading function in CMYK (or, in a soft mask, grey): a new dictionary, or a reference."""
    kind = int(fn.get("FunctionType", -1))
    if kind == 3:
        out = pydyf.Dictionary(fn)
        out["Functions"] = pydyf.Array([_function(pdf, f, grey) for f in fn["Functions"]])
        return out
    if kind != 2:
        raise ValueError(f"a gradient function of type {kind}: WeasyPrint draws types 2 and 3 only")
    if grey:
        out = pydyf.Dictionary(fn)
        out["C0"] = pydyf.Array([sum(w * float(v) for w, v in zip(_LUMA, fn["C0"]))])
        out["C1"] = pydyf.Array([sum(w * float(v) for w, v in zip(_LUMA, fn["C1"]))])
        return out
    return _segment(pdf, fn["C0"], fn["C1"], fn.get("Domain", [0, 1]))


def convert_shading(pdf: pydyf.PDF, shading: pydyf.Dictionary, mask: bool = False) -> None:
    if shading.get("ColorSpace") != "/DeviceRGB":
        return  # DeviceGray: the alpha of a gradient, drawn in a soft mask
    shading["Function"] = _function(pdf, shading["Function"], grey=mask)
    shading["ColorSpace"] = "/DeviceGray" if mask else "/DeviceCMYK"


# -- images ---------------------------------------------------------------------------------------
def _png(width: int, height: int, colour_type: int, idat: bytes) -> bytes:
    """A PNG file around the IDAT data WeasyPrint copied into the PDF (its PNG predictors)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data))

    header = struct.pack("!IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


@lru_cache(maxsize=64)
def _press_image(data: bytes, width: int, height: int, flate: bool) -> tuple[bytes, int, int]:
    """Flate-compressed CMYK samples of an RGB image as WeasyPrint writes them: JPEG, or PNG data
    (cached: the same card art recurs across books). Opened under forge's pixel cap (``safeio.pillow``)."""
    with pillow().open(io.BytesIO(_png(width, height, 2, data) if flate else data)) as im:
        cmyk = image_to_press(im.convert("RGB"))
    return zlib.compress(cmyk.tobytes(), 6), cmyk.width, cmyk.height


def convert_image(image: pydyf.Stream) -> None:
    if image.extra.get("ColorSpace") != "/DeviceRGB":
        return
    data = b"".join(pydyf_internals.to_bytes(part) for part in image.stream)
    flate = image.extra.get("Filter") == "/FlateDecode"
    samples, width, height = _press_image(data, int(image.extra["Width"]), int(image.extra["Height"]), flate)
    for key in ("Decode", "DecodeParms"):
        image.extra.pop(key, None)
    image.extra.update({"ColorSpace": "/DeviceCMYK", "Filter": "/FlateDecode", "Width": width, "Height": height})
    image.stream = [samples]
    image.compress = False


# -- the whole document ---------------------------------------------------------------------------
def soft_masks(pdf: pydyf.PDF) -> set[int]:
    """Object numbers of the groups that soft masks draw (their colours are alpha, not ink)."""
    found = set()
    for obj in pdf.objects:
        if isinstance(obj, pydyf.Dictionary) and isinstance(obj.get("ExtGState"), dict):
            for state in obj["ExtGState"].values():
                if isinstance(state, dict) and isinstance(state.get("SMask"), dict) and "G" in state["SMask"]:
                    found.add(number(state["SMask"]["G"]))
    return found


def _mask_shadings(pdf: pydyf.PDF, masks: set[int]) -> set[int]:
    """Object numbers of the shadings a soft mask's group paints."""
    found = set()
    for mask in masks:
        resources = pdf.objects[mask].extra.get("Resources")
        resources = pdf.objects[number(resources)] if isinstance(resources, bytes) else resources or {}
        for ref in (resources.get("Shading") or {}).values():
            if isinstance(ref, bytes):
                found.add(number(ref))
    return found


def to_press(pdf: pydyf.PDF) -> None:
    """Every colour of ``pdf`` in the press's CMYK (see the module doc)."""
    # lazy: loads weasyprint only when needed
    from weasyprint.pdf.stream import Stream as ContentStream  # pages, forms and patterns; not fonts

    masks = soft_masks(pdf)
    mask_shadings = _mask_shadings(pdf, masks)
    for obj in list(pdf.objects):  # gradients add their sampled functions
        if isinstance(obj, pydyf.Stream):
            extra = obj.extra
            if extra.get("Subtype") == "/Image":
                convert_image(obj)
                continue
            if isinstance(obj, ContentStream):
                convert_ops(obj.stream, mask=obj.number in masks)
            group = extra.get("Group")
            if isinstance(group, dict):
                group["CS"] = "/DeviceGray" if obj.number in masks else "/DeviceCMYK"
        elif isinstance(obj, pydyf.Dictionary) and "ShadingType" in obj:
            convert_shading(pdf, obj, mask=obj.number in mask_shadings)
