"""A faction's frame texture: the pattern worked into the card's border, drawn from vectors.

The frame colour alone made every card of a faction a flat plate; a printed card game
marks its factions by the material of the frame as much as by its colour. Each faction
gets its own pattern (Red cracked embers, White dawn rays over a gilded lattice, Black
drifting smoke and thorns, Blue wave scales, neutral cards dressed stone), generated
from its id, never from the clock or an image, so every card of a faction wears the
same frame on every run and machine.

The texture is part of the full-bleed background (it runs past the cut on purpose, like
the frame colour under it). It is drawn in shades of the frame's own colour through the
``Painter``, so print-on-demand converts it through the press profile like everything
else. Motifs that the art window and the panels would hide entirely are not drawn.
"""
from __future__ import annotations

import hashlib
import math
import random
from typing import Callable

from ..core.compat import reportlab as rl_internals
from . import formcache
from .formcache import Fragment
from .paint import Painter, mix, shade
from .pdf import FormCanvas, PdfBuffer

Rect = tuple[float, float, float, float]  # x, y, w, h (points)

#: The texture of each frame: a faction's id, or "neutral" for the template's neutral frame.
FRAME_TEXTURES = ("red", "white", "black", "blue", "neutral")


def frame_theme(faction: str | None) -> str:
    """The texture a card's frame gets: its main faction's, else the neutral stone."""
    return faction if faction in FRAME_TEXTURES else "neutral"


def frame_seed(theme: str) -> int:
    """A stable seed from the frame's faction id (sha256: the same on every machine and Python)."""
    return int(hashlib.sha256(f"frame:{theme}".encode("utf-8")).hexdigest()[:16], 16)


def _hidden(box: tuple[float, float, float, float], covered: tuple[Rect, ...]) -> bool:
    """Whether ``box`` (x0, y0, x1, y1) lies wholly under one of the panels (with a little room for
    their rounded corners), so drawing it would only cost time."""
    x0, y0, x1, y1 = box
    for cx, cy, cw, ch in covered:
        if x0 >= cx + 2 and y0 >= cy + 2 and x1 <= cx + cw - 2 and y1 <= cy + ch - 2:
            return True
    return False


def _segments_path(c, segments, covered):
    """One path of polylines, leaving out those the panels hide; None when nothing shows."""
    path, drawn = c.beginPath(), 0
    for points in segments:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        if _hidden((min(xs), min(ys), max(xs), max(ys)), covered):
            continue
        path.moveTo(*points[0])
        for pt in points[1:]:
            path.lineTo(*pt)
        drawn += 1
    return path if drawn else None


# -- the textures -------------------------------------------------------------------------------
def _embers(p: Painter, rng: random.Random, base: str, w: float, h: float, covered) -> None:
    """Red: a crust of charred plates split by cracks that glow hotter towards the bottom, embers rising."""
    c = p.canvas
    step = 21.0
    cols, rows = int(w / step) + 2, int(h / step) + 2
    pts = [[((i + rng.uniform(-0.32, 0.32)) * step - step / 2, (j + rng.uniform(-0.32, 0.32)) * step - step / 2)
            for j in range(rows)] for i in range(cols)]
    bands: list[list] = [[], [], []]  # the cracks by height: hottest at the bottom
    for i in range(cols):
        for j in range(rows):
            a = pts[i][j]
            for di, dj in ((1, 0), (0, 1)) + (((1, 1),) if (i + j) % 3 == 0 else ()):
                if i + di < cols and j + dj < rows:
                    b = pts[i + di][j + dj]
                    mid = ((a[0] + b[0]) / 2 + rng.uniform(-4, 4), (a[1] + b[1]) / 2 + rng.uniform(-4, 4))
                    band = min(2, max(0, int(3 * ((a[1] + b[1]) / 2) / h)))
                    bands[band].append((a, mid, b))
    c.saveState()
    c.setLineJoin(1)
    c.setLineCap(1)
    for band, cracks in enumerate(bands):
        path = _segments_path(c, cracks, covered)
        if path is None:
            continue
        heat = 1 - band / 2  # 1 at the bottom, 0 at the top
        p.stroke(shade(base, 0.65), 2.4, alpha=0.4)  # the charred lips of each crack
        c.drawPath(path, stroke=1, fill=0)
        p.stroke("#ff7a1f", 0.8, alpha=0.2 + 0.3 * heat)  # the heat showing through
        c.drawPath(path, stroke=1, fill=0)
        p.stroke("#ffd27a", 0.3, alpha=0.15 + 0.4 * heat)
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()
    for _ in range(40):  # embers drifting up: more of them, and brighter, low on the card
        t = rng.random() ** 1.6
        x, y, r = rng.uniform(0, w), t * h, rng.uniform(0.35, 0.85)
        if not _hidden((x - r, y - r, x + r, y + r), covered):
            p.fill("#ffd27a" if rng.random() < 0.6 else "#ff8a2a", alpha=0.75 - 0.45 * t)
            c.circle(x, y, r, stroke=0, fill=1)


