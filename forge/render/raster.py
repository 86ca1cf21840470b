"""Rasterising card PDFs to print-shop and Tabletop Simulator images.

The PNGs are rendered from the very PDF the vector outputs use (through PDFium,
the ``pypdfium2`` wheel), so every output shows the same card. PNGs carry a
300 DPI pHYs chunk and no timestamp, so the same card gives the same bytes.
"""
from __future__ import annotations

import io

DPI = 300
#: The Game Crafter poker card: 2.75 × 3.75 in at 300 DPI (1/8 in bleed each side).
GAMECRAFTER_SIZE = (825, 1125)
#: MakePlayingCards poker card: 822 × 1122 px at 300 DPI (a 36 px bleed).
MPC_SIZE = (822, 1122)
#: Tabletop Simulator sheet cell: 10 columns and 7 rows fit in 4096 px; the trim is 5:7.
TTS_CELL = (409, 573)


def render_pages(pdf_bytes: bytes, size: tuple[int, int]) -> list:
    """Every page of a PDF as an RGB PIL image of exactly ``size`` pixels."""
    import pypdfium2 as pdfium  # lazy: loads pypdfium2 only when needed
    from PIL import Image  # lazy: loads PIL only when needed

    pdf = pdfium.PdfDocument(pdf_bytes)
    images = []
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            w_pt, h_pt = page.get_size()
            scale = min((size[0] - 0.01) / w_pt, (size[1] - 0.01) / h_pt)
            img = page.render(scale=scale).to_pil().convert("RGB")
            if img.size != size:
                img = img.resize(size, Image.LANCZOS)
            images.append(img)
            page.close()
    finally:
        pdf.close()
    return images


def mpc_crop(img):
    """MakePlayingCards' 822 × 1122 from the 825 × 1125 master: 1 px off the left and top, 2 off the right and bottom."""
    w, h = img.size
    return img.crop((1, 1, w - 2, h - 2))


def trim_thumb(img, bleed_px: float, size: tuple[int, int] = TTS_CELL):
    """The trimmed card (no bleed) resampled to a Tabletop Simulator cell."""
    from PIL import Image  # lazy: loads PIL only when needed

    w, h = img.size
    return img.resize(size, Image.LANCZOS, box=(bleed_px, bleed_px, w - bleed_px, h - bleed_px), reducing_gap=2.0)


def trim_crop(img, bleed_px: int):
    w, h = img.size
    return img.crop((bleed_px, bleed_px, w - bleed_px, h - bleed_px))


def png_bytes(img, dpi: int = DPI, level: int = 3) -> bytes:
    """Deterministic PNG: RGB, a pHYs chunk for the DPI, no time or text chunks."""
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "PNG", dpi=(dpi, dpi), compress_level=level)
    return buf.getvalue()


def jpeg_bytes(img, quality: int = 92) -> bytes:
    """A baseline JPEG without chroma subsampling (small card text stays crisp) and no EXIF or time."""
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=quality, subsampling=0, optimize=False, dpi=(DPI, DPI))
    return buf.getvalue()
