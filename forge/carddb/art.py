"""Card art as forge reads it: one decoder for `forge validate` and the renderer, safe for hostile files.

An art file may come from a pull request. It is read through ``forge.core.safeio`` (no
pipe, device, folder, huge file or link out of the project), must be a PNG, JPEG,
WebP or SVG, and is decoded in full under a pixel cap, so a decompression bomb, a
corrupt file or a text file renamed ``.png`` is refused by `validate` rather than
failing in the middle of a render.

A picture is printed at 300 DPI of the card's art window: ``cover`` crops it to
the window around its focal point, ``contain`` shows it whole. One whose pixels
would be stretched below 300 DPI is refused (``art_dpi``).

SVG is untrusted XML: ``forge.core.svgsafe`` parses it without DTD, entities or network
access, measures it against its budgets (elements, ``<use>`` expansion and depth,
embedded pixels), refuses any reference outside itself (only ``#fragments`` and
embedded ``data:`` PNG/JPEG images), and hands svglib its safe subset, so a card
file can never make forge read another file, fetch a URL, or draw 10^10 copies.
svglib turns it into reportlab vectors, drawn as such (vectors have no DPI).
"""
from __future__ import annotations

import io
import warnings
from pathlib import Path

from ..core import safeio
from ..core.limits import MAX_IMAGE_PIXELS
from ..core.svgsafe import SVGRefused, sanitise

#: The pixels a picture may declare in its header (``forge.core.limits``): bounds the memory a hostile image can take.
MAX_ART_PIXELS = MAX_IMAGE_PIXELS
#: The image formats art may use: those forge can print, decoded by Pillow without a helper
#: program (EPS would run Ghostscript) or an exotic decoder.
ART_FORMATS = ("PNG", "JPEG", "WEBP")
#: The resolution a picture must keep at its printed size.
PRINT_DPI = 300


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
    """An art file's bytes decoded by Pillow (an ``Image``), or ArtError.

    The header's dimensions are checked against the cap before a pixel is decoded, and
    Pillow's own decompression-bomb warning is an error here.
    """
    Image = safeio.pillow()

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # checked next, with its figures
            probe = Image.open(io.BytesIO(data), formats=ART_FORMATS)  # reads the header only
        with probe:
            _check_pixels(probe.size)
            probe.verify()  # checksums, without decoding
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
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


def read_svg(data: bytes):
    """The SVG as a reportlab Drawing, or ArtError (bad XML, a budget exceeded, an outside reference, nothing drawn).

    svglib reads only what ``forge.core.svgsafe`` let through (its safe subset, serialised again),
    and every embedded raster has been decoded here first under the pixel cap.
    """
    try:
        safe, rasters = sanitise(data)
    except SVGRefused as exc:
        raise ArtError(exc.message) from None
    for raster in rasters:
        decode_art(raster).close()
    from svglib.svglib import svg2rlg  # lazy: loads svglib only when needed

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", safeio.pillow().DecompressionBombWarning)
            drawing = svg2rlg(io.BytesIO(safe))  # a stream, not a path: svglib then resolves no file reference
    except (RecursionError, MemoryError):
        raise ArtError("the SVG nests too deep for svglib to draw") from None
    except Exception as exc:  # svglib and reportlab raise many kinds on a drawing they cannot take
        raise ArtError(f"svglib cannot draw the SVG ({type(exc).__name__}: {exc})") from None
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
    from PIL import Image  # lazy: loads PIL only when needed

    crop, (fx, fy, fw, fh) = placement(image.size, (px_w, px_h), focus, fit)
    out = image.convert("RGB").resize((max(1, round(px_w * fw)), max(1, round(px_h * fh))), Image.LANCZOS,
                                      box=crop)
    return out, (fx, fy, fw, fh)