def _dawn(p: Painter, rng: random.Random, base: str, w: float, h: float, covered) -> None:
    """White: rays of dawn fanning from above the title, over a fine gilded lattice with star points."""
    c = p.canvas
    ox, oy = w / 2, h * 0.93
    reach = math.hypot(w, h)
    count = 44
    rays = (c.beginPath(), c.beginPath())  # alternate rays, brighter and fainter: two fills in all
    for i in range(count):
        a0 = 2 * math.pi * i / count
        a1 = a0 + 2 * math.pi / count * 0.45
        path = rays[i % 2]
        path.moveTo(ox, oy)
        path.lineTo(ox + reach * math.cos(a0), oy + reach * math.sin(a0))
        path.lineTo(ox + reach * math.cos(a1), oy + reach * math.sin(a1))
        path.close()
    for path, alpha in zip(rays, (0.2, 0.13)):
        p.fill("#fffaf0", alpha=alpha)
        c.drawPath(path, stroke=0, fill=1)
    step = 11.0  # a diamond lattice, its lines running at ±60°, in pieces so the panels' share is left out
    run = step / 2 / math.cos(math.radians(60))  # along a line, from one crossing to the next
    dx, dy = run * math.cos(math.radians(60)), run * math.sin(math.radians(60))
    pieces = []
    k = -h / math.tan(math.radians(60))
    while k < w + step:
        for sign in (1, -1):
            x, y = (k, 0.0) if sign == 1 else (k + h / math.tan(math.radians(60)), 0.0)
            while y < h:
                pieces.append(((x, y), (x + sign * dx, y + dy)))
                x, y = x + sign * dx, y + dy
        k += step
    lattice = _segments_path(c, pieces, covered)
    if lattice is not None:
        p.stroke(shade(base, 0.35), 0.35, alpha=0.35)
        c.drawPath(lattice, stroke=1, fill=0)
    for _ in range(30):  # four-pointed stars where the light catches the gilding
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(1.4, 3.0)
        if _hidden((x - r, y - r, x + r, y + r), covered):
            continue
        star = c.beginPath()
        star.moveTo(x, y + r)
        for k2 in range(1, 8):
            ang = math.pi / 2 + k2 * math.pi / 4
            rr = r if k2 % 2 == 0 else r * 0.22
            star.lineTo(x + rr * math.cos(ang), y + rr * math.sin(ang))
        star.close()
        p.fill("#fffdf6", alpha=rng.uniform(0.55, 0.9))
        c.drawPath(star, stroke=0, fill=1)


def _thorns(p: Painter, rng: random.Random, base: str, w: float, h: float, covered, margin: float = 15.5) -> None:
    """Black: smoke drifting up the frame, and a thorned bramble climbing each side ``margin`` from the
    bleed edge (between the cut and the panels, where the frame shows)."""
    c = p.canvas
    c.saveState()
    c.setLineCap(1)
    for _ in range(16):  # smoke: wide, faint curls, lighter than the frame
        x = rng.uniform(-0.1, 1.1) * w
        y = rng.uniform(-0.1, 0.9) * h
        rise = rng.uniform(0.25, 0.5) * h
        path = c.beginPath()
        path.moveTo(x, y)
        path.curveTo(x + rng.uniform(-40, 40), y + rise * 0.35, x + rng.uniform(-40, 40), y + rise * 0.7,
                     x + rng.uniform(-25, 25), y + rise)
        p.stroke(mix(base, "#d8c8e8", 0.5), rng.uniform(6, 14), alpha=rng.uniform(0.1, 0.17))
        c.drawPath(path, stroke=1, fill=0)
    c.restoreState()
    ink = shade(base, 0.6)
    for side in (0, 1):  # a bramble up each side of the card, in the margin beside the panels
        x0 = margin if side == 0 else w - margin
        stem = c.beginPath()
        thorns = c.beginPath()
        y, x = -4.0, x0
        stem.moveTo(x, y)
        while y < h + 4:
            ny = y + rng.uniform(14, 22)
            nx = x0 + rng.uniform(-2.5, 2.5)
            stem.curveTo(x + (nx - x) * 0.1 + rng.uniform(-3, 3), y + (ny - y) * 0.5,
                         nx + rng.uniform(-3, 3), y + (ny - y) * 0.6, nx, ny)
            for t in (0.3, 0.75):  # thorns on alternate sides of the stem
                tx, ty = x + (nx - x) * t, y + (ny - y) * t
                d = 1 if rng.random() < 0.5 else -1
                thorns.moveTo(tx, ty - 1.1)
                thorns.lineTo(tx + d * rng.uniform(3.0, 4.2), ty + rng.uniform(0.8, 2.4))
                thorns.lineTo(tx, ty + 1.1)
                thorns.close()
            x, y = nx, ny
        p.stroke(ink, 1.4, alpha=0.7)
        c.drawPath(stem, stroke=1, fill=0)
        p.fill(ink, alpha=0.7)
        c.drawPath(thorns, stroke=0, fill=1)


