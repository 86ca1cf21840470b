"""The aids printed as documents of their own: the player mat and the token sheet (print-and-play, on
A4 or Letter), and the Tabletop Simulator images of the mat and of each piece.

Everything on paper stays at least ``PAPER_MARGIN`` inside the paper edge (home printers clip
about 4 mm). The words, numbers and pieces are the card-size aids' own (``aids``, ``counters``).
"""
from __future__ import annotations

from reportlab.lib.pagesizes import landscape
from reportlab.lib.units import mm

from .aids import (AID_MIN_TEXT, COUNTER_R, MARKER_R, AidSet, allegiance_track, draw_counter, draw_marker,
                   health_track, plain, token_plan, wrap_words)
from .counters import COUNTER, MARKER, Grid, cut_grid, icon_name, poison_disc, soul_orb
from .fit import fit_line
from .paint import Painter, mix, text_outside_boxes
from .pdf import PdfBuffer
from .template import Template
from .raster import jpeg_bytes, png_bytes, render_pages

#: Nothing printed on the mat or the token sheet comes closer to the paper edge (home printers clip ~4 mm).
PAPER_MARGIN = 10 * mm
#: What a standard card sleeve adds to the card (63.5 × 88.9 mm cards: 66 × 91 mm sleeves), and the room
#: a mat's card slot leaves around a sleeved card on each side: a slot of the card's own size held no
#: sleeved card.
SLEEVE_ALLOWANCE = (2.5 * mm, 2.1 * mm)
SLOT_MARGIN = 1.0 * mm
#: Between two card slots of the mat.
SLOT_GAP = 4 * mm


def slot_size(tpl: Template) -> tuple[float, float]:
    """A mat's card slot: a sleeved card and ``SLOT_MARGIN`` around it (68 × 93 mm for poker cards)."""
    return (tpl.trim_w + SLEEVE_ALLOWANCE[0] + 2 * SLOT_MARGIN, tpl.trim_h + SLEEVE_ALLOWANCE[1] + 2 * SLOT_MARGIN)


# -- the player mat -----------------------------------------------------------------------
def mat_size(paper_size: tuple[float, float]) -> tuple[float, float]:
    return landscape(paper_size)


def draw_mat(p: Painter, tpl: Template, a: AidSet, page: tuple[float, float]) -> None:
    """A landscape player mat: the health track, the allegiance tracks, the deck, discard and Rite slots,
    and zones for poison counters and soul essence; everything at least ``PAPER_MARGIN`` inside."""
    c = p.canvas
    pw, ph = page
    m = PAPER_MARGIN
    x0, y0, w, h = m, m, pw - 2 * m, ph - 2 * m
    p.fill(mix(tpl.color("parchment"), "#ffffff", 0.4))
    p.stroke(tpl.color("gold_dark"), 0.8)
    c.roundRect(x0, y0, w, h, 3 * mm, stroke=1, fill=1)
    p.record("rule", "mat frame", (x0, y0, x0 + w, y0 + h))
    pad = 4 * mm
    x, y, w, h = x0 + pad, y0 + pad, w - 2 * pad, h - 2 * pad
    with p.holds("the mat's frame", (x, y, x + w, y + h)):
        _mat_content(p, tpl, a, x, y, w, h)


