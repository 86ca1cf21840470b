"""Card art as forge reads it: one decoder for `forge validate` and the renderer, safe for hostile files.

An art file may come from a pull request. It is read through ``forge.safeio`` (no
pipe, device, folder, huge file or link out of the project), must be a PNG, JPEG
or WebP, and is decoded in full under a pixel cap, so a decompression bomb, a
corrupt file or a text file renamed ``.png`` is refused by `validate` rather than
failing in the middle of a render.
"""
from __future__ import annotations

import io
import warnings
from pathlib import Path

from . import safeio

#: Art is printed at 300 DPI of a window of about 60 × 45 mm (under a million pixels);
#: five times that on each side is generous, and bounds the memory a hostile image can take.
MAX_ART_PIXELS = 25_000_000
#: The image formats art may use: those forge can print, decoded by Pillow without a helper
#: program (EPS would run Ghostscript) or an exotic decoder.
ART_FORMATS = ("PNG", "JPEG", "WEBP")


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