def _waves(p: Painter, rng: random.Random, base: str, w: float, h: float, covered) -> None:
    """Blue: overlapping wave scales (seigaiha), rows of nested arcs, the crest of each caught in light."""
    c = p.canvas
    r = 16.0
    dx, dy = r * 2, r * 0.5
    rows = int(h / dy) + 6
    light = mix(base, "#bfe8ff", 0.6)
    for j in range(rows):  # from the top down: each row overlaps the one above it
        y = h + r - j * dy
        x = -r if j % 2 else 0.0
        scales, arcs, shown = c.beginPath(), c.beginPath(), 0
        while x < w + r:
            if not _hidden((x - r, y, x + r, y + r), covered):
                scales.moveTo(x - r, y)
                scales.arcTo(x - r, y - r, x + r, y + r, 180, -180)
                scales.close()
                for rr in (r * 0.8, r * 0.52):
                    if not _hidden((x - rr, y, x + rr, y + rr), covered):
                        arcs.arc(x - rr, y - rr, x + rr, y + rr, 0, 180)
                shown += 1
            x += dx
        if shown:
            p.fill(shade(base, 0.3 + 0.15 * rng.random()), alpha=0.55)
            c.drawPath(scales, stroke=0, fill=1)
            p.stroke(light, 0.55, alpha=0.42)
            c.drawPath(arcs, stroke=1, fill=0)


def _stone(p: Painter, rng: random.Random, base: str, w: float, h: float, covered) -> None:
    """Neutral: courses of dressed stone, each block bevelled, lit from above."""
    c = p.canvas
    course = 20.0
    y = -rng.uniform(0, course)
    while y < h:
        x = -rng.uniform(0, 30)
        while x < w:
            bw = rng.uniform(24, 44)
            if not _hidden((x, y, x + bw, y + course), covered):
                g = 0.8
                p.fill(shade(base, rng.uniform(-0.18, 0.2)), alpha=0.5)
                c.rect(x + g, y + g, bw - 2 * g, course - 2 * g, stroke=0, fill=1)
                p.stroke(shade(base, -0.45), 0.5, alpha=0.35)  # the lit top and left edges
                c.line(x + g, y + course - g, x + bw - g, y + course - g)
                c.line(x + g, y + g, x + g, y + course - g)
                p.stroke(shade(base, 0.55), 0.9, alpha=0.5)  # the joint's shadow
                c.line(x + g, y + g, x + bw - g, y + g)
                c.line(x + bw - g, y + g, x + bw - g, y + course - g)
            x += bw
        y += course


TEXTURES = {"red": _embers, "white": _dawn, "black": _thorns, "blue": _waves, "neutral": _stone}


def draw_frame_texture(p: Painter, theme: str, base: str, w: float, h: float, covered: tuple[Rect, ...] = ()) -> None:
    """The frame pattern of ``theme`` over the whole (w × h) bleed box, in shades of ``base``.

    Call it inside the full-bleed background's clip; ``covered`` are the panels drawn on top
    of the frame, under which motifs need not be drawn. Every card of a faction wears the
    same frame, so in a forge document it is drawn once, as a form each card places: a
    document of 64 cards then carries (and a press or viewer reads) a few textures, not 64.
    """
    def draw(painter: Painter = p) -> None:
        TEXTURES[theme](painter, random.Random(frame_seed(theme)), base, w, h, covered)

    c = p.canvas
    if not isinstance(c, FormCanvas):  # a bare reportlab canvas gives forms no transparency
        draw()
        return
    key = repr((theme, base, p.cmyk, round(w, 3), round(h, 3), tuple(tuple(round(v, 3) for v in r) for r in covered)))
    name = "FrameTexture" + hashlib.sha256(key.encode()).hexdigest()[:12]
    if not c.hasForm(name):
        if c.nested_fragments:  # a card being kept as a fragment: its texture, drawn once per process
            nested(c, name, w, h, draw, p.cmyk)
        else:
            c.beginForm(name, 0, 0, w, h)
            draw()
            c.endForm()
    c.doForm(name)


_NESTED: dict[str, Fragment | None] = {}


def nested(canvas, name: str, width: float, height: float, draw: Callable, cmyk: bool) -> None:
    """Define form ``name`` (a faction's frame texture, named by what it is) in a card's scratch canvas from
    a fragment drawn once per process: 64 cards wear 5 textures. A fragment is the same whichever way."""
    if name not in _NESTED:
        scratch = PdfBuffer(rl_internals.page_size(canvas), "", None, cmyk=cmyk, forms=True)
        _NESTED[name] = formcache.capture(scratch, name, width, height, draw, cmyk)
    fragment = _NESTED[name]
    if fragment is None:
        canvas.beginForm(name, 0, 0, width, height)
        draw(Painter(canvas, cmyk=cmyk))
        canvas.endForm()
    else:
        formcache.place(canvas, fragment, cmyk)
