"""The round pieces the rules need (track markers, poison counters, soul essence) and the grids they are cut on.

Each piece is drawn the same wherever it is printed: on the print-and-play token
sheet, on the print shops' token cards, on the mat's zones and as Tabletop
Simulator tiles. Each reads at a glance and unlike the others: a faction's marker
is the cards' own medallion; poison a poison bottle on green; the health marker a
heart on the ink colour (no faction's disc); soul essence the cards' Soul drop on
an ivory disc (the Soul is never a disc, so it is never read as the Blue faction's).
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from .assets import SYMBOL_ICONS, has_icon, resolve_icon_name
from .paint import Painter, mix
from .template import Template

#: A track marker: it covers one cell of the mat's and the tracker cards' tracks.
MARKER = 11 * mm
#: A poison counter or a soul essence token: big enough to pick up from the table.
COUNTER = 18 * mm
POISON_GREEN = "#3f7a2a"
#: The grey of the cut lines (light enough to vanish once cut, dark enough to follow).
CUT_GREY = "#9a9a9a"


def icon_name(name: str) -> str:
    """A symbol or a vendored icon; an icon forge does not vendor shows the neutral one (the renderer
    warns about it once, as it does for the cards)."""
    if name in SYMBOL_ICONS:
        return SYMBOL_ICONS[name]
    return resolve_icon_name(name) if has_icon(name) else SYMBOL_ICONS["neutral"]


def medallion(p: Painter, tpl: Template, cx: float, cy: float, r: float, color: str, icon: str, label: str) -> None:
    """A faction disc (its colour, a gold ring, its icon): the cards' own medallion, so the aids match them."""
    from .draw import _medallion  # lazy: loads markupsafe only when needed

    _medallion(p, tpl, cx, cy, r, color, icon_name(icon), label)


def poison_disc(p: Painter, tpl: Template, cx: float, cy: float, r: float) -> None:
    """One poison counter."""
    medallion(p, tpl, cx, cy, r, POISON_GREEN, "poison", "poison counter")


def health_disc(p: Painter, tpl: Template, cx: float, cy: float, r: float) -> None:
    """The health marker: a heart on the ink colour, unlike any faction's medallion."""
    medallion(p, tpl, cx, cy, r, tpl.color("ink"), "health", "health marker")


def soul_orb(p: Painter, tpl: Template, cx: float, cy: float, r: float) -> None:
    """One soul essence: the cards' Soul drop on an ivory disc with the gold ring of every piece."""
    from .draw import _soul_orb  # lazy: loads markupsafe only when needed

    c = p.canvas
    c.saveState()
    path = c.beginPath()
    path.circle(cx, cy, r)
    c.clipPath(path, stroke=0, fill=0)
    ivory = mix(tpl.color("parchment"), "#ffffff", 0.5)
    p.radial(cx - r * 0.3, cy + r * 0.3, r * 1.6, [ivory, tpl.color("parchment"), tpl.color("parchment_edge")],
             [0, 0.5, 1])
    c.restoreState()
    p.stroke(tpl.color("gold"), max(0.3, r * 0.1))
    c.circle(cx, cy, r, stroke=1, fill=0)
    _soul_orb(p, tpl, cx, cy - r * 0.06, r * 0.62, label="soul drop")
    p.record("icon", "soul essence", (cx - r, cy - r, cx + r, cy + r))


@dataclass(frozen=True)
class Grid:
    """``cols`` × ``rows`` square cells of side ``cell``, the top-left one at (x, top - cell)."""

    x: float
    top: float
    cols: int
    rows: int
    cell: float

    @property
    def capacity(self) -> int:
        return self.cols * self.rows

    def rows_for(self, n: int) -> int:
        return -(-n // self.cols) if n else 0

    def cell_at(self, i: int, mirrored: bool = False) -> tuple[float, float]:
        """The bottom-left corner of cell ``i`` (row by row from the top-left); ``mirrored`` reads the
        columns right to left, as the back of a sheet sees them."""
        r, col = divmod(i, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return self.x + col * self.cell, self.top - (r + 1) * self.cell

    def centre(self, i: int, mirrored: bool = False) -> tuple[float, float]:
        x, y = self.cell_at(i, mirrored)
        return x + self.cell / 2, y + self.cell / 2


def cut_grid(p: Painter, grid: Grid, n: int, mirrored: bool = False) -> None:
    """Grey cut lines around the first ``n`` cells of ``grid`` (the last row may be shorter)."""
    c = p.canvas
    p.stroke(CUT_GREY, 0.35)
    for i in range(n):
        x, y = grid.cell_at(i, mirrored)
        c.rect(x, y, grid.cell, grid.cell, stroke=1, fill=0)
    rows = grid.rows_for(n)
    p.record("rule", "cut grid", (grid.x, grid.top - rows * grid.cell, grid.x + grid.cols * grid.cell, grid.top))
