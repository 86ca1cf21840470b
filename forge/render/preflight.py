"""Preflight: read every output back and check it against what its print profile asks for.

Images: pixel size, DPI and colour mode. PDFs (read with pypdf): page count and
size, fonts embedded and subset, metadata, and the figures a print shop measures
(``measure_pdf``: colour spaces, total ink, text sizes, black text, boxes, PDF/X
identification, transparency), held to each shop's rules (``SHOP_RULES``). Card
checks (text overflow, safe-zone crossings) come from the drawing itself
(``jobs.safe_zone_crossings``).
"""
from __future__ import annotations

import re
from pathlib import Path
from .colour import press_lab

PT_TOLERANCE = 0.05


def check_png(path: Path, size: tuple[int, int] | None, dpi: int = 300, max_side: int | None = None,
              kind: str = "png") -> dict:
    """Format, size (exact, or at most ``max_side``), DPI and colour mode of a PNG (or JPEG) image."""
    from PIL import Image  # lazy: loads PIL only when needed

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



def check_pdf(path: Path, page_size: tuple[float, float] | None, pages: int | None, cmyk: bool = False,
              lang: str | None = None, memo=None) -> dict:
    """Pages, size, embedded subset fonts, metadata and the print figures of a PDF (``measure_pdf``);
    a CMYK one (print-on-demand) is also held to the press's rules (``print_problems``).
    ``memo``: a ``pdfscan.ScanMemo`` of the forms scanned in earlier runs (saved here)."""
    from pypdf import PdfReader  # lazy: loads pypdf only when needed

    reader = PdfReader(str(path))
    problems = []
    n = len(reader.pages)
    if pages is not None and n != pages:
        problems.append(f"has {n} pages, expected {pages}")
    figures = measure_pdf(reader, memo)
    if memo is not None:
        memo.save()
    fonts: dict[str, bool] = figures["fonts"]
    sizes = set()
    for page in reader.pages:
        box = page.mediabox
        sizes.add((round(float(box.width), 2), round(float(box.height), 2)))
    if page_size:
        bad = [s for s in sizes if abs(s[0] - page_size[0]) > PT_TOLERANCE or abs(s[1] - page_size[1]) > PT_TOLERANCE]
        if bad:
            problems.append(f"has pages of {bad[0][0]}×{bad[0][1]} pt, expected {page_size[0]:.2f}×{page_size[1]:.2f}")
    for name, embedded in sorted(fonts.items()):
        if not embedded:
            problems.append(f"does not embed the font {name}")
        elif not re.match(r"^/[A-Z]{6}\+", name):
            problems.append(f"embeds the font {name} without subsetting it")
    rgb = "DeviceRGB" in figures["colour_spaces"]
    if cmyk:
        problems += print_problems(figures, SHOP_RULES["pod"])
    meta = reader.metadata or {}
    for key in ("/Title", "/Author"):
        if str(meta.get(key) or "") in ("", "untitled", "anonymous"):  # reportlab's placeholders
            problems.append(f"has no {key[1:].lower()} in its metadata")
    if lang and not str(reader.trailer["/Root"].get("/Lang", "")).lower().startswith(lang):
        problems.append(f"does not declare the language {lang}")
    return {"path": path.as_posix(), "kind": "pdf", "pages": n,
            "page_size_pt": [list(s) for s in sorted(sizes)], "fonts": sorted(fonts),
            "colour_space": "CMYK" if cmyk and not rgb else ("RGB" if not cmyk else "mixed"),
            "figures": {k: v for k, v in figures.items() if k != "fonts"},
            "problems": problems}


# -- print figures and print shops' rules ---------------------------------------------------------
#: What each print shop (or way of printing) asks of the files, checked by ``shop_verdict``.
#: pod: a press's PDF/X-4 intake (ISO 12647-2 sheet-fed offset); the PNG shops: their templates;
#: text size is advice only: presses print 4 pt type, but under 6 pt it is hard to read.
SHOP_RULES: dict[str, dict] = {
    "pod": {"shop": "print on demand (PDF/X-4 press, FOGRA39)", "colour_spaces": ["DeviceCMYK"],
            "pdfx": "PDF/X-4", "max_tac_percent": 300.0, "min_bleed_mm": 3.0, "fonts_embedded": True,
            "black_text": "K only under 12 pt", "transparency": "live, in DeviceCMYK page groups",
            "advised_min_text_pt": 6.0},
    "pnp": {"shop": "home printer (print and play)", "fonts_embedded": True, "advised_min_text_pt": 6.0},
    "proof": {"shop": "screen proof", "fonts_embedded": True},
    "gamecrafter": {"shop": "The Game Crafter", "format": "PNG", "size_px": [825, 1125], "dpi": 300,
                    "colour_space": "RGB", "bleed": "1/8 in (in the pixel size)"},
    "mpc": {"shop": "MakePlayingCards", "format": "PNG", "size_px": [822, 1122], "dpi": 300,
            "colour_space": "RGB", "bleed": "36 px (3 mm) each side, in the pixel size"},
    "tts": {"shop": "Tabletop Simulator", "format": "JPEG/PNG", "max_side_px": 4096},
}
RICH_BLACK_UNDER_PT = 12.0
MM = 25.4 / 72


