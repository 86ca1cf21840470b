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
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from .aids import Aid, draw_aid
from .draw import draw_back, draw_face
from .face import BACK_DESIGNS, CardFace
from .paint import Painter
from .pdf import PdfBuffer
from .template import Template
from .fit import fit_line

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}


@dataclass(frozen=True)
class Back:
    """A card back: its design (``BACK_DESIGNS``: the one deck back, the Rites' back) and language."""

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
    doc.use_form(form_name(item), tpl.full_w, tpl.full_h, lambda painter: draw_item(painter, tpl, item, root), p, item)


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
#: Print-and-play layouts: every card with a bleed of its own and gutters between (the default),
#: or the cards butted edge to edge, one cut between two cards (no bleed: a cut off by a millimetre
#: shows the neighbour's colour): 3 × 3 upright on A4, 2 × 4 on their side on Letter.
PNP_LAYOUTS: tuple[str, ...] = ("gutter", "butted")
SHEET_BLEED = 2.5 * mm  # each card's own bleed in the gutter layout: a 1 mm miscut still lands on it
PAPER_MARGIN = 5 * mm  # nothing is printed closer to the paper's edge (home printers cannot reach it)
MARK_GAP = 1.0 * mm  # between a crop mark and the printed card (its bleed)
BUTTED_MARK_GAP = 0.3 * mm  # between a crop mark and a card printed without bleed
MARK_LEN = 4.0 * mm  # a crop mark's length, when the margin has room
MIN_MARK = 0.5 * mm  # a mark the margin leaves less room for than this is not drawn (it never happens: the
#                     layouts leave every mark its full MARK_LEN inside the paper margin)
LABEL_SIZE = 6.0