def _mat_content(p: Painter, tpl: Template, a: AidSet, x: float, y: float, w: float, h: float) -> None:
    ink, muted, gold_dark = tpl.color("ink"), tpl.color("muted_ink"), tpl.color("gold_dark")
    top = y + h
    p.text(x, top - 14, f"{a.game} — {a.word('mat')}", tpl.font("title"), 15, ink, label="mat title")
    top -= 20
    # health: two rows
    p.text(x, top - 9, a.word("health"), tpl.font("keyword"), 9, gold_dark, label="mat health")
    p.text(x + w, top - 9, plain(a.word("health_note")), tpl.font("text"), 7.5, muted, anchor="end",
           label="mat health note")
    top -= 12
    cells = a.numbers.health + 1
    cols = -(-cells // 2)
    health_h = 2 * 10.5 * mm
    health_track(p, tpl, a, x, top - health_h, w, health_h, cols=cols)
    top -= health_h + 5 * mm
    # allegiance: two columns of tracks, halfway between the health track and the card slots
    n = max(1, len(a.factions))
    rows = -(-n // 2)
    card_w, card_h = slot_size(tpl)
    slots_top = y + 1 * mm + card_h + 14  # the card slots and their names, along the bottom
    room = top - 12 - slots_top - 3 * mm
    row_h = max(9 * mm, min(18 * mm, room / rows))
    top -= max(0.0, room - rows * row_h) / 2
    p.text(x, top - 9, a.word("allegiance"), tpl.font("keyword"), 9, gold_dark, label="mat allegiance")
    p.text(x + w, top - 9, plain(a.word("allegiance_note")), tpl.font("text"), 7.5, muted, anchor="end",
           label="mat allegiance note")
    top -= 12
    col_w = (w - 8 * mm) / 2
    for i, faction in enumerate(a.factions):
        r, col = divmod(i, 2)
        allegiance_track(p, tpl, a, faction, x + col * (col_w + 8 * mm), top - (r + 1) * row_h + 1.5 * mm,
                         col_w, row_h - 3 * mm, 7)
    top -= rows * row_h + 3 * mm
    # card zones along the bottom, then the token zones
    zone_y = y + 1 * mm  # the card slots sit at the bottom, under their names
    for i, (key, note) in enumerate((("deck", ""), ("discard", ""), ("rite", "rite_note"))):
        zx = x + i * (card_w + SLOT_GAP)
        _zone(p, tpl, zx, zone_y, card_w, card_h, a.word(key), a.word(note) if note else "",
              "rite" if key == "rite" else None)
    tx = x + 3 * (card_w + SLOT_GAP)
    tw = x + w - tx
    half = (card_h - 4 * mm) / 2
    _token_zone(p, tpl, tx, zone_y + half + 4 * mm, tw, half, a.word("poison"), "", poison_disc)
    _token_zone(p, tpl, tx, zone_y, tw, half, a.word("essence"), a.word("essence_note"), soul_orb)


def _zone(p: Painter, tpl: Template, x, y, w, h, title: str, note: str, icon: str | None) -> None:
    """A dashed slot for a sleeved card with its name above it (and a faint icon inside)."""
    c = p.canvas
    p.fill(mix(tpl.color("parchment"), tpl.color("parchment_edge"), 0.3))
    p.stroke(tpl.color("gold_dark"), 0.7)
    c.setDash(3, 2)
    c.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=1)
    c.setDash()
    p.record("rule", f"slot {title}", (x, y, x + w, y + h))
    if icon:
        s = w * 0.45
        p.icon(icon_name(icon), x + (w - s) / 2, y + (h - s) / 2, s, tpl.color("gold_dark"), alpha=0.25, record=False)
    with p.holds(f"the width of the slot «{title}»", (x, y, x + w, y + h + 14)):
        size, _ = fit_line(title, tpl.font("keyword"), w, 8.5, AID_MIN_TEXT)
        p.text(x + w / 2, y + h + 3.5, title, tpl.font("keyword"), size, tpl.color("ink"), anchor="middle",
               label=f"zone {title}")
    if note:
        with p.holds(f"the slot «{title}»", (x, y, x + w, y + h)):
            _centred_lines(p, tpl, note, x + w / 2, y + h / 2 - (w * 0.45) / 2 - 10, w - 6 * mm, AID_MIN_TEXT)


def _centred_lines(p: Painter, tpl: Template, text: str, cx: float, top: float, width: float, size: float) -> None:
    fonts = (tpl.font("text"), tpl.font("keyword"))
    for i, line in enumerate(wrap_words(text, fonts, size, width)):
        s = " ".join("".join(t for t, _ in word) for word in line)
        p.text(cx, top - i * size * 1.2, s, tpl.font("text"), size, tpl.color("muted_ink"), anchor="middle",
               label="zone note")


def _token_zone(p: Painter, tpl: Template, x, y, w, h, title: str, note: str, disc) -> None:
    c = p.canvas
    p.fill(mix(tpl.color("parchment"), tpl.color("parchment_edge"), 0.3))
    p.stroke(tpl.color("gold_dark"), 0.7)
    c.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=1)
    p.record("rule", f"zone {title}", (x, y, x + w, y + h))
    r = min(w, h) * 0.16
    disc(p, tpl, x + 3 * mm + r, y + h - 3 * mm - r, r)
    left = x + 5 * mm + 2 * r
    room = x + w - 2 * mm - left  # the title beside the disc, shrunk and then wrapped to fit
    font = tpl.font("keyword")
    size, fits = fit_line(title, font, room, 8.5, AID_MIN_TEXT)
    lines = [title] if fits else [" ".join("".join(t for t, _ in word) for word in line)
                                  for line in wrap_words(title, (font, font), size, room)]
    first = y + h - 3 * mm - r - 3 + (len(lines) - 1) * size * 0.6
    with p.holds(f"the zone «{title}»", (x, y, x + w, y + h)):
        for i, line in enumerate(lines):
            p.text(left, first - i * size * 1.2, line, font, size, tpl.color("ink"), label=f"zone {title}")
        if note:
            _centred_lines(p, tpl, note, x + w / 2, y + 4 * mm, w - 4 * mm, AID_MIN_TEXT)


