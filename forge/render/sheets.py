"""PDF documents made of cards: print-and-play sheets, the duplex calibration page,
the print-on-demand file and the proof sheet.

Cards are drawn as vectors (selectable text, subset fonts) straight from their
faces; every document is built in memory and returned as bytes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

from .aids import Aid, draw_aid
from .draw import draw_back, draw_face
from .face import CardFace
from .paint import Painter
from .pdf import PdfBuffer
from .template import Template

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
COLS, ROWS = 3, 3
MARK_GAP = 2.5  # points between a crop mark and the card edge
MARK_LEN = 12.0


@dataclass(frozen=True)
class Back:
    """A card back: which deck it belongs to, in which language (its label is printed)."""

    kind: str
    lang: str

    @property
    def id(self) -> str:
        return f"back-{self.kind}"


Item = CardFace | Back | Aid


def draw_item(p: Painter, tpl: Template, item: Item, root: Path | None) -> None:
    if isinstance(item, Back):
        draw_back(p, tpl, item.kind, item.lang)
    elif isinstance(item, Aid):
        draw_aid(p, tpl, item)
    else:
        draw_face(p, tpl, item, root)


def back_of(item: Item) -> Item:
    """What is printed on the other side of a card: its deck's back, or a player aid's other side."""
    return item.reverse() if isinstance(item, Aid) else Back(item.back, item.lang)


def form_name(item: Item) -> str:
    return f"{item.id}.{item.lang}"


def draw_once(doc: PdfBuffer, p: Painter, tpl: Template, item: Item, root: Path | None) -> None:
    """Draw a card at the origin as a form: drawn once per document however often it is placed."""
    doc.use_form(form_name(item), tpl.full_w, tpl.full_h, lambda: draw_item(p, tpl, item, root))


def _place_trimmed(doc: PdfBuffer, p: Painter, tpl: Template, item: Item, x: float, y: float,
                   root: Path | None, scale: float = 1.0) -> None:
    """Place a card so its trim box's bottom-left lands on (x, y), clipped to the trim."""
    c = p.canvas
    c.saveState()
    c.translate(x, y)
    c.scale(scale, scale)
    clip = c.beginPath()
    clip.rect(0, 0, tpl.trim_w, tpl.trim_h)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(-tpl.bleed, -tpl.bleed)
    draw_once(doc, p, tpl, item, root)
    c.restoreState()


# -- print and play ----------------------------------------------------------------
def grid_origin(tpl: Template, paper: str) -> tuple[float, float]:
    """Bottom-left of the 3×3 grid of trimmed cards, centred on the page."""
    pw, ph = PAPERS[paper]
    return ((pw - COLS * tpl.trim_w) / 2, (ph - ROWS * tpl.trim_h) / 2)


def slot_origin(tpl: Template, paper: str, index: int, back: bool) -> tuple[float, float]:
    """Where slot ``index`` (row-major from the top-left) goes; backs mirror the columns (long-edge duplex)."""
    gx, gy = grid_origin(tpl, paper)
    row, col = divmod(index, COLS)
    if back:
        col = COLS - 1 - col
    return (gx + col * tpl.trim_w, gy + (ROWS - 1 - row) * tpl.trim_h)


def _crop_marks(p: Painter, tpl: Template, paper: str, dx: float = 0.0, dy: float = 0.0) -> None:
    """Cut lines extended into the margins, never over a card."""
    c = p.canvas
    pw, ph = PAPERS[paper]
    gx, gy = grid_origin(tpl, paper)
    gx, gy = gx + dx, gy + dy
    gw, gh = COLS * tpl.trim_w, ROWS * tpl.trim_h
    p.stroke("#000000", 0.3)
    for i in range(COLS + 1):
        x = gx + i * tpl.trim_w
        length = min(MARK_LEN, gy - MARK_GAP - 1)
        c.line(x, gy - MARK_GAP, x, gy - MARK_GAP - length)
        c.line(x, gy + gh + MARK_GAP, x, gy + gh + MARK_GAP + length)
    for j in range(ROWS + 1):
        y = gy + j * tpl.trim_h
        length = min(MARK_LEN, gx - MARK_GAP - 1)
        c.line(gx - MARK_GAP, y, gx - MARK_GAP - length, y)
        c.line(gx + gw + MARK_GAP, y, gx + gw + MARK_GAP + length, y)


