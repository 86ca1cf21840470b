"""Card art as forge reads it: one decoder for `forge validate` and the renderer, safe for hostile files.

An art file may come from a pull request. It is read through ``forge.safeio`` (no
pipe, device, folder, huge file or link out of the project), must be a PNG, JPEG,
WebP or SVG, and is decoded in full under a pixel cap, so a decompression bomb, a
corrupt file or a text file renamed ``.png`` is refused by `validate` rather than
failing in the middle of a render.

A picture is printed at 300 DPI of the card's art window: ``cover`` crops it to
the window around its focal point, ``contain`` shows it whole. One whose pixels
would be stretched below 300 DPI is refused (``art_dpi``).

SVG is untrusted XML: it is parsed without entities, DTDs or network access, and
refused when it refers to anything outside itself (an ``href`` to a file or a
URL; only ``#fragments`` and embedded ``data:`` PNG/JPEG images are allowed), so
a card file can never make forge read another file or fetch a URL. svglib turns
it into reportlab vectors, drawn as such (vectors have no DPI).
"""
from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

from . import safeio

#: Art is printed at 300 DPI of a window of about 60 × 45 mm (under a million pixels);
#: five times that on each side is generous, and bounds the memory a hostile image can take.
MAX_ART_PIXELS = 25_000_000
#: The image formats art may use: those forge can print, decoded by Pillow without a helper
#: program (EPS would run Ghostscript) or an exotic decoder.
ART_FORMATS = ("PNG", "JPEG", "WEBP")
#: The resolution a picture must keep at its printed size.
PRINT_DPI = 300
#: References an SVG may keep: to itself, or an embedded PNG/JPEG.
_SVG_SAFE_REF = re.compile(r"^\s*(#|data:image/(png|jpe?g);base64,)", re.I)
_XLINK = "{http://www.w3.org/1999/xlink}href"


class ArtError(Exception):
    """An art file that forge will not print; the message says why."""


def read_art(root: Path, rel: str):
    """The art at ``rel``, decoded by Pillow (an ``Image``); ArtError when forge will not print it.

    Shared by ``forge validate`` and the renderer, so that both accept the same
    images. The file is read through ``safeio`` (no pipe, device, folder, huge file
    or link out of the project), must be a PNG, JPEG or WebP, and is decoded in
    full under a pixel cap: a decompression bomb, a corrupt file or a text file
    renamed ``.png`` is refused here rather than failing in the middle of a render.
    """
    return decode_art(art_bytes(root, rel))


def art_bytes(root: Path, rel: str) -> bytes:
    """The art file's bytes, read through ``safeio``; ArtError when it may not be read."""
    try:
        return safeio.read_bytes(Path(root) / rel, root)
    except safeio.UnsafeInput as exc:
        raise ArtError(exc.message) from None


def decode_art(data: bytes):
    """An art file's bytes decoded by Pillow (an ``Image``), or ArtError."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=ART_FORMATS) as probe:
                _check_pixels(probe.size)
                probe.verify()  # checksums, without decoding
            image = Image.open(io.BytesIO(data), formats=ART_FORMATS)
            image.load()
            return image
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtError(f"the image declares too many pixels (more than {MAX_ART_PIXELS:,}): "
                       "a decompression bomb?") from None
    except Image.UnidentifiedImageError:
        raise ArtError("not a PNG, JPEG or WebP image") from None
    except Exception as exc:  # Pillow's decoders raise OSError, SyntaxError, ValueError, EOFError, struct.error...
        raise ArtError(f"the image is damaged ({type(exc).__name__}: {exc})") from None


def _check_pixels(size: tuple[int, int]) -> None:
    width, height = size
    if width * height > MAX_ART_PIXELS:
        raise ArtError(f"the image declares {width:,} × {height:,} pixels, more than {MAX_ART_PIXELS:,}: "
                       "a decompression bomb?")


# -- SVG ------------------------------------------------------------------------------
def is_svg(rel: str) -> bool:
    """An SVG picture, by its name (its content is then checked as SVG, never as a raster image)."""
    return rel.lower().endswith(".svg")


def _svg_tree(data: bytes):
    """The SVG's XML tree, parsed with no entity expansion, no DTD and no network; ArtError otherwise."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ArtError(f"the SVG is not well-formed XML ({exc})") from None
    if root is None or not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
        raise ArtError("not an SVG picture (its root element is not <svg>)")
    return root