def mat_pdf(tpl: Template, a: AidSet, paper: str, paper_size: tuple[float, float],
            problems: list[str] | None = None) -> bytes:
    """The player mat on one landscape page: print it once per player. What is drawn out of its box
    is added to ``problems`` (``text_outside_boxes``)."""
    page = mat_size(paper_size)
    doc = PdfBuffer(page, f"{a.game} — {a.word('mat')} ({a.lang}, {paper})", a.lang)
    doc.ask_actual_size()  # its card slots are sized for sleeved cards
    p = Painter(doc.canvas)
    draw_mat(p, tpl, a, page)
    doc.canvas.showPage()
    if problems is not None:
        problems += text_outside_boxes(p.marks)
    return doc.finish()


def draw_tokens(p: Painter, tpl: Template, a: AidSet, page: tuple[float, float]) -> dict[str, int]:
    """Markers for the tracks, then poison counters and soul essence tokens filling the page, on a cut grid.

    Returns how many of each kind were drawn (poison and essence share what the page holds).
    """
    pw, ph = page
    m = PAPER_MARGIN
    with p.holds("the token sheet's printable area", (m, m, pw - m, ph - m)):
        return _tokens_content(p, tpl, a, pw, ph, m)


def _tokens_content(p: Painter, tpl: Template, a: AidSet, pw: float, ph: float, m: float) -> dict[str, int]:
    top = ph - m
    p.text(m, top - 13, f"{a.game} — {a.word('tokens')}", tpl.font("title"), 14, tpl.color("ink"),
           label="tokens title")
    p.text(pw - m, top - 12, a.word("tokens_note"), tpl.font("text"), 7.5, tpl.color("muted_ink"), anchor="end",
           label="tokens note")
    top -= 22
    counts = {"health": 0, "allegiance": 0, "poison": 0, "essence": 0}
    markers = token_plan(a)
    cols = int((pw - 2 * m) // MARKER)
    grid = Grid((pw - cols * MARKER) / 2, top, cols, -(-len(markers) // cols), MARKER)
    for i, marker in enumerate(markers):
        draw_marker(p, tpl, marker, *grid.centre(i), MARKER_R)
        counts[marker[0]] += 1
    cut_grid(p, grid, len(markers))
    top -= grid.rows * MARKER + 8 * mm
    cols = int((pw - 2 * m) // COUNTER)
    grid = Grid((pw - cols * COUNTER) / 2, top, cols, int((top - m) // COUNTER), COUNTER)
    for i in range(grid.capacity):
        kind = "poison" if i // cols < grid.rows / 2 else "essence"
        draw_counter(p, tpl, kind, *grid.centre(i), COUNTER_R)
        counts[kind] += 1
    cut_grid(p, grid, grid.capacity)
    return counts


def tokens_pdf(tpl: Template, a: AidSet, paper: str, paper_size: tuple[float, float],
               problems: list[str] | None = None) -> bytes:
    """The token sheet; what is drawn out of its box is added to ``problems``."""
    doc = PdfBuffer(paper_size, f"{a.game} — {a.word('tokens')} ({a.lang}, {paper})", a.lang)
    doc.ask_actual_size()  # the markers are cut to the mat's track cells
    p = Painter(doc.canvas)
    draw_tokens(p, tpl, a, paper_size)
    doc.canvas.showPage()
    if problems is not None:
        problems += text_outside_boxes(p.marks)
    return doc.finish()


# -- Tabletop Simulator images ------------------------------------------------------------------
#: The mat image's width in pixels (150 DPI on A4 landscape); TTS rescales a Custom_Board to its image.
MAT_PX = 1754
TOKEN_PX = 256


def token_kinds(a: AidSet) -> list[str]:
    """The round tiles TTS needs: the two counters, the health marker and one marker per faction."""
    return ["poison", "essence", "health"] + [f"marker-{f[0]}" for f in a.factions]


def _token_page(tpl: Template, a: AidSet, what: str) -> bytes:
    """One token filling a small square page: TTS cuts a round tile out of the square image."""
    side = 20 * mm
    doc = PdfBuffer((side, side), f"{a.game} — {what}", a.lang)
    p = Painter(doc.canvas)
    p.fill(tpl.color("parchment"))
    doc.canvas.rect(0, 0, side, side, stroke=0, fill=1)
    r = side / 2 * 0.96
    if what in ("poison", "essence"):
        draw_counter(p, tpl, what, side / 2, side / 2, r)
    elif what == "health":
        draw_marker(p, tpl, ("health", None), side / 2, side / 2, r)
    else:
        draw_marker(p, tpl, ("allegiance", next(f for f in a.factions if f"marker-{f[0]}" == what)),
                    side / 2, side / 2, r)
    doc.canvas.showPage()
    return doc.finish()


def render_document(tpl: Template, a: AidSet, kind: str, paper: str, paper_size, what: str = "",
                    problems: list[str] | None = None) -> bytes:
    """The bytes of an aid document: the mat or token sheet PDF, or a TTS image of the mat or a token;
    the PDFs' text drawn out of its box is added to ``problems``."""
    if kind == "mat":
        return mat_pdf(tpl, a, paper, paper_size, problems)
    if kind == "tokens":
        return tokens_pdf(tpl, a, paper, paper_size, problems)
    if kind == "tts-mat":  # the paper's margin cropped off: on the table the board is the mat
        pw, ph = mat_size(paper_size)
        cut = PAPER_MARGIN - 1.5 * mm
        scale = MAT_PX / (pw - 2 * cut)
        size = (round(pw * scale), round(ph * scale))
        (img,) = render_pages(mat_pdf(tpl, a, paper, paper_size), size)
        c = round(cut * scale)
        return jpeg_bytes(img.crop((c, c, size[0] - c, size[1] - c)))
    if kind == "tts-token":
        (img,) = render_pages(_token_page(tpl, a, what), (TOKEN_PX, TOKEN_PX))
        return png_bytes(img)
    raise ValueError(f"unknown aid document {kind!r}")
