"""A thin drawing layer over a reportlab canvas: colours (RGB or CMYK), icons, text, and a record of
what was drawn where, so the safe zone is checked from what was actually drawn.

Text and icons are recorded as they are drawn (with their font and string, for the
glyph check); every other element (lines, panels, medallions, gradients, images) is
read back from the canvas's own operators by ``drawn()``, labelled by the ``part``
that drew it. A part declared ``bleed=True`` is a full-bleed background, meant to
run past the cut, and is the only thing exempt from the safe zone.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
import hashlib

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO
from reportlab.pdfgen.pathobject import PDFPathObject
from reportlab.pdfbase.pdfdoc import PDFAxialShading, PDFRadialShading

from ..core.compat import reportlab as rl_internals
from .assets import icon_path
from .colour import press_cmyk, text_cmyk
from .inkbox import inked

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def hex_rgb(value: str) -> tuple[float, float, float]:
    """"#a3271f" -> (0.64, 0.15, 0.12)."""
    v = value.lstrip("#")
    if len(v) == 3:
        v = "".join(c * 2 for c in v)
    return tuple(int(v[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b``, as hex."""
    ra, rb = hex_rgb(a), hex_rgb(b)
    return "#" + "".join(f"{round((x + (y - x) * t) * 255):02x}" for x, y in zip(ra, rb))