def _is_rich_black(colour) -> bool:
    """A CMYK colour that prints as black but with more than one ink (L* ≤ 25, neutral, C+M+Y > 1 %)."""
    if colour.space not in ("DeviceCMYK", "ICCBased(4)") or len(colour.values) != 4:
        return False
    c, m, y, k = colour.values
    if c + m + y <= 0.01:
        return False
    lightness, a, b = press_lab(tuple(colour.values))
    return lightness <= 25 and (a * a + b * b) ** 0.5 <= 10


def _boxes(reader) -> dict:
    """Trim and bleed boxes: whether every page has both, and the smallest bleed past the trim (mm)."""
    missing, bleeds = [], []
    for i, page in enumerate(reader.pages, 1):
        if "/TrimBox" not in page or "/BleedBox" not in page:
            missing.append(i)
            continue
        t, b = page.trimbox, page.bleedbox
        bleeds.append(min(float(t.left) - float(b.left), float(t.bottom) - float(b.bottom),
                          float(b.right) - float(t.right), float(b.top) - float(t.top)) * MM)
    return {"pages_without_trim_or_bleed_box": missing,
            "min_bleed_mm": round(min(bleeds), 2) if bleeds else None}


def _pdfx(reader) -> dict:
    """PDF/X identification: version (Info), trapping, document ID, output intent and its ICC profile."""
    info = reader.metadata or {}
    root = reader.trailer["/Root"]
    found = {"version": str(info.get("/GTS_PDFXVersion", "")) or None,
             "trapped": str(info.get("/Trapped", "")).lstrip("/") or None,
             "document_id": "/ID" in reader.trailer, "xmp": "/Metadata" in root,
             "output_intent": None, "icc": None}
    for intent in root.get("/OutputIntents") or []:
        intent = intent.get_object()
        if intent.get("/S") != "/GTS_PDFX":
            continue
        found["output_intent"] = str(intent.get("/OutputConditionIdentifier", ""))
        profile = intent.get("/DestOutputProfile")
        if profile is not None:
            data = profile.get_object().get_data()
            found["icc"] = {"colour_space": data[16:20].decode("latin-1").strip(),
                            "class": data[12:16].decode("latin-1"), "n": int(profile.get_object().get("/N", 0)),
                            "bytes": len(data)}
    return found


def measure_pdf(reader, memo=None) -> dict:
    """The print figures of a PDF (a pypdf reader): colour spaces, ink, text, fonts, boxes, PDF/X, transparency."""
    from .pdfscan import scan  # lazy: loads forge.core only when needed

    s = scan(reader, memo)
    fonts = s.fonts
    grouped = []
    for i, page in enumerate(reader.pages, 1):
        group = page.get("/Group")
        if group is not None and group.get_object().get("/S") == "/Transparency":
            grouped.append((i, str(group.get_object().get("/CS", ""))))
    cmyk_space = {"DeviceCMYK", "ICCBased(4)"}
    small = [t for t in s.texts if t.size < RICH_BLACK_UNDER_PT and _is_rich_black(t.colour)]
    min_text = s.min_text
    return {
        "colour_spaces": sorted(s.colour_spaces),
        "tac_max_percent": round(s.max_ink * 100, 1) if s.colour_spaces & cmyk_space else None,
        "tac_where": s.max_ink_where or None,
        "min_text_pt": round(min_text, 2) if min_text is not None else None,
        "rich_black_text_under_12pt": sorted({f"page {t.page}: {t.size:.1f} pt" for t in small})[:10],
        "black_text_k_only": not small,
        "images": [{k: v for k, v in im.items() if k != "max_ink"} | (
            {"tac_max_percent": round(im["max_ink"] * 100, 1)} if "max_ink" in im else {}) for im in s.images],
        "fonts": {name: embedded for name, embedded in sorted(fonts.items())},
        "fonts_embedded": f"{sum(fonts.values())}/{len(fonts)}",
        "transparent_pages": len(s.transparent_pages),
        "transparent_pages_without_cmyk_group": [p for p in s.transparent_pages
                                                 if (p, "/DeviceCMYK") not in grouped][:10],
        **_boxes(reader),
        "pdfx": _pdfx(reader),
    }


