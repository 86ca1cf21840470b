"""Preflight: read every output back and check it against what its print profile asks for.

Images: pixel size, DPI and colour mode. PDFs (read with pypdf): page count and
size, fonts embedded and subset, metadata, and for print-on-demand that no RGB
colour or image slipped in. Card checks (text overflow, safe-zone crossings)
come from the drawing itself (``jobs.safe_zone_crossings``).
"""
from __future__ import annotations

import re
from pathlib import Path

PT_TOLERANCE = 0.05
_RGB_OPS = re.compile(rb"(?<![A-Za-z])(rg|RG)(?![A-Za-z])")


def check_png(path: Path, size: tuple[int, int] | None, dpi: int = 300, max_side: int | None = None,
              kind: str = "png") -> dict:
    """Format, size (exact, or at most ``max_side``), DPI and colour mode of a PNG (or JPEG) image."""
    from PIL import Image

    problems = []
    with Image.open(path) as im:
        w, h = im.size
        mode = im.mode
        got_dpi = im.info.get("dpi", (0, 0))
        if im.format.lower() != kind:
            problems.append(f"is a {im.format} file, expected {kind.upper()}")
    if size and (w, h) != tuple(size):
        problems.append(f"is {w}×{h} px, expected {size[0]}×{size[1]}")
    if max_side and max(w, h) > max_side:
        problems.append(f"is {w}×{h} px, more than {max_side} px a side")
    if dpi and round(got_dpi[0]) != dpi:
        problems.append(f"declares {got_dpi[0]:.0f} DPI, expected {dpi}")
    if mode != "RGB":
        problems.append(f"is {mode}, expected RGB")
    return {"path": path.as_posix(), "kind": kind, "size_px": [w, h], "dpi": round(got_dpi[0]),
            "colour_space": mode, "problems": problems}


def _fonts_of(resources, seen: dict, visited: set | None = None) -> None:
    """Every font a page's resources (and the forms it places, each visited once) use, and if embedded."""
    if resources is None:
        return
    visited = visited if visited is not None else set()
    resources = resources.get_object()
    fonts = resources.get("/Font")
    if fonts:
        for ref in fonts.get_object().values():
            font = ref.get_object()
            name = str(font.get("/BaseFont", "?"))
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"].get_object()[0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            seen[name] = embedded
    xobjects = resources.get("/XObject")
    if xobjects:
        for ref in xobjects.get_object().values():
            key = getattr(ref, "idnum", None)
            if key is not None and key in visited:
                continue
            visited.add(key)
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form":
                _fonts_of(obj.get("/Resources"), seen, visited)


def _rgb_use(page, seen: set) -> list[str]:
    """Where a page (and the card forms it places) uses RGB: colour operators, images or gradients."""
    found = []
    contents = page.get_contents()
    data = contents.get_data() if contents is not None else b""
    found += _rgb_in(data, page.get("/Resources"), seen)
    return found


def _rgb_in(data: bytes, resources, seen: set) -> list[str]:
    found = []
    if _RGB_OPS.search(data):
        found.append("RGB colour operators")
    res = resources.get_object() if resources is not None else {}
    for ref in (res.get("/XObject") or {}).values():
        key = getattr(ref, "idnum", id(ref))
        if key in seen:
            continue
        seen.add(key)
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Image" and obj.get("/ColorSpace") == "/DeviceRGB":
            found.append("an RGB image")
        elif obj.get("/Subtype") == "/Form":
            found += _rgb_in(obj.get_data(), obj.get("/Resources"), seen)
    for ref in (res.get("/Shading") or {}).values():
        if ref.get_object().get("/ColorSpace") == "/DeviceRGB":
            found.append("an RGB gradient")
    return found


def check_pdf(path: Path, page_size: tuple[float, float] | None, pages: int | None, cmyk: bool = False,
              lang: str | None = None) -> dict:
    """Pages, size, embedded subset fonts, metadata and (for CMYK profiles) colour spaces of a PDF."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    problems = []
    n = len(reader.pages)
    if pages is not None and n != pages:
        problems.append(f"has {n} pages, expected {pages}")
    fonts: dict[str, bool] = {}
    rgb: set[str] = set()
    sizes = set()
    seen_forms: set = set()
    font_forms: set = set()
    for page in reader.pages:
        box = page.mediabox
        sizes.add((round(float(box.width), 2), round(float(box.height), 2)))
        _fonts_of(page.get("/Resources"), fonts, font_forms)
        if cmyk:
            rgb.update(_rgb_use(page, seen_forms))
    if page_size:
        bad = [s for s in sizes if abs(s[0] - page_size[0]) > PT_TOLERANCE or abs(s[1] - page_size[1]) > PT_TOLERANCE]
        if bad:
            problems.append(f"has pages of {bad[0][0]}×{bad[0][1]} pt, expected {page_size[0]:.2f}×{page_size[1]:.2f}")
    for name, embedded in sorted(fonts.items()):
        if not embedded:
            problems.append(f"does not embed the font {name}")
        elif not re.match(r"^/[A-Z]{6}\+", name):
            problems.append(f"embeds the font {name} without subsetting it")
    if cmyk and rgb:
        problems.append("uses " + ", ".join(sorted(rgb)) + " in a CMYK profile")
    meta = reader.metadata or {}
    for key in ("/Title", "/Author"):
        if str(meta.get(key) or "") in ("", "untitled", "anonymous"):  # reportlab's placeholders
            problems.append(f"has no {key[1:].lower()} in its metadata")
    if lang and not str(reader.trailer["/Root"].get("/Lang", "")).lower().startswith(lang):
        problems.append(f"does not declare the language {lang}")
    return {"path": path.as_posix(), "kind": "pdf", "pages": n,
            "page_size_pt": [list(s) for s in sorted(sizes)], "fonts": sorted(fonts),
            "colour_space": "CMYK" if cmyk and not rgb else ("RGB" if not cmyk else "mixed"),
            "problems": problems}
