"""A card's illustration drawn from vectors: a faction's procedural background and its icon composition.

Every card design gets its own picture without an external image: game-icons.net
icons (chosen per card in its ``art:``) over a background generated for its
faction (Red embers and flames, White rays, Black smoke, Blue waves, Souls a
swirl of wisps). The background is seeded from the card's id, never from the
clock or an unseeded generator, so a card looks the same on every run and every
machine, and two cards of one faction never share the same sky.
"""
from __future__ import annotations

import hashlib
import math
import random

from .assets import has_icon, resolve_icon_name
from .paint import Painter, is_light, mix, shade

#: Colours of each background: (deep, mid, glow, particle), from the back towards the light.
PALETTES: dict[str, tuple[str, str, str, str]] = {
    "red": ("#2a0704", "#8a1a0c", "#f0822a", "#ffd27a"),
    "white": ("#b08f45", "#ecdcae", "#fffaf0", "#ffffff"),
    "black": ("#0d0912", "#3a2648", "#8a6aa0", "#c8b8d8"),
    "blue": ("#06142e", "#1c4a8a", "#58a8e0", "#bfe8ff"),
    "soul": ("#061a1e", "#0f5560", "#46c8c0", "#d8fff6"),
    "neutral": ("#1c1b19", "#55524c", "#a8a296", "#e8e2d4"),
}


def theme_of(card_type: str, faction: str | None) -> str:
    """The background a card gets: Souls their own, else its main faction's, else the neutral one."""
    if card_type == "soul":
        return "soul"
    return faction if faction in PALETTES else "neutral"


def seed_of(card_id: str) -> int:
    """A stable seed from the card's id (sha256: the same on every machine and Python)."""
    return int(hashlib.sha256(card_id.encode("utf-8")).hexdigest()[:16], 16)


# -- backgrounds ------------------------------------------------------------------------
def _motes(p: Painter, rng: random.Random, color: str, count: int, x, y, w, h, size: tuple[float, float],
           alpha: tuple[float, float]) -> None:
    """``count`` small dots (stars, motes, sparkles) scattered over (x, y, w, h)."""
    c = p.canvas
    for _ in range(count):
        p.fill(color, alpha=rng.uniform(*alpha))
        c.circle(x + rng.random() * w, y + rng.random() * h, rng.uniform(*size), stroke=0, fill=1)