def _page_label(p: Painter, tpl: Template, paper: str, text: str) -> None:
    gx, gy = grid_origin(tpl, paper)
    pw, _ = PAPERS[paper]
    size = 6.0
    y = max(2.0, gy / 2 - size / 2) if gy > 14 else None
    if y is None:  # Letter: no room above or below the grid, write in the side margin
        c = p.canvas
        c.saveState()
        c.translate(gx / 2 + size / 3, 40)
        c.rotate(90)
        p.text(0, 0, text, tpl.font("text"), size, "#555555", label="page label")
        c.restoreState()
        return
    p.text(pw / 2, y, text, tpl.font("text"), size, "#555555", anchor="middle", label="page label")


def pnp_sheets(tpl: Template, fronts: list[CardFace], lang: str, paper: str, root: Path | None,
               back_offset: tuple[float, float] = (0.0, 0.0), title: str = "") -> bytes:
    """Print-and-play: every physical card, 9 per page, each front page followed by its backs page."""
    doc = PdfBuffer(PAPERS[paper], title or f"Rift Commanders — print and play ({lang}, {paper})", lang)
    p = Painter(doc.canvas)
    cards = [f for f in fronts for _ in range(f.copies)]
    pages = [cards[i:i + COLS * ROWS] for i in range(0, len(cards), COLS * ROWS)]
    dx, dy = back_offset[0] * mm, back_offset[1] * mm
    for n, page in enumerate(pages, 1):
        for i, face in enumerate(page):
            x, y = slot_origin(tpl, paper, i, back=False)
            _place_trimmed(doc, p, tpl, face, x, y, root)
        _crop_marks(p, tpl, paper)
        _page_label(p, tpl, paper, f"Rift Commanders · {lang.upper()} · {n}/{len(pages)} · recto")
        doc.canvas.showPage()
        for i, face in enumerate(page):
            x, y = slot_origin(tpl, paper, i, back=True)
            _place_trimmed(doc, p, tpl, back_of(face), x + dx, y + dy, root)
        _crop_marks(p, tpl, paper, dx, dy)
        _page_label(p, tpl, paper, f"Rift Commanders · {lang.upper()} · {n}/{len(pages)} · verso")
        doc.canvas.showPage()
    return doc.finish()


