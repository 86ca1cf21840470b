"""The cards' inline icons as small SVG images for the books, drawn like the card renderer draws them.

Faction icons are medallions in the faction's colour (``cards/factions.yaml``),
the Soul is a blue drop, ⟳, the tombstone and the wolf are game-icons
glyphs in ink. Each icon is one ``data:`` URI, so WeasyPrint parses it once per
document however often the text uses it.
"""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass
from functools import lru_cache

from ..render.assets import SYMBOL_ICONS, _icon_bodies, has_icon, icon_path, resolve_icon_name
from ..render.paint import is_light, shade

#: Markup names that are symbols rather than factions.
SYMBOLS = ("soul", "activate", "demise", "trap")
_PATH = re.compile(r'd="([^"]+)"')


@dataclass(frozen=True)
class Palette:
    """The colours icons are drawn with: ink, gold ring and the Soul orb (from the card template)."""

    ink: str = "#1f1b16"
    gold: str = "#d2b160"
    soul: str = "#2f7fd8"
    soul_light: str = "#a8d6ff"
    soul_dark: str = "#123e7a"
    neutral: str = "#5f5d58"


def _paths(icon: str) -> str:
    """The ``d`` attributes of a game-icons glyph, joined into one path."""
    return " ".join(_PATH.findall(_icon_bodies()[resolve_icon_name(icon)]))


def _uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _svg(body: str, size: int = 100) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}">{body}</svg>'


def _glyph(icon: str, color: str, box: float = 100.0, inset: float = 0.0) -> str:
    """A game-icons glyph (512 units) scaled into a ``box`` square with ``inset`` on each side."""
    scale = (box - 2 * inset) / 512
    rule = ' fill-rule="evenodd"' if icon_path(icon)[1] else ""  # forge's tombstone has a cross cut out
    return (f'<path transform="translate({inset:.2f} {inset:.2f}) scale({scale:.5f})" '
            f'fill="{color}"{rule} d="{_paths(icon)}"/>')


@lru_cache(maxsize=64)
def medallion_uri(color: str, icon: str, palette: Palette = Palette()) -> str:
    """A faction disc: a radial gradient of its colour, a gold ring, its icon in light or dark ink."""
    name = icon if has_icon(icon) else SYMBOL_ICONS["neutral"]
    ink = "#3a2e1c" if is_light(color) else "#fbf6ea"
    body = (
        '<defs><radialGradient id="g" cx="36" cy="36" r="74" gradientUnits="userSpaceOnUse">'
        f'<stop offset="0" stop-color="{shade(color, -0.35)}"/><stop offset="0.5" stop-color="{color}"/>'
        f'<stop offset="1" stop-color="{shade(color, 0.5)}"/></radialGradient></defs>'
        f'<circle cx="50" cy="50" r="45" fill="url(#g)" stroke="{palette.gold}" stroke-width="7"/>'
        + _glyph(name, ink, 100, 19)
    )
    return _uri(_svg(body))


def _drop(cx: float, cy: float, r: float) -> str:
    """The Soul's drop (as the cards draw it: ``forge.render.draw.soul_drop_path``), in SVG's y-down space."""
    rr, tip, by = r * 0.82, cy - r * 0.98, cy + r * 0.18
    k = 0.552
    return (f"M{cx:.2f} {tip:.2f}C{cx - rr * 0.2:.2f} {tip + rr * 0.35:.2f} {cx - rr:.2f} {by - rr * 0.55:.2f} "
            f"{cx - rr:.2f} {by:.2f}C{cx - rr:.2f} {by + rr * k:.2f} {cx - rr * k:.2f} {by + rr:.2f} {cx:.2f} {by + rr:.2f}"
            f"C{cx + rr * k:.2f} {by + rr:.2f} {cx + rr:.2f} {by + rr * k:.2f} {cx + rr:.2f} {by:.2f}"
            f"C{cx + rr:.2f} {by - rr * 0.55:.2f} {cx + rr * 0.2:.2f} {tip + rr * 0.35:.2f} {cx:.2f} {tip:.2f}Z")


@lru_cache(maxsize=8)
def soul_uri(palette: Palette = Palette()) -> str:
    """The Soul mark: a glossy blue drop with a gold ring (a faction's medallion is a disc)."""
    body = (
        '<defs><radialGradient id="s" cx="36" cy="46" r="70" gradientUnits="userSpaceOnUse">'
        f'<stop offset="0" stop-color="{palette.soul_light}"/><stop offset="0.45" stop-color="{palette.soul}"/>'
        f'<stop offset="1" stop-color="{palette.soul_dark}"/></radialGradient></defs>'
        f'<path d="{_drop(50, 50, 46)}" fill="url(#s)" stroke="{palette.gold}" stroke-width="7"/>'
    )
    return _uri(_svg(body))


@lru_cache(maxsize=32)
def symbol_uri(name: str, color: str) -> str:
    """⟳, the tombstone or the wolf as a glyph in ``color``."""
    return _uri(_svg(_glyph(SYMBOL_ICONS[name], color, 100, 2)))


@dataclass(frozen=True)
class IconSet:
    """Every icon the books draw for one database: faction id -> (colour, icon name), and a palette."""

    factions: tuple[tuple[str, str, str], ...]
    palette: Palette = Palette()

    def uri(self, name: str, color: str | None = None) -> str | None:
        """The image of a markup icon, or None for a name the cards do not know."""
        if name == "soul":
            return soul_uri(self.palette)
        if name in SYMBOLS:
            return symbol_uri(name, color or self.palette.ink)
        for fid, fcolor, icon in self.factions:
            if fid == name:
                return medallion_uri(fcolor, icon, self.palette)
        return None

    def img(self, name: str, label: str = "", css: str = "icon", color: str | None = None) -> str:
        """An ``<img>`` for a markup icon; an unknown name shows as ``[[name]]`` so it is seen in proofs."""
        uri = self.uri(name, color)
        if uri is None:
            return f"[[{html.escape(name)}]]"
        kind = "faction" if name not in SYMBOLS else name
        return f'<img class="{css} {css}-{kind}" src="{uri}" alt="{html.escape(label or name)}"/>'