@dataclass(frozen=True)
class SheetLayout:
    """Where the cards of one print-and-play page go: a grid of trims centred on the paper.

    ``rotated``: the cards lie on their side (their top towards the page's left on the
    front), so more of them fit a portrait page with gutters. ``bleed``: how much of each
    card's own bleed is printed around its cut (the gutter between two cards is twice it).
    """

    paper: str
    name: str
    cols: int
    rows: int
    rotated: bool
    bleed: float
    trim_w: float  # the card's trim as it lies on the page (swapped when rotated)
    trim_h: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def page(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    def origin(self) -> tuple[float, float]:
        """Bottom-left of the bottom-left card's trim."""
        pw, ph = self.page
        return ((pw - self.cols * (self.trim_w + 2 * self.bleed)) / 2 + self.bleed,
                (ph - self.rows * (self.trim_h + 2 * self.bleed)) / 2 + self.bleed)

    def slot(self, index: int, back: bool = False) -> tuple[float, float]:
        """Bottom-left of slot ``index``'s trim (row-major from the top-left).

        A back is the mirror image of its face across the page's vertical centre line:
        long-edge duplex flips the sheet about that line, so the back lands behind its face.
        """
        gx, gy = self.origin()
        row, col = divmod(index, self.cols)
        x = gx + col * (self.trim_w + 2 * self.bleed)
        y = gy + (self.rows - 1 - row) * (self.trim_h + 2 * self.bleed)
        if back:
            x = self.page[0] - x - self.trim_w
        return (x, y)

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """The x of every vertical cut line and the y of every horizontal one (the page is symmetric)."""
        gx, gy = self.origin()
        xs = sorted({gx + c * (self.trim_w + 2 * self.bleed) + d for c in range(self.cols) for d in (0, self.trim_w)})
        ys = sorted({gy + r * (self.trim_h + 2 * self.bleed) + d for r in range(self.rows) for d in (0, self.trim_h)})
        return xs, ys

    def printed_box(self) -> tuple[float, float, float, float]:
        """The cards with their printed bleed: x0, y0, x1, y1."""
        gx, gy = self.origin()
        return (gx - self.bleed, gy - self.bleed,
                gx + self.cols * (self.trim_w + 2 * self.bleed) - self.bleed,
                gy + self.rows * (self.trim_h + 2 * self.bleed) - self.bleed)


def _fits(tpl: Template, paper: str, rotated: bool, bleed: float, gap: float) -> tuple[int, int]:
    """How many columns and rows of cards fit, with their bleed and room for full-length crop marks
    (``gap`` from the cards, ``MARK_LEN`` long) inside the margin."""
    pw, ph = PAPERS[paper]
    w, h = (tpl.trim_h, tpl.trim_w) if rotated else (tpl.trim_w, tpl.trim_h)
    room = 2 * (PAPER_MARGIN + gap + MARK_LEN)
    return int((pw - room) // (w + 2 * bleed)), int((ph - room) // (h + 2 * bleed))


def sheet_layout(tpl: Template, paper: str, layout: str = "gutter") -> SheetLayout:
    """The grid for ``paper``: the orientation that fits the most cards with full-length crop marks.

    Gutter: A4 takes 8 cards on their side (2 × 4), Letter 6 (2 × 3): three upright cards with
    their bleed (3 × 68.5 mm) do not fit inside A4's 200 mm, nor three rows on Letter's 269 mm.
    Butted: A4 takes 9 upright (3 × 3), Letter 8 on their side (2 × 4): three upright rows
    (266.7 mm) left Letter 1.35 mm inside its margin, for crop marks 1 mm long.
    """
    if layout not in PNP_LAYOUTS:
        raise ValueError(f"unknown print-and-play layout {layout!r}")
    bleed, gap = (SHEET_BLEED, MARK_GAP) if layout == "gutter" else (0.0, BUTTED_MARK_GAP)
    grids = {rotated: _fits(tpl, paper, rotated, bleed, gap) for rotated in (False, True)}
    rotated = grids[True][0] * grids[True][1] > grids[False][0] * grids[False][1]  # upright when as many fit
    cols, rows = grids[rotated]
    w, h = (tpl.trim_h, tpl.trim_w) if rotated else (tpl.trim_w, tpl.trim_h)
    return SheetLayout(paper, layout, max(1, cols), max(1, rows), rotated, bleed, w, h)


def _place_on_sheet(doc: PdfBuffer, p: Painter, tpl: Template, item: Item, sheet: SheetLayout,
                    x: float, y: float, back: bool, root: Path | None) -> None:
    """Place a card with its trim's slot corner at (x, y), its own bleed printed around the cut.

    On a rotated sheet the face turns a quarter left and its back a quarter right: after the
    long-edge flip the back's top is on the same edge of the card as the face's.
    """
    c = p.canvas
    c.saveState()
    if sheet.rotated and back:
        c.translate(x, y + tpl.trim_w)
        c.rotate(-90)
    elif sheet.rotated:
        c.translate(x + tpl.trim_h, y)
        c.rotate(90)
    else:
        c.translate(x, y)
    b = sheet.bleed
    clip = c.beginPath()
    clip.rect(-b, -b, tpl.trim_w + 2 * b, tpl.trim_h + 2 * b)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(-tpl.bleed, -tpl.bleed)
    draw_once(doc, p, tpl, item, root)
    c.restoreState()


def _mark(c, x0: float, y0: float, x1: float, y1: float, page: tuple[float, float]) -> None:
    """A crop mark from (x0, y0) outwards to (x1, y1), cut short at the paper margin (or left out)."""
    pw, ph = page
    lo_x, hi_x, lo_y, hi_y = PAPER_MARGIN, pw - PAPER_MARGIN, PAPER_MARGIN, ph - PAPER_MARGIN
    x1, y1 = min(max(x1, lo_x), hi_x), min(max(y1, lo_y), hi_y)
    if not (lo_x <= x0 <= hi_x and lo_y <= y0 <= hi_y) or abs(x1 - x0) + abs(y1 - y0) < MIN_MARK:
        return
    c.line(x0, y0, x1, y1)


def _crop_marks(p: Painter, sheet: SheetLayout, dx: float = 0.0, dy: float = 0.0) -> None:
    """Every cut line extended into the margins, outside the printed bleed, never over a card; butted
    cards (no bleed) get their marks closer (``BUTTED_MARK_GAP``)."""
    c = p.canvas
    xs, ys = sheet.cut_lines()
    x0, y0, x1, y1 = sheet.printed_box()
    gap = MARK_GAP if sheet.bleed else BUTTED_MARK_GAP
    p.stroke("#000000", 0.3)
    for x in xs:
        _mark(c, x + dx, y0 + dy - gap, x + dx, y0 + dy - gap - MARK_LEN, sheet.page)
        _mark(c, x + dx, y1 + dy + gap, x + dx, y1 + dy + gap + MARK_LEN, sheet.page)
    for y in ys:
        _mark(c, x0 + dx - gap, y + dy, x0 + dx - gap - MARK_LEN, y + dy, sheet.page)
        _mark(c, x1 + dx + gap, y + dy, x1 + dx + gap + MARK_LEN, y + dy, sheet.page)


def _page_label(p: Painter, tpl: Template, sheet: SheetLayout, text: str) -> None:
    """A small line in the widest margin (bottom, or left read upwards), between two cut lines' marks."""
    pw, ph = sheet.page
    x0, y0, _, _ = sheet.printed_box()
    xs, ys = sheet.cut_lines()
    font = tpl.font("text")
    face = getFont(font).face
    mid = (face.ascent + face.descent) / 2000 * LABEL_SIZE  # baseline to the middle of the letters
    width = stringWidth(text, font, LABEL_SIZE)
    if y0 >= x0:  # under the cards, centred under the first column
        p.text((xs[0] + xs[1]) / 2, (PAPER_MARGIN + y0) / 2 - mid, text, font, LABEL_SIZE, "#555555",
               anchor="middle", label="page label")
        return
    c = p.canvas  # in the left margin, reading upwards, centred beside the bottom row
    c.saveState()
    c.translate((PAPER_MARGIN + x0) / 2 + mid, (ys[0] + ys[1]) / 2 - width / 2)
    c.rotate(90)
    p.text(0, 0, text, font, LABEL_SIZE, "#555555", label="page label")
    c.restoreState()


def _clip_to_printable(c, page: tuple[float, float]) -> None:
    """Nothing on the page (a back shifted by --back-offset included) reaches the paper margin."""
    clip = c.beginPath()
    clip.rect(PAPER_MARGIN, PAPER_MARGIN, page[0] - 2 * PAPER_MARGIN, page[1] - 2 * PAPER_MARGIN)
    c.clipPath(clip, stroke=0, fill=0)


def pnp_sheets(tpl: Template, fronts: list[CardFace], lang: str, paper: str, root: Path | None,
               back_offset: tuple[float, float] = (0.0, 0.0), title: str = "", layout: str = "gutter",
               forms=None) -> bytes:
    """Print-and-play: every physical card, each page of faces followed by its page of backs.

    The backs page is the faces page mirrored for long-edge duplex, shifted by ``back_offset``
    (mm, measured on the calibration page); the PDF asks to be printed that way at actual size.
    """
    sheet = sheet_layout(tpl, paper, layout)
    labels = tpl.labels(lang)
    doc = PdfBuffer(sheet.page, title or f"Rift Commanders — print and play ({lang}, {paper}, {layout})", lang,
                    forms=forms)
    doc.ask_actual_size_duplex()
    p = Painter(doc.canvas)
    c = doc.canvas
    cards = [f for f in fronts for _ in range(f.copies)]
    pages = [cards[i:i + sheet.per_page] for i in range(0, len(cards), sheet.per_page)]
    dx, dy = back_offset[0] * mm, back_offset[1] * mm
    front, verso = labels["sides"]
    for n, page in enumerate(pages, 1):
        for back, side, (ox, oy) in ((False, front, (0.0, 0.0)), (True, verso, (dx, dy))):
            c.saveState()
            _clip_to_printable(c, sheet.page)
            for i, face in enumerate(page):
                x, y = sheet.slot(i, back)
                _place_on_sheet(doc, p, tpl, back_of(face) if back else face, sheet, x + ox, y + oy, back, root)
            _crop_marks(p, sheet, ox, oy)
            c.restoreState()
            _page_label(p, tpl, sheet, f"{labels['game']} · {lang.upper()} · {n}/{len(pages)} · {side} · "
                                       f"{sheet.per_page} {labels['per_page']}")
            c.showPage()
    return doc.finish()


# -- the duplex calibration page ---------------------------------------------------------
TARGET_INSET = 16 * mm  # corner targets' centres, from both edges
RULER_X, RULER_Y = 150, 200  # ruler lengths, mm


def _target(p: Painter, cx: float, cy: float, r: float, arm: float, ticks: int, ink: str) -> None:
    """A ring and cross with millimetre ticks along both arms, to read an offset on."""
    c = p.canvas
    p.stroke(ink, 0.4)
    c.circle(cx, cy, r, stroke=1, fill=0)
    if r > 6 * mm:
        c.circle(cx, cy, r / 2, stroke=1, fill=0)
    c.line(cx - arm, cy, cx + arm, cy)
    c.line(cx, cy - arm, cx, cy + arm)
    p.stroke(ink, 0.25)
    for k in range(-ticks, ticks + 1):
        t = 1.8 * mm if k % 5 == 0 else 0.9 * mm
        c.line(cx + k * mm, cy - t, cx + k * mm, cy + t)
        c.line(cx - t, cy + k * mm, cx + t, cy + k * mm)


def _ruler(p: Painter, tpl: Template, x: float, y: float, length_mm: int, vertical: bool, ink: str) -> None:
    """A ruler with millimetre ticks and a number every centimetre, to check the print is not scaled."""
    c = p.canvas
    c.saveState()
    c.translate(x, y)
    if vertical:
        c.rotate(90)
    p.stroke(ink, 0.4)
    c.line(0, 0, length_mm * mm, 0)
    p.stroke(ink, 0.25)
    for k in range(length_mm + 1):
        t = 3 * mm if k % 10 == 0 else (2 * mm if k % 5 == 0 else 1 * mm)
        c.line(k * mm, 0, k * mm, t)
    for k in range(0, length_mm + 1, 10):
        p.text(k * mm, 3.6 * mm, str(k), tpl.font("text"), 6.0, ink, anchor="middle", label="ruler")
    p.text(length_mm * mm / 2, -2.6 * mm, f"{length_mm} mm", tpl.font("text"), 6.5, ink, anchor="middle", label="ruler")
    c.restoreState()


HEADING, LINE = 16.0, 11.5  # the calibration page's heading size and help line pitch, points


def calibration_zones(paper: str, lines: int) -> dict[str, tuple[float, float, float, float]]:
    """Where the calibration page puts things (x0, y0, x1, y1 in points): the text zone, sized for
    a heading and ``lines`` of help between the top corner targets, and the grid's box below it."""
    pw, ph = PAPERS[paper]
    top = ph - PAPER_MARGIN - 4 * mm
    text = (TARGET_INSET + 12 * mm, top - HEADING - 16 - lines * LINE - 4, pw - TARGET_INSET - 12 * mm, top)
    edge = PAPER_MARGIN + 20 * mm
    return {"text": text, "grid": (edge, edge, pw - edge, text[1] - 3 * mm)}


def _grid(p: Painter, box, centre: tuple[float, float], ink: str) -> None:
    """Faint 10 mm squares through ``centre`` filling ``box``: the same lines front and back (mirrored)."""
    c = p.canvas
    x0, y0, x1, y1 = box
    p.stroke(ink, 0.2)
    xs = [x for k in range(-40, 41) if x0 <= (x := centre[0] + k * 10 * mm) <= x1]
    ys = [y for k in range(-40, 41) if y0 <= (y := centre[1] + k * 10 * mm) <= y1]
    for x in xs:
        c.line(x, ys[0], x, ys[-1])
    for y in ys:
        c.line(xs[0], y, xs[-1], y)


def calibration_sheet(tpl: Template, paper: str, lang: str, back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """Two pages to print duplex: targets on the same spots front and back, rulers, and advice.

    Targets sit in the four corners and the centre (a shift, a skew or a scaled back each
    show), rulers on both axes check that nothing was scaled, and the advice (in the page's
    language) says what to do with or without forge. The back is drawn shifted by
    ``back_offset``, to check an offset before printing the cards with it.
    """
    labels = tpl.labels(lang)
    doc = PdfBuffer(PAPERS[paper], f"Rift Commanders — {labels['calibration']} ({paper})", lang)
    doc.ask_actual_size_duplex()
    p = Painter(doc.canvas)
    c = doc.canvas
    pw, ph = PAPERS[paper]
    zones = calibration_zones(paper, len(labels["calibration_help"]))
    tx0, ty0, tx1, ty1 = zones["text"]
    centres = [(TARGET_INSET, TARGET_INSET), (pw - TARGET_INSET, TARGET_INSET), (TARGET_INSET, ph - TARGET_INSET),
               (pw - TARGET_INSET, ph - TARGET_INSET)]
    for back, side in ((False, labels["sides"][0]), (True, labels["sides"][1])):
        dx, dy = (back_offset[0] * mm, back_offset[1] * mm) if back else (0.0, 0.0)
        ink, faint = ("#c0392b", "#e6a29a") if back else ("#000000", "#9a9a9a")
        c.saveState()
        _clip_to_printable(c, (pw, ph))
        c.translate(dx, dy)
        _grid(p, zones["grid"], (pw / 2, ph / 2), faint)
        for x, y in centres:  # symmetric about the centre line: the mirror of each corner is a corner
            _target(p, pw - x if back else x, y, 5 * mm, 8 * mm, 5, ink)
        _target(p, pw / 2, ph / 2, 10 * mm, 30 * mm, 10, ink)
        if not back:  # rulers on the front only: they measure the printer's scale
            _ruler(p, tpl, (pw - RULER_X * mm) / 2, PAPER_MARGIN + 12 * mm, RULER_X, False, ink)
            _ruler(p, tpl, PAPER_MARGIN + 12 * mm, (ph - RULER_Y * mm) / 2, RULER_Y, True, ink)
        shift = f" ({back_offset[0]:+g}, {back_offset[1]:+g} mm)" if back and back_offset != (0.0, 0.0) else ""
        heading = f"{labels['calibration']} — {side}{shift}"
        size, _ = fit_line(heading, tpl.font("title"), tx1 - tx0, HEADING, 9)
        top = ty1 - size
        p.text((tx0 + tx1) / 2, top, heading, tpl.font("title"), size, ink, anchor="middle", label="calibration")
        y = top - 16
        for line in labels["calibration_help"]:
            fs, _ = fit_line(line, tpl.font("text"), tx1 - tx0, 8.5, 6)
            p.text(tx0, y, line, tpl.font("text"), fs, ink, label="help")
            y -= LINE
        c.restoreState()
        c.showPage()
    return doc.finish()


# -- print on demand ------------------------------------------------------------------
def pod_document(tpl: Template, fronts: list[CardFace], lang: str, root: Path | None, forms=None) -> bytes:
    """One card per page at full bleed, CMYK, each physical card's face followed by its back."""
    doc = PdfBuffer((tpl.full_w, tpl.full_h), f"Rift Commanders — print on demand ({lang})", lang,
                    cmyk=True, trim=tpl.trim_rect(), forms=forms)
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
                flagged: dict[str, list[str]] | None = None, forms=None) -> bytes:
    """Every design once, reduced, with its id under it; cards with problems get a red frame."""
    labels = tpl.labels(lang)
    doc = PdfBuffer(A4, f"Rift Commanders — {labels['proof']} ({lang})", lang, forms=forms)
    p = Painter(doc.canvas)
    c = doc.canvas
    pw, ph = A4
    items: list[Item] = list(fronts) + [Back(k, lang) for k in BACK_DESIGNS]
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