def calibration_sheet(tpl: Template, paper: str, lang: str, back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """Two pages to print duplex: crosses on the same spots front and back, a ruler, and instructions."""
    labels = tpl.labels(lang)
    doc = PdfBuffer(PAPERS[paper], f"Rift Commanders — {labels['calibration']} ({paper})", lang)
    p = Painter(doc.canvas)
    c = doc.canvas
    pw, ph = PAPERS[paper]
    for side in ("front", "back"):
        dx, dy = (back_offset[0] * mm, back_offset[1] * mm) if side == "back" else (0.0, 0.0)
        gx, gy = grid_origin(tpl, paper)
        for i in range(COLS * ROWS):
            x, y = slot_origin(tpl, paper, i, back=side == "back")
            p.stroke("#9a9a9a", 0.3)
            c.rect(x + dx, y + dy, tpl.trim_w, tpl.trim_h, stroke=1, fill=0)
        _crop_marks(p, tpl, paper, dx, dy)
        cx, cy = pw / 2 + dx, ph / 2 + dy
        p.stroke("#000000" if side == "front" else "#c0392b", 0.4)
        for r in (5 * mm, 10 * mm):
            c.circle(cx, cy, r, stroke=1, fill=0)
        c.line(cx - 30 * mm, cy, cx + 30 * mm, cy)
        c.line(cx, cy - 30 * mm, cx, cy + 30 * mm)
        for k in range(-10, 11):  # millimetre ticks to read the offset
            t = 2.5 * mm if k % 5 == 0 else 1.2 * mm
            c.line(cx + k * mm, cy - t, cx + k * mm, cy + t)
            c.line(cx - t, cy + k * mm, cx + t, cy + k * mm)
        ink = "#000000" if side == "front" else "#c0392b"
        top = gy + ROWS * tpl.trim_h - 20 * mm + dy
        p.text(pw / 2 + dx, top, f"{labels['calibration']} — {'recto' if side == 'front' else 'verso'}",
               tpl.font("title"), 16, ink, anchor="middle", label="calibration")
        for k, line in enumerate(labels.get("calibration_help", [])):
            p.text(pw / 2 + dx, top - 16 - k * 11, line, tpl.font("text"), 8.5, ink, anchor="middle", label="help")
        # a 100 mm ruler to check the printer did not scale the page
        ry = gy + 30 * mm + dy
        rx = pw / 2 - 50 * mm + dx
        p.stroke(ink, 0.5)
        c.line(rx, ry, rx + 100 * mm, ry)
        for k in range(0, 101, 5):
            t = 3 * mm if k % 10 == 0 else 1.5 * mm
            c.line(rx + k * mm, ry, rx + k * mm, ry + t)
        p.text(pw / 2 + dx, ry - 10, "100 mm", tpl.font("text"), 7, ink, anchor="middle", label="ruler")
        c.showPage()
    return doc.finish()


# -- print on demand ------------------------------------------------------------------
def pod_document(tpl: Template, fronts: list[CardFace], lang: str, root: Path | None) -> bytes:
    """One card per page at full bleed, CMYK, each physical card's face followed by its back."""
    doc = PdfBuffer((tpl.full_w, tpl.full_h), f"Rift Commanders — print on demand ({lang})", lang,
                    cmyk=True, trim=tpl.trim_rect())
    p = Painter(doc.canvas, cmyk=True)
    for face in fronts:
        for _ in range(face.copies):
            draw_once(doc, p, tpl, face, root)
            doc.canvas.showPage()
            draw_once(doc, p, tpl, back_of(face), root)
            doc.canvas.showPage()
    return doc.finish()


# -- proof sheet ------------------------------------------------------------------------
PROOF_SCALE = 0.52
PROOF_COLS, PROOF_ROWS = 5, 5


def proof_sheet(tpl: Template, fronts: list[CardFace], lang: str, root: Path | None,
                flagged: dict[str, list[str]] | None = None) -> bytes:
    """Every design once, reduced, with its id under it; cards with problems get a red frame."""
    labels = tpl.labels(lang)
    doc = PdfBuffer(A4, f"Rift Commanders — {labels['proof']} ({lang})", lang)
    p = Painter(doc.canvas)
    c = doc.canvas
    pw, ph = A4
    items: list[Item] = list(fronts) + [Back(k, lang) for k in ("recruit", "starter", "rite")]
    cw, ch = tpl.trim_w * PROOF_SCALE, tpl.trim_h * PROOF_SCALE
    gap_x, cell_h = 8.0, ch + 16.0
    x0 = (pw - PROOF_COLS * cw - (PROOF_COLS - 1) * gap_x) / 2
    y_top = ph - 48
    per_page = PROOF_COLS * PROOF_ROWS
    pages = [items[i:i + per_page] for i in range(0, len(items), per_page)]
    flagged = flagged or {}
    for n, page in enumerate(pages, 1):
        p.text(x0, ph - 30, f"Rift Commanders — {labels['proof']} — {lang.upper()}", tpl.font("title"), 13,
               "#1f1b16", label="header")
        p.text(pw - x0, ph - 30, f"{n}/{len(pages)}", tpl.font("text"), 8, "#555555", anchor="end", label="header")
        for i, item in enumerate(page):
            row, col = divmod(i, PROOF_COLS)
            x = x0 + col * (cw + gap_x)
            y = y_top - (row + 1) * cell_h + 14
            _place_trimmed(doc, p, tpl, item, x, y, root, scale=PROOF_SCALE)
            problems = flagged.get(item.id, [])
            p.stroke("#c0392b" if problems else "#b0a890", 1.2 if problems else 0.3)
            c.roundRect(x, y, cw, ch, 3, stroke=1, fill=0)
            label = item.id + (f"  ×{item.copies}" if isinstance(item, CardFace) else "")
            p.text(x + cw / 2, y - 8, label, tpl.font("footer_id"), 6.2, "#c0392b" if problems else "#333333",
                   anchor="middle", label="proof id")
        c.showPage()
    return doc.finish()