def _embers(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """Red: a furnace glow from below, tongues of flame and rising sparks."""
    deep, mid, glow, spark = pal
    p.linear(x, y + h, x, y, [deep, mid, shade(glow, 0.1)], [0, 0.6, 1])
    c = p.canvas
    for i in range(7):  # flame tongues rising from the bottom edge
        cx = x + w * (i + 0.5 + rng.uniform(-0.35, 0.35)) / 7
        top = y + h * rng.uniform(0.35, 0.75)
        half = w * rng.uniform(0.06, 0.11)
        lean = rng.uniform(-0.4, 0.4) * half * 2
        path = c.beginPath()
        path.moveTo(cx - half, y)
        path.curveTo(cx - half * 1.2, y + (top - y) * 0.45, cx + lean - half * 0.3, y + (top - y) * 0.7, cx + lean, top)
        path.curveTo(cx + lean + half * 0.2, y + (top - y) * 0.6, cx + half * 1.3, y + (top - y) * 0.4, cx + half, y)
        path.close()
        p.fill(glow if i % 2 else mix(glow, spark, 0.5), alpha=rng.uniform(0.12, 0.25))
        c.drawPath(path, stroke=0, fill=1)
    for _ in range(34):  # embers drifting upwards, larger and dimmer near the bottom
        ex, t = x + rng.random() * w, rng.random()
        r = (1 - t) * 0.9 + rng.uniform(0.25, 0.7)
        p.fill(spark if rng.random() < 0.6 else glow, alpha=0.35 + 0.5 * t * rng.random())
        c.circle(ex, y + t * h, r, stroke=0, fill=1)


def _rays(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """White: a dawn sky, rays fanning from a light above the figure, a halo of thin rings."""
    deep, mid, glow, spark = pal
    ox, oy = x + w * rng.uniform(0.38, 0.62), y + h * rng.uniform(0.62, 0.78)
    p.radial(ox, oy, max(w, h) * 0.95, [spark, glow, mid, deep], [0, 0.18, 0.55, 1])
    c = p.canvas
    count = rng.choice((14, 16, 18, 20))
    turn = rng.uniform(0, 360 / count)
    reach = math.hypot(w, h)
    for i in range(count):
        a0 = math.radians(turn + i * 360 / count)
        a1 = a0 + math.radians(360 / count * rng.uniform(0.3, 0.5))
        path = c.beginPath()
        path.moveTo(ox, oy)
        path.lineTo(ox + reach * math.cos(a0), oy + reach * math.sin(a0))
        path.lineTo(ox + reach * math.cos(a1), oy + reach * math.sin(a1))
        path.close()
        p.fill("#ffffff", alpha=rng.uniform(0.16, 0.3))
        c.drawPath(path, stroke=0, fill=1)
    for i in range(3):
        p.stroke(shade(deep, 0.1), 0.45, alpha=0.28 - i * 0.06)
        c.circle(ox, oy, h * (0.3 + 0.17 * i + rng.uniform(-0.02, 0.02)), stroke=1, fill=0)


def _smoke(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """Black: a night fog, billows of smoke curling up, a few cold motes."""
    deep, mid, glow, spark = pal
    p.linear(x, y, x, y + h, [mid, deep], [0, 1])
    c = p.canvas
    for i in range(11):  # soft overlapping billows, built from three lobes each
        bx, by = x + rng.random() * w, y + h * (0.05 + 0.9 * rng.random() ** 1.4)
        r = h * rng.uniform(0.12, 0.26)
        p.fill(glow if i % 3 else spark, alpha=rng.uniform(0.06, 0.13))
        for dx, dy, k in ((-0.55, -0.1, 0.75), (0.0, 0.15, 1.0), (0.6, -0.05, 0.7)):
            c.circle(bx + dx * r, by + dy * r, r * k, stroke=0, fill=1)
    for _ in range(5):  # wisps: thin curls rising
        sx, sy = x + rng.random() * w, y + rng.random() * h * 0.4
        path = c.beginPath()
        path.moveTo(sx, sy)
        path.curveTo(sx + rng.uniform(-0.25, 0.25) * w, sy + h * 0.25, sx + rng.uniform(-0.25, 0.25) * w,
                     sy + h * 0.45, sx + rng.uniform(-0.15, 0.15) * w, sy + h * 0.7)
        p.stroke(spark, rng.uniform(0.4, 0.9), alpha=0.22)
        c.drawPath(path, stroke=1, fill=0)
    _motes(p, rng, spark, 14, x, y, w, h, (0.2, 0.5), (0.25, 0.6))


def _waves(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """Blue: deep water under a starry rift, bands of waves rolling across."""
    deep, mid, glow, spark = pal
    p.linear(x, y + h, x, y, [deep, mid, shade(mid, 0.35)], [0, 0.55, 1])
    c = p.canvas
    _motes(p, rng, spark, 22, x, y + h * 0.55, w, h * 0.45, (0.2, 0.55), (0.3, 0.8))  # stars over the water
    bands = 6
    for i in range(bands):
        base = y + h * (0.62 - i * 0.11)
        amp = h * rng.uniform(0.025, 0.05)
        length = w / rng.uniform(1.2, 2.2)
        phase = rng.uniform(0, length)
        path = c.beginPath()
        path.moveTo(x - 2, y - 2)
        steps = 24
        for s in range(steps + 1):
            px = x - 2 + (w + 4) * s / steps
            path.lineTo(px, base + amp * math.sin((px - x + phase) / length * 2 * math.pi))
        path.lineTo(x + w + 2, y - 2)
        path.close()
        p.fill(mix(glow, deep, i / bands), alpha=0.16 + 0.05 * i)
        c.drawPath(path, stroke=0, fill=1)
        crest = c.beginPath()
        for s in range(steps + 1):
            px = x + w * s / steps
            py = base + amp * math.sin((px - x + phase) / length * 2 * math.pi)
            crest.moveTo(px, py) if s == 0 else crest.lineTo(px, py)
        p.stroke(spark, 0.35, alpha=0.3)
        c.drawPath(crest, stroke=1, fill=0)


def _wisps(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """Souls: a swirl of essence, spiral wisps turning around a pale centre, sparkles."""
    deep, mid, glow, spark = pal
    cx, cy = x + w * rng.uniform(0.4, 0.6), y + h * rng.uniform(0.45, 0.6)
    p.radial(cx, cy, max(w, h) * 0.8, [glow, mid, deep], [0, 0.35, 1])
    c = p.canvas
    arms = rng.choice((3, 4, 5))
    turn = rng.uniform(0, 2 * math.pi)
    for a in range(arms):
        path = c.beginPath()
        for s in range(40):
            t = s / 39
            ang = turn + a * 2 * math.pi / arms + t * 3.2
            r = h * (0.08 + 0.62 * t)
            px, py = cx + r * math.cos(ang) * 1.3, cy + r * math.sin(ang)
            path.moveTo(px, py) if s == 0 else path.lineTo(px, py)
        p.stroke(spark, 1.6 - 0.2 * a, alpha=0.22)
        c.drawPath(path, stroke=1, fill=0)
    _motes(p, rng, spark, 26, x, y, w, h, (0.2, 0.6), (0.3, 0.85))


def _stone(p: Painter, rng: random.Random, pal, x, y, w, h) -> None:
    """Neutral: grey stone lit from above, with faint cracks."""
    deep, mid, glow, spark = pal
    p.radial(x + w / 2, y + h * 0.7, max(w, h) * 0.8, [glow, mid, deep], [0, 0.5, 1])
    c = p.canvas
    for _ in range(6):
        path = c.beginPath()
        px, py = x + rng.random() * w, y + rng.random() * h
        path.moveTo(px, py)
        for _ in range(4):
            px, py = px + rng.uniform(-0.12, 0.12) * w, py + rng.uniform(-0.12, 0.12) * h
            path.lineTo(px, py)
        p.stroke(deep, 0.4, alpha=0.35)
        c.drawPath(path, stroke=1, fill=0)


BACKGROUNDS = {"red": _embers, "white": _rays, "black": _smoke, "blue": _waves, "soul": _wisps, "neutral": _stone}


# -- the icon composition -----------------------------------------------------------------
def _ink(theme: str) -> tuple[str, str, str]:
    """(figure, shadow, glow) colours for a background: dark figures on White's pale sky, light elsewhere."""
    deep, mid, glow, spark = PALETTES[theme]
    if is_light(mid):
        return shade(deep, 0.55), "#fffaf0", "#fffdf6"
    return mix(spark, "#ffffff", 0.35), shade(deep, 0.3), glow


def _figure(p: Painter, icon: str, cx: float, cy: float, size: float, theme: str, alpha: float = 1.0,
            flip: bool = False, shadow: bool = True) -> None:
    """One icon centred on (cx, cy): a soft glow, an offset shadow, then the figure."""
    ink, dark, glow = _ink(theme)
    c = p.canvas
    c.saveState()
    if flip:  # mirror around the figure's centre line
        c.translate(2 * cx, 0)
        c.scale(-1, 1)
    if shadow:
        for k, a in ((0.62, 0.10), (0.5, 0.12), (0.38, 0.14)):
            p.fill(glow, alpha=a * alpha)
            c.circle(cx, cy, size * k, stroke=0, fill=1)
        off = size * 0.018
        p.icon(icon, cx - size / 2 + off, cy - size / 2 - off, size, dark, alpha=0.65 * alpha, record=False)
    p.icon(icon, cx - size / 2, cy - size / 2, size, ink, alpha=alpha, record=False)
    c.restoreState()


def compose(p: Painter, theme: str, icon: str, accents: tuple[str, ...], layout: str, flip: bool,
            x: float, y: float, w: float, h: float) -> None:
    """Place the main icon and its accents in the window (x, y, w, h) by ``layout``."""
    cx, cy = x + w / 2, y + h * 0.47
    main = h * 0.8
    if layout == "behind" and accents:
        _figure(p, accents[0], cx, y + h * 0.52, h * 1.05, theme, alpha=0.22, shadow=False)
        for extra in accents[1:]:
            _figure(p, extra, x + w - h * 0.22, y + h * 0.22, h * 0.34, theme, alpha=0.9)
    elif layout == "flank" and accents:
        main = h * 0.72
        sides = (x + w * 0.17, x + w * 0.83)
        for side, extra in zip(sides if len(accents) > 1 else sides[1:], accents):
            _figure(p, extra, side, y + h * 0.3, h * 0.4, theme, alpha=0.85)
    _figure(p, icon, cx, cy, main, theme, flip=flip)
    if layout == "corner" and accents:
        for i, extra in enumerate(accents):
            _figure(p, extra, x + w - h * (0.2 + 0.34 * i), y + h * 0.2, h * 0.32, theme, alpha=0.95)


def _vignette(p: Painter, theme: str, x, y, w, h) -> None:
    """A darker rim so the figure sits in the window and the frame's gold edge reads against it."""
    deep = PALETTES[theme][0]
    c = p.canvas
    for i, a in enumerate((0.22, 0.14, 0.08)):
        inset = 0.6 + i * 1.3
        p.stroke(deep, 1.6, alpha=a)
        c.rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, stroke=1, fill=0)


def draw_illustration(p: Painter, card_id: str, theme: str, icon: str | None, accents: tuple[str, ...],
                      layout: str, flip: bool, fallback: str, x: float, y: float, w: float, h: float,
                      figure: bool = True) -> None:
    """The card's picture in the clipped window: its faction's background, then its icons.

    ``fallback`` is drawn when the card declares no icon (or names one forge does not
    have: ``forge validate`` reports it), so a render never stops for art.
    """
    rng = random.Random(seed_of(card_id))
    BACKGROUNDS[theme](p, rng, PALETTES[theme], x, y, w, h)
    if figure:  # no figure behind a picture shown whole
        main = resolve_icon_name(icon) if icon and has_icon(icon) else fallback
        extras = tuple(resolve_icon_name(a) for a in accents if has_icon(a))
        compose(p, theme, main, extras, layout, flip, x, y, w, h)
    _vignette(p, theme, x, y, w, h)
