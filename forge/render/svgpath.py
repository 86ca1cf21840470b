"""A small SVG path-data parser: game-icons bodies become move/line/curve/close operations.

The icons are single ``<path d="…">`` bodies on a 512×512 viewBox; parsing them
here keeps the renderer free of an SVG library. Every command is normalised to
absolute ``M``, ``L``, ``C`` and ``Z`` (quadratic curves and elliptical arcs are
converted to cubic Béziers), so any backend can draw the result.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FLAG = re.compile(r"\s*,?\s*([01])")

#: How many numbers each command consumes per repetition.
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

Op = tuple  # ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",)


class PathSyntaxError(ValueError):
    """Raised for path data this parser cannot read; the message quotes the data."""


@dataclass(frozen=True)
class Path:
    """A parsed path: absolute operations in SVG user units (y grows downwards)."""

    ops: tuple[Op, ...]

    def bounds(self) -> tuple[float, float, float, float]:
        """The bounding box of every point and control point (a safe overestimate)."""
        xs = [v for op in self.ops for v in op[1::2]]
        ys = [v for op in self.ops for v in op[2::2]]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def _tokenize(d: str) -> list[str]:
    """Split path data into commands and numbers; arc flags are split later."""
    return _TOKEN.findall(d)


def _read_arc_args(d_tokens: list[str], i: int) -> tuple[list[float], int]:
    """Arc arguments: flags may be written glued ("a1 1 0 011 1"), so re-split them."""
    nums: list[float] = []
    while len(nums) < 7:
        if i >= len(d_tokens):
            raise PathSyntaxError("arc needs 7 numbers")
        tok = d_tokens[i]
        if len(nums) in (3, 4) and len(tok) > 1 and tok[0] in "01":
            nums.append(float(tok[0]))
            d_tokens[i] = tok[1:]
            continue
        nums.append(float(tok))
        i += 1
    return nums, i


def parse_path(d: str) -> Path:
    """Parse SVG path data into absolute M/L/C/Z operations."""
    tokens = _tokenize(d)
    ops: list[Op] = []
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_q: tuple[float, float] | None = None
    cmd = ""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                ops.append(("Z",))
                x, y = sx, sy
                last_ctrl = last_q = None
                continue
        elif not cmd:
            raise PathSyntaxError(f"path data must start with a command: {d[:40]!r}")
        up = cmd.upper()
        rel = cmd.islower()
        if up == "A":
            args, i = _read_arc_args(tokens, i)
        else:
            n = _ARITY[up]
            if i + n > len(tokens) or any(t.isalpha() for t in tokens[i:i + n]):
                raise PathSyntaxError(f"command {cmd!r} needs {n} numbers in {d[:40]!r}")
            args = [float(t) for t in tokens[i:i + n]]
            i += n
        ox, oy = (x, y) if rel else (0.0, 0.0)
        ctrl: tuple[float, float] | None = None
        qctrl: tuple[float, float] | None = None
        if up == "M":
            x, y = args[0] + ox, args[1] + oy
            sx, sy = x, y
            ops.append(("M", x, y))
            cmd = "l" if rel else "L"  # further pairs are implicit line-tos
        elif up == "L":
            x, y = args[0] + ox, args[1] + oy
            ops.append(("L", x, y))
        elif up == "H":
            x = args[0] + ox
            ops.append(("L", x, y))
        elif up == "V":
            y = args[0] + (y if rel else 0.0)
            ops.append(("L", x, y))
        elif up == "C":
            x1, y1, x2, y2 = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            x, y = args[4] + ox, args[5] + oy
            ops.append(("C", x1, y1, x2, y2, x, y))
            ctrl = (x2, y2)
        elif up == "S":
            x1, y1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
            x2, y2 = args[0] + ox, args[1] + oy
            x, y = args[2] + ox, args[3] + oy
            ops.append(("C", x1, y1, x2, y2, x, y))
            ctrl = (x2, y2)
        elif up in "QT":
            if up == "Q":
                qx, qy = args[0] + ox, args[1] + oy
                ex, ey = args[2] + ox, args[3] + oy
            else:
                qx, qy = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                ex, ey = args[0] + ox, args[1] + oy
            ops.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
            x, y = ex, ey
            qctrl = (qx, qy)
        elif up == "A":
            ex, ey = args[5] + ox, args[6] + oy
            ops += _arc_to_curves(x, y, args[0], args[1], args[2], bool(args[3]), bool(args[4]), ex, ey)
            x, y = ex, ey
        last_ctrl, last_q = ctrl, qctrl
    return Path(tuple(ops))


def _arc_to_curves(x1: float, y1: float, rx: float, ry: float, phi_deg: float,
                   large: bool, sweep: bool, x2: float, y2: float) -> list[Op]:
    """Convert an SVG elliptical arc (endpoint form) to cubic Béziers (SVG spec, appendix F.6)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("L", x2, y2)]
    phi = math.radians(phi_deg % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos_p * dx + sin_p * dy, -sin_p * dx + cos_p * dy
    lam = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if lam > 1:
        rx, ry = rx * math.sqrt(lam), ry * math.sqrt(lam)
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    coef = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * y1p / ry, -coef * ry * x1p / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
    dt = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    segments = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    step = dt / segments
    k = 4 / 3 * math.tan(step / 4)
    out: list[Op] = []

    def point(t: float) -> tuple[float, float]:
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos_p * ex - sin_p * ey + cx, sin_p * ex + cos_p * ey + cy

    def deriv(t: float) -> tuple[float, float]:
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos_p * ex - sin_p * ey, sin_p * ex + cos_p * ey

    t = t1
    for seg in range(segments):
        p0, d0 = point(t), deriv(t)
        t_next = t + step
        p3, d3 = point(t_next), deriv(t_next)
        if seg == segments - 1:
            p3 = (x2, y2)
        out.append(("C", p0[0] + k * d0[0], p0[1] + k * d0[1], p3[0] - k * d3[0], p3[1] - k * d3[1], p3[0], p3[1]))
        t = t_next
    return out


_PATH_D = re.compile(r'\bd="([^"]*)"')
_FILL_RULE = re.compile(r'fill-rule="evenodd"')


def parse_icon_body(body: str) -> tuple[Path, bool]:
    """Parse an iconify body (one or more ``<path d=…>``): the joined path and whether it is even-odd."""
    ds = _PATH_D.findall(body)
    if not ds:
        raise PathSyntaxError(f"no path data in icon body {body[:60]!r}")
    ops: list[Op] = []
    for d in ds:
        ops += parse_path(d).ops
    return Path(tuple(ops)), bool(_FILL_RULE.search(body))
