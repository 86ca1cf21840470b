"""Rasters are capped by the dimensions in their header before anything decodes them.

Before: an SVG embedding a 13000 × 13000 palette PNG (a few kilobytes) skipped forge's pixel
cap: svglib opened it with Pillow and expanded it to RGBA (676 MB). Pillow's own
decompression-bomb limit was left at its default (89 megapixels). Now every embedded PNG or
JPEG is measured by its header first, and forge sets Pillow's limit to its own cap.
"""
from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

from forge.core import limits

from .boxed import call, forge
from .test_svg_budget import HEAD, with_art


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(side: int) -> bytes:
    """A real palette PNG of ``side`` × ``side`` black pixels: a few kilobytes for 13000 × 13000."""
    raw = zlib.compress(b"".join(b"\0" + bytes(side) for _ in range(side)), 9)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", b"\0\0\0") + _chunk(b"IDAT", raw) + _chunk(b"IEND", b""))


def jpeg_header(width: int, height: int) -> bytes:
    """The start of a baseline JPEG whose frame header (SOF0) declares ``width`` × ``height``."""
    sof = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9"


def embedded(raster: bytes, kind: str = "png") -> bytes:
    uri = f"data:image/{kind};base64," + base64.b64encode(raster).decode()
    return (HEAD + f'<image width="100" height="100" xlink:href="{uri}"/></svg>').encode()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return palette_png(13_000)


def test_an_embedded_palette_bomb_is_refused_by_its_header(shipped: Path, bomb: bytes):
    assert len(bomb) < 200_000 and 13_000 ** 2 > limits.MAX_IMAGE_PIXELS
    with_art(shipped, embedded(bomb))
    code, output = forge("validate", "--root", str(shipped), "--quick")
    assert code == 1, output
    assert "[art] art `art/attack.svg`: an embedded image declares" in output, output
    assert f"{limits.MAX_IMAGE_PIXELS:,} pixels" in output and "internal error" not in output


def test_an_embedded_jpeg_is_refused_by_its_frame_header(shipped: Path):
    with_art(shipped, embedded(jpeg_header(20_000, 20_000), "jpeg"))
    code, output = forge("validate", "--root", str(shipped), "--quick")
    assert code == 1 and "an embedded image declares" in output, output


def _renderer_refuses(root: str) -> bool:
    from forge.render.draw import _art_svg

    return _art_svg(root, "art/attack.svg", "redteam") is None


def test_the_renderer_draws_the_default_art_instead(tmp_path: Path, bomb: bytes):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "attack.svg").write_bytes(embedded(bomb))
    assert call(_renderer_refuses, str(tmp_path)) is True


def test_pillow_takes_forge_limit():
    """Pillow refuses (not only warns) past forge's cap wherever forge opens a project's image."""
    from forge.carddb.art import ArtError, decode_art
    from forge.core.safeio import pillow

    assert pillow().MAX_IMAGE_PIXELS == limits.MAX_IMAGE_PIXELS
    wide = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 6_000, 5_000, 8, 3, 0, 0, 0))
            + _chunk(b"PLTE", b"\0\0\0") + _chunk(b"IDAT", zlib.compress(b"\0" * 6_001)) + _chunk(b"IEND", b""))
    with pytest.raises(ArtError, match="6,000 × 5,000"):  # 30 megapixels declared, one row behind
        decode_art(wide)