def external_references(data: bytes) -> list[str]:
    """Every reference in an SVG to something outside it: hrefs to files or URLs, CSS url(...) and @import."""
    root = _svg_tree(data)
    found = []
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for attr in (_XLINK, "href"):
            ref = node.get(attr)
            if ref is not None and not _SVG_SAFE_REF.match(ref):
                found.append(ref)
        for text in [node.get("style") or "", node.text or "" if node.tag.endswith("style") else ""]:
            for ref in re.findall(r"url\(\s*['\"]?([^'\")]*)", text) + re.findall(r"@import\s+['\"]([^'\"]+)", text):
                if not ref.startswith("#"):
                    found.append(ref)
    return found


def read_svg(data: bytes):
    """The SVG as a reportlab Drawing, or ArtError (bad XML, an outside reference, nothing drawn)."""
    outside = external_references(data)
    if outside:
        raise ArtError(f"the SVG refers to something outside itself ({outside[0]!r}); "
                       "forge never reads other files or URLs for a picture")
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(io.BytesIO(data))  # a stream, not a path: svglib then resolves no file reference
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError("the SVG draws nothing forge can read (no width or height?)")
    return drawing


# -- placing a picture -------------------------------------------------------------------
def art_dpi(size: tuple[int, int], window_mm: tuple[float, float], fit: str = "cover") -> float:
    """The resolution (pixels per inch) a picture of ``size`` pixels keeps once fitted to ``window_mm``.

    ``cover`` fills the window, so the side with fewer pixels per inch decides;
    ``contain`` fits the whole picture, so its other side does.
    """
    per_inch = (size[0] / (window_mm[0] / 25.4), size[1] / (window_mm[1] / 25.4))
    return min(per_inch) if fit == "cover" else max(per_inch)


def placement(size: tuple[int, int], window: tuple[float, float], focus: tuple[float, float], fit: str):
    """Where a picture goes in a window: (crop box in the picture's pixels, box in window fractions).

    ``cover`` fills the window and crops the picture, keeping ``focus`` (fractions of its
    width and height from the top left) as near the centre as the edges allow; ``contain``
    shows the whole picture, centred, and leaves the rest of the window to the background.
    """
    sw, sh = size
    ww, wh = window
    if fit == "contain":
        scale = min(ww / sw, wh / sh)
        fw, fh = sw * scale / ww, sh * scale / wh
        return (0.0, 0.0, float(sw), float(sh)), ((1 - fw) / 2, (1 - fh) / 2, fw, fh)
    scale = max(ww / sw, wh / sh)
    cw, ch = ww / scale, wh / scale
    left = min(max(focus[0] * sw - cw / 2, 0.0), sw - cw)
    top = min(max(focus[1] * sh - ch / 2, 0.0), sh - ch)
    return (left, top, left + cw, top + ch), (0.0, 0.0, 1.0, 1.0)


def fit_art(image, px_w: int, px_h: int, focus: tuple[float, float], fit: str):
    """The picture resampled to the part of a ``px_w`` × ``px_h`` window it covers, and that part.

    Returns (RGB image, (x, y, w, h) in fractions of the window, y from the bottom).
    """
    from PIL import Image

    crop, (fx, fy, fw, fh) = placement(image.size, (px_w, px_h), focus, fit)
    out = image.convert("RGB").resize((max(1, round(px_w * fw)), max(1, round(px_h * fh))), Image.LANCZOS,
                                      box=crop)
    return out, (fx, fy, fw, fh)
