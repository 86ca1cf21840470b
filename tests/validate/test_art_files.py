"""Card art that forge cannot print is refused by `forge validate` at the card's `art:` line.

Before, validate only checked that the path was a file inside the project: a corrupt
PNG, a decompression bomb or an SVG renamed .png passed, and `forge render` then
crashed (issue 7, section 3). The renderer now draws the default art for them.
"""
from __future__ import annotations

import io
import os
import struct
import zlib
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.render.draw import _art_image
from forge.render.face import build_face
from forge.render.jobs import cards_pdf
from forge.carddb.art import ART_FORMATS, ArtError, read_art

from ..render.helpers import books, mini_db
from .helpers import CREATURE, only, run

ART_LINE, ART_COL = 10, 10  # `    art: art/imp.png`, inserted after the name


def png(width: int = 660, height: int = 420) -> bytes:
    """A PNG sharp enough for the creature art window (54.7 × 34.6 mm at 300 dpi: 646 × 409 px)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (180, 40, 30)).save(out, "PNG")
    return out.getvalue()


def declared_png(width: int, height: int) -> bytes:
    """A PNG of a few hundred bytes whose header declares ``width`` × ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 1024))
            + chunk(b"IEND", b""))


def flipped_png() -> bytes:
    """A PNG with one byte of its image data changed: the chunk's checksum no longer matches."""
    data = bytearray(png())
    at = data.index(b"IDAT") + 8
    data[at] ^= 0xFF
    return bytes(data)


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'

BAD_ART = {
    "corrupt": (flipped_png, "the image is damaged"),
    "truncated": (lambda: png()[:60], "the image is damaged"),
    "bomb-50000": (lambda: declared_png(50_000, 50_000), "too many pixels"),
    "bomb-10000": (lambda: declared_png(10_000, 10_000), "too many pixels"),  # Pillow only warns here
    "over-cap": (lambda: declared_png(6_000, 6_000), "declares 6,000 × 6,000 pixels"),
    "svg": (lambda: SVG, "not a PNG, JPEG or WebP image"),  # an SVG named .png is read as a raster image
    "text": (lambda: b"this is not an image\n", "not a PNG, JPEG or WebP image"),
    "empty": (lambda: b"", "not a PNG, JPEG or WebP image"),
    "gif": (lambda: b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "not a PNG, JPEG or WebP image"),
    "eps": (lambda: b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", "not a PNG, JPEG or WebP image"),
}


def card_with_art(project, data: bytes | None) -> Path:
    """cards/red.yaml with `art: art/imp.png`, and that file holding ``data`` (when given)."""
    project("red.yaml", CREATURE.replace("    activate:", "    art: art/imp.png\n    activate:"))
    (project.root / "art").mkdir(exist_ok=True)
    path = project.root / "art" / "imp.png"
    if data is not None:
        path.write_bytes(data)
    return path


def test_a_good_png_passes(project):
    card_with_art(project, png())
    _, report = run(project.root)
    # the one-card project's counts are reported at its file too: only the card's own findings matter
    assert [f for f in report["findings"] if f["file"] == "cards/red.yaml"
            and f["rule"] not in ("count", "starter", "faction")] == []


@pytest.mark.parametrize("kind", sorted(BAD_ART))
def test_art_forge_cannot_print_is_a_finding_at_the_art_line(project, kind):
    make, words = BAD_ART[kind]
    card_with_art(project, make())
    code, report = run(project.root)
    f = only(report, "art")
    assert (f["file"], f["line"], f["column"]) == ("cards/red.yaml", ART_LINE, ART_COL)
    assert words in f["message"] and "PNG, JPEG or WebP" in f["hint"]
    assert code == 1


@pytest.mark.parametrize("kind, words", [("fifo", "named pipe"), ("folder", "a folder")])
def test_art_that_is_not_an_ordinary_file_is_refused(project, no_hang, kind, words):
    path = card_with_art(project, None)
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    _, report = run(project.root)
    f = only(report, "art")
    assert f["line"] == ART_LINE and words in f["message"]


def test_art_larger_than_the_input_limit_is_never_read(project, no_hang):
    from forge.core import safeio

    path = card_with_art(project, None)
    with open(path, "wb") as f:
        f.truncate(safeio.MAX_INPUT_BYTES + 1)
    _, report = run(project.root)
    assert "more than the limit" in only(report, "art")["message"]


def test_only_plain_raster_formats_are_opened():
    """EPS would start Ghostscript; forge opens art with Pillow's PNG, JPEG and WebP decoders only."""
    assert ART_FORMATS == ("PNG", "JPEG", "WEBP")


# -- the renderer: default art, never a crash ----------------------------------------------
def images_in(pdf: bytes) -> int:
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    return sum(1 for ref in (page["/Resources"].get("/XObject") or {}).values()
               if ref.get_object()["/Subtype"] == "/Image")


@pytest.fixture
def art_root(tmp_path: Path):
    (tmp_path / "art").mkdir()
    db = mini_db()
    db.cards[0] = replace(db.cards[0], art="art/whelp.png")
    return tmp_path, db


@pytest.mark.parametrize("kind", ["corrupt", "truncated", "bomb-50000", "bomb-10000", "svg"])
def test_the_renderer_draws_the_default_art_for_a_refused_image(art_root, kind):
    root, db = art_root
    make, _ = BAD_ART[kind]
    (root / "art" / "whelp.png").write_bytes(make())
    face = build_face(db.cards[0], db, books()["en"], "en", root)
    assert face.art is None  # refused when the face is built: the renderer warns (art-missing), prints the default
    pdf, _ = cards_pdf([face], root)
    assert images_in(pdf) == 0
    named = replace(face, art="art/whelp.png")  # and drawing itself copes with a bad file it is handed
    pdf, _ = cards_pdf([named], root)
    assert images_in(pdf) == 0


def test_the_renderer_still_draws_good_art(art_root):
    root, db = art_root
    (root / "art" / "whelp.png").write_bytes(png(1200, 900))
    face = build_face(db.cards[0], db, books()["en"], "en", root)
    pdf, _ = cards_pdf([face], root)
    assert images_in(pdf) == 1


def test_the_art_loader_refuses_a_link_out_of_the_project(art_root):
    root, _ = art_root
    outside = root.parent / f"{root.name}-secret.png"
    outside.write_bytes(png())
    (root / "art" / "whelp.png").symlink_to(outside)
    with pytest.raises(ArtError, match="outside the project"):
        read_art(root, "art/whelp.png")
    assert _art_image(str(root), "art/whelp.png", "x", 10, 10, False) is None