def print_problems(figures: dict, rules: dict) -> list[str]:
    """What in a PDF's figures breaks a print shop's ``rules`` (see SHOP_RULES), as preflight problems.
    (Fonts are checked for every PDF by ``check_pdf``.)"""
    from .pdfscan import REGISTRATION  # lazy: loads forge.core only when needed

    problems = []
    allowed = rules.get("colour_spaces")
    if allowed:
        # a Pattern is no ink of its own: the colours its gradient or cell paints are scanned as well;
        # registration (Separation All) is the colour of crop marks, on every plate by design
        other = [s for s in figures["colour_spaces"] if s not in allowed and s not in ("Pattern", REGISTRATION)]
        if other:
            problems.append(f"uses the colour space {', '.join(other)}; the press takes {', '.join(allowed)} only")
    limit = rules.get("max_tac_percent")
    tac = figures["tac_max_percent"]
    if limit and tac is not None and tac > limit + 0.05:
        problems.append(f"puts {tac:.1f} % ink on paper ({figures['tac_where']}), over the press's {limit:.0f} %")
    if "black_text" in rules and not figures["black_text_k_only"]:
        problems.append("prints small black text with several inks (rich black), at "
                        + "; ".join(figures["rich_black_text_under_12pt"]))
    if "min_bleed_mm" in rules:
        if figures["pages_without_trim_or_bleed_box"]:
            problems.append(f"has pages without a trim or bleed box: {figures['pages_without_trim_or_bleed_box'][:5]}")
        bleed = figures["min_bleed_mm"]
        if bleed is not None and bleed < rules["min_bleed_mm"] - 0.01:
            problems.append(f"has {bleed:.2f} mm of bleed, under the press's {rules['min_bleed_mm']:.1f} mm")
    if rules.get("pdfx"):
        x = figures["pdfx"]
        if x["version"] != rules["pdfx"]:
            problems.append(f"is not identified as {rules['pdfx']} (GTS_PDFXVersion {x['version']!r})")
        if x["trapped"] not in ("True", "False") or not x["document_id"] or not x["xmp"]:
            problems.append("lacks a PDF/X key: /Trapped True or False, a document ID and XMP metadata")
        icc = x["icc"] or {}
        if not x["output_intent"] or icc.get("colour_space") != "CMYK" or icc.get("n") != 4:
            problems.append("has no PDF/X output intent with a CMYK ICC profile")
        if figures["transparent_pages_without_cmyk_group"]:
            problems.append("uses transparency without a DeviceCMYK page group on pages "
                            f"{figures['transparent_pages_without_cmyk_group']}")
    return problems


def print_advice(figures: dict, rules: dict) -> list[str]:
    """What a shop advises against without refusing the file (text size)."""
    advised = rules.get("advised_min_text_pt")
    size = figures.get("min_text_pt")
    if advised and size is not None and size < advised:
        return [f"has text of {size:.1f} pt, under the {advised:.0f} pt that reads comfortably"]
    return []


def shop_verdict(profile: str, files: list[dict], card_problems: list[dict]) -> dict:
    """Pass or fail of one profile's files against its print shop's rules, with the reasons."""
    failed = [f"{f['path']} {p}" for f in files for p in f["problems"]]
    failed += [f"{c['lang']}/{c['id']}: {m} crosses the safe zone" for c in card_problems for m in c["safe_zone"]]
    failed += [f"{c['lang']}/{c['id']}: {o}" for c in card_problems for o in c["overflow"]]
    failed += [f"{c['lang']}/{c['id']}: {r}" for c in card_problems for r in c.get("reversed", [])]
    advice = [f"{f['path']} {a}" for f in files for a in print_advice(f.get("figures") or {}, SHOP_RULES[profile])]
    return {"shop": SHOP_RULES[profile]["shop"], "rules": SHOP_RULES[profile], "pass": not failed,
            "failed": failed, "advice": advice}


def figures_line(check: dict) -> str | None:
    """One line of a PDF's print figures, as ``forge render cards`` prints them."""
    f = check.get("figures")
    if not f:
        return None
    parts = [", ".join(f["colour_spaces"]) or "no colour"]
    if f["tac_max_percent"] is not None:
        parts.append(f"ink ≤ {f['tac_max_percent']:.0f} %")
    if f["min_text_pt"] is not None:
        parts.append(f"text ≥ {f['min_text_pt']:.1f} pt" + ("" if f["black_text_k_only"] else ", rich black text"))
    parts.append(f"fonts {f['fonts_embedded']} embedded")
    if f["min_bleed_mm"] is not None:
        parts.append(f"bleed {f['min_bleed_mm']:.1f} mm")
    x = f["pdfx"]
    if x["version"]:
        parts.append(f"{x['version']} ({x['output_intent'] or 'no output intent'})")
    if f["transparent_pages"]:
        parts.append(f"transparency on {f['transparent_pages']} pages")
    return f"{check['path']}: " + "; ".join(parts)