def luminance(c: str) -> float:
    """Relative luminance (0 black .. 1 white), to pick readable ink over a colour."""
    r, g, b = hex_rgb(c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def is_light(c: str) -> bool:
    return luminance(c) > 0.55


def shade(c: str, t: float) -> str:
    """Darken (t > 0) towards black or lighten (t < 0) towards white."""
    return mix(c, "#000000", t) if t >= 0 else mix(c, "#ffffff", -t)


#: Stops added between two gradient stops in CMYK, so that the press's gradient follows the sRGB one.
GRADIENT_STEPS = 4


def _srgb_stops(colors: list[str], positions) -> tuple[list[str], list[float]]:
    """Gradient stops with ``GRADIENT_STEPS - 1`` sRGB mixes inserted between each pair.

    A PDF gradient interpolates in its own colour space: between two converted CMYK stops
    it would pass through other colours than the design's sRGB gradient (a glow turns grey
    half-way). Converting a few mixes keeps every segment within a shade of the design.
    """
    n = len(colors)
    at = list(positions) if positions else [i / (n - 1) for i in range(n)]
    stops, where = [colors[0]], [at[0]]
    for i in range(1, n):
        for step in range(1, GRADIENT_STEPS + 1):
            t = step / GRADIENT_STEPS
            stops.append(colors[i] if step == GRADIENT_STEPS else mix(colors[i - 1], colors[i], t))
            where.append(at[i - 1] + (at[i] - at[i - 1]) * t)
    return stops, where


@dataclass
class Mark:
    """A drawn element: what it is and where (points, in the card's own space, before any sheet placement)."""

    kind: str  # "text" | "icon" | a painted shape: "stroke", "fill", "both", "shading", "image", "form"
    label: str
    box: Box
    bleed: bool = False  # part of a declared full-bleed background: may run past the cut
    text: str = ""  # for text: the string and its font, so each glyph can be checked
    font: str = ""
    within: tuple[str, Box] | None = None  # for text: the box it was drawn to stay in (``Painter.holds``)
    size: float = 0.0  # for text: its size (pt) and colour
    color: str = ""
    colours: tuple[str, ...] = ()  # for a plate (``Painter.plate``): the colours it is painted in


@dataclass(frozen=True)
class Part:
    """Canvas operators ``start``..``end`` (of the operator list ``code``) were drawn as ``label``."""

    code: int  # id() of the canvas's operator list: a form swaps in a list of its own
    start: int
    end: int
    label: str
    bleed: bool


def _scale(m) -> float:
    """How much the transformation ``m`` enlarges lengths (1 without one)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2])) if m else 1.0


def _transform_box(m, box: Box) -> Box:
    x0, y0, x1, y1 = box
    pts = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


@lru_cache(maxsize=None)
def _icon_pdf_path(name: str) -> tuple[PDFPathObject, bool]:
    """The icon as a reusable reportlab path in its own 512-unit space, y flipped to point up."""
    parsed, even_odd = icon_path(name)
    p = PDFPathObject()
    for op in parsed.ops:
        if op[0] == "M":
            p.moveTo(op[1], 512 - op[2])
        elif op[0] == "L":
            p.lineTo(op[1], 512 - op[2])
        elif op[0] == "C":
            p.curveTo(op[1], 512 - op[2], op[3], 512 - op[4], op[5], 512 - op[6])
        else:
            p.close()
    return p, even_odd


#: The canvas attribute where ``Painter.shading`` keeps each gradient it defined: name -> (kind, colours, positions).
SHADINGS = "_forge_shading_specs"
#: Each gradient's colour space, converted stops and positions, by name (``Painter.shading``).
_STOPS: dict[str, tuple] = {}


def shading_name(cmyk: bool, kind: str, colors: list[str], positions: list[float] | None) -> str:
    """A gradient's resource name, from what it is (see ``Painter.shading``)."""
    spec = repr((kind, bool(cmyk), [str(v) for v in colors], [float(v) for v in positions or ()]))
    return "Sh" + hashlib.sha256(spec.encode()).hexdigest()[:16]


def fill_mode(even_odd: bool) -> int:
    """reportlab's fill mode for an SVG fill rule: its ``FILL_EVEN_ODD`` is 0 (``f*``), ``FILL_NON_ZERO`` 1 (``f``).

    SVG's default rule is nonzero; an icon with ``fill-rule="evenodd"`` (forge's tombstone
    with its cross cut out) fills even-odd, so a subpath inside another is a hole whichever
    way it winds.
    """
    return FILL_EVEN_ODD if even_odd else FILL_NON_ZERO


@dataclass
class Painter:
    """Draws on ``canvas`` in RGB, or in CMYK when ``cmyk`` (print-on-demand), and records marks.

    In CMYK every colour goes through the press's ICC profile (``colour``); text and
    glyph-like icons in a dark neutral colour print in black ink only. Black text knocks out
    what is under it rather than overprinting it: over a dark frame (a footer on a red
    border) overprinted black would put more than the press's 300 % of ink on paper.
    """

    canvas: object
    cmyk: bool = False
    marks: list[Mark] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    _bleed_depth: int = 0
    _holders: list[tuple[str, Box]] = field(default_factory=list)

    # -- colours ------------------------------------------------------------
    def color(self, value: str, alpha: float | None = None, text: bool = False):
        """``value`` (hex sRGB) as a reportlab colour: as is, or as the press prints it (``text``: as type)."""
        if self.cmyk:
            c, m, y, k = text_cmyk(value) if text else press_cmyk(value)
            return CMYKColor(c, m, y, k, alpha=alpha if alpha is not None else 1)
        r, g, b = hex_rgb(value)
        return Color(r, g, b, alpha=alpha if alpha is not None else 1)

    def fill(self, value: str, alpha: float | None = None, text: bool = False) -> None:
        self.canvas.setFillColor(self.color(value, alpha, text))

    def stroke(self, value: str, width: float, alpha: float | None = None) -> None:
        self.canvas.setStrokeColor(self.color(value, alpha))
        self.canvas.setLineWidth(width)

    def linear(self, x0, y0, x1, y1, colors: list[str], positions=None) -> None:
        """Fill the clip with a gradient along (x0, y0)→(x1, y1)."""
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        cos, sin = (x1 - x0) / length, (y1 - y0) / length
        self._shade("axial", colors, positions, (length * cos, length * sin, -length * sin, length * cos, x0, y0))

    def radial(self, x, y, r, colors: list[str], positions=None) -> None:
        """Fill the clip with a radial gradient around (x, y)."""
        self._shade("radial", colors, positions, (r, 0, 0, r, x, y))

    def _shade(self, kind: str, colors: list[str], positions, matrix: tuple) -> None:
        """Paint a unit gradient through ``matrix``: the same colours reuse one shading object per document."""
        c = self.canvas
        name = self.shading(kind, colors, positions)
        c.saveState()
        c.transform(*matrix)
        rl_internals.paint_shading(c, name)
        c.restoreState()

    def shading(self, kind: str, colors: list[str], positions=None) -> str:
        """The name of the unit gradient (``kind`` axial or radial) of ``colors``, defined in the document once.

        reportlab makes a new shading (three PDF objects) for each gradient drawn; cards repeat the
        same few gradients hundreds of times, so they are defined once, on a unit axis or circle, and
        placed with a transformation. The name is a digest of what the gradient is, not a counter, so
        a card drawn as a form means the same in every document (``formcache``); each canvas keeps
        what each name it defined is (``SHADINGS``).
        """
        c = self.canvas
        positions = [float(v) for v in positions] if positions else None
        spec = (kind, list(colors), positions)
        name = shading_name(self.cmyk, *spec)
        defined = c.__dict__.setdefault(SHADINGS, {})
        if name not in defined:
            if name not in _STOPS:  # the stops' colours, converted once per process (every card's form needs them)
                stops, at = (_srgb_stops(colors, positions) if self.cmyk else (colors, positions))
                _STOPS[name] = (*rl_internals.normalise_colours([self.color(v) for v in stops]), at)
            space, ncolors, at = _STOPS[name]
            fcn = rl_internals.color_function(ncolors, at)
            if kind == "axial":
                shading = PDFAxialShading(0, 0, 1, 0, Function=fcn, ColorSpace=space, Extend="[true true]")
            else:
                shading = PDFRadialShading(0, 0, 0, 0, 0, 1, Function=fcn, ColorSpace=space, Extend="[true true]")
            rl_internals.document(c).Reference(shading, name)
            defined[name] = spec
        return name

    # -- marks ----------------------------------------------------------------
    def record(self, kind: str, label: str, box: Box, text: str = "", font: str = "") -> None:
        """Note an element at ``box`` (current user space), kept in the canvas's default space."""
        m = rl_internals.current_matrix(self.canvas)
        box = box if tuple(m) == (1, 0, 0, 1, 0, 0) else _transform_box(m, box)
        within = self._holders[-1] if kind == "text" and self._holders else None
        self.marks.append(Mark(kind, label, box, self._bleed_depth > 0, text, font, within))

    @contextmanager
    def holds(self, label: str, box: Box):
        """Text drawn inside must stay within ``box`` (x0, y0, x1, y1, current user space): a zone of a
        mat, a cell of a track, a token card's header. ``text_outside_boxes`` lists what does not, the
        way ``safe_zone_crossings`` does on a card."""
        m = rl_internals.current_matrix(self.canvas)
        self._holders.append((label, box if tuple(m) == (1, 0, 0, 1, 0, 0) else _transform_box(m, box)))
        try:
            yield
        finally:
            self._holders.pop()

    @contextmanager
    def part(self, label: str, bleed: bool = False):
        """Label what is drawn inside; ``bleed=True`` declares it a full-bleed background."""
        code = rl_internals.code(self.canvas)
        start = len(code)
        self._bleed_depth += bleed
        try:
            yield
        finally:
            self._bleed_depth -= bleed
            self.parts.append(Part(id(code), start, len(rl_internals.code(self.canvas)), label, bleed))

    def drawn(self, page: Box) -> list[Mark]:
        """Every element painted so far on the current page, as marks: its box (cut to ``page``), its part."""
        code = rl_internals.code(self.canvas)
        parts = sorted((p for p in self.parts if p.code == id(code)), key=lambda p: (p.start, -p.end))
        objects = rl_internals.document(self.canvas).idToObject

        def form_box(name: str):
            obj = objects.get(name)
            return (obj.lowerx, obj.lowery, obj.upperx, obj.uppery) if hasattr(obj, "lowerx") else None

        marks = []
        for ink in inked(code, page, form_box):
            inside = [p for p in parts if p.start <= ink.index < p.end]
            label = inside[-1].label if inside else "unlabelled drawing"
            marks.append(Mark(ink.op, label, ink.box, any(p.bleed for p in inside)))
        return marks

    # -- drawing ----------------------------------------------------------------
    def icon(self, name: str, x: float, y: float, size: float, color: str, alpha: float | None = None,
             label: str | None = None, record: bool = True) -> None:
        """Draw a game-icons glyph in the square (x, y, size); recorded unless ``record`` is False."""
        path, even_odd = _icon_pdf_path(name)
        c = self.canvas
        with self.part(f"icon {label or name}"):
            c.saveState()
            self.fill(color, alpha, text=True)
            c.transform(size / 512, 0, 0, size / 512, x, y)
            c.drawPath(path, stroke=0, fill=1, fillMode=fill_mode(even_odd))
            c.restoreState()
        if record:
            self.record("icon", label or name, (x, y, x + size, y + size))

    def text(self, x: float, y: float, s: str, font: str, size: float, color: str,
             anchor: str = "start", label: str | None = None, char_space: float = 0.0) -> float:
        """Draw one line of text on baseline ``y``; returns its width. Anchor: start | middle | end."""
        width = stringWidth(s, font, size) + char_space * max(0, len(s) - 1)
        if anchor == "middle":
            x -= width / 2
        elif anchor == "end":
            x -= width
        c = self.canvas
        c.setFillColor(self.color(color, text=True))
        t = c.beginText(x, y)
        t.setFont(font, size)
        if char_space:
            t.setCharSpace(char_space)
        t.textOut(s)
        c.drawText(t)
        face = getFont(font).face
        self.record("text", label or s, (x, y + face.descent / 1000 * size, x + width, y + face.ascent / 1000 * size),
                    text=s, font=font)
        self.marks[-1].size, self.marks[-1].color = size * _scale(rl_internals.current_matrix(c)), color
        return width

    def plate(self, label: str, box: Box, colours) -> None:
        """Note a surface text may be printed on (a panel, a frame, a card's background) and the colours
        it is painted in (``reversed_small_text`` reads what lies under each text)."""
        self.record("plate", label, box)
        self.marks[-1].colours = tuple(colours)


def text_outside_boxes(marks: list[Mark]) -> list[str]:
    """The text drawn inside a ``Painter.holds`` box that runs out of it (font ascent to descent, its
    exact width): a word past its mat zone, a number past its track cell. Cards are fitted to their boxes
    (``fit``); this measures everything else the same way, from what was drawn."""
    eps = 0.01
    out = []
    for m in marks:
        if m.kind != "text" or m.within is None:
            continue
        label, (bx0, by0, bx1, by1) = m.within
        x0, y0, x1, y1 = m.box
        over = max(bx0 - x0, by0 - y0, x1 - bx1, y1 - by1)
        if over > eps:
            out.append(f"text {m.text!r} runs {over / mm:.1f} mm out of {label}")
    return sorted(set(out))
