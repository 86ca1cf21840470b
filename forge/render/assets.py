"""Vendored fonts and icons: where they live, how they are registered, and their hash for caching.

Everything the renderer draws with ships in ``forge/assets/`` so a fresh clone
renders without downloading anything (see ``forge/assets/ATTRIBUTION.md``).
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from .svgpath import Path as IconPath
from .svgpath import parse_icon_body

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FONTS_DIR = ASSETS / "fonts"
ICONS_FILE = ASSETS / "icons" / "game-icons.json"

#: reportlab font name -> vendored TTF file.
FONT_FILES: dict[str, str] = {
    "IMFellEnglishSC": "IMFellEnglishSC-Regular.ttf",
    "Lato": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-BoldItalic": "Lato-BoldItalic.ttf",
    "Lato-Black": "Lato-Black.ttf",
}

#: Icons the designer named that game-icons.net does not have, mapped to the nearest existing one.
ICON_ALIASES: dict[str, str] = {
    "skull": "death-skull",
    "gravestone": "tombstone-cross",
    "halo": "angel-wings",
}

#: forge's own icons, derived from a vendored one: name -> (base icon, extra path data, fill even-odd).
#: ``tombstone-cross`` is game-icons' tombstone with a cross cut out of its slab: the plain slab
#: read as a bell at text size.
DERIVED_ICONS: dict[str, tuple[str, str]] = {
    "tombstone-cross": ("tombstone", "M234 104h44v62h50v42h-50v118h-44V208h-50v-42h50z"),
}

#: The renderer's own icons (markup names and ornaments) -> game-icons names.
SYMBOL_ICONS: dict[str, str] = {
    "activate": "clockwise-rotation",
    "demise": "tombstone-cross",
    "trap": "wolf-head",
    "creature": "crossed-swords",
    "spell": "magic-swirl",
    "soul": "spectre",
    "rite": "sundial",
    "back-recruit": "magic-portal",
    "back-starter": "spectre",
    "back-rite": "sundial",
    "neutral": "spectre",
}


class MissingIconError(KeyError):
    """An icon name that is neither vendored nor aliased; the message names it."""


def register_fonts() -> None:
    """Register the vendored TTFs with reportlab (idempotent); TTFs are always subset when embedded."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, file in FONT_FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FONTS_DIR / file)))


@lru_cache(maxsize=1)
def _icon_data() -> dict[str, dict]:
    return json.loads(ICONS_FILE.read_text(encoding="utf-8"))["icons"]


@lru_cache(maxsize=1)
def _icon_bodies() -> dict[str, str]:
    bodies = {name: icon["body"] for name, icon in _icon_data().items()}
    for name, (base, extra) in DERIVED_ICONS.items():
        if base in bodies:  # the base's paths and the cut-out, filled even-odd so the cut-out is a hole
            bodies[name] = bodies[base].replace("<path ", '<path fill-rule="evenodd" ', 1) + f'<path d="{extra}"/>'
    return bodies


def icon_names() -> list[str]:
    """Every icon a card may name: the vendored ones and forge's derived ones, sorted."""
    return sorted(_icon_bodies())


def icon_author(name: str) -> str:
    """Who drew an icon (game-icons.net credits each icon to its author); a derived icon's base author."""
    real = resolve_icon_name(name)
    base = DERIVED_ICONS.get(real, (real,))[0]
    return _icon_data().get(base, {}).get("author", "game-icons.net")


def suggest_icon(name: str) -> str | None:
    """The closest icon name to a misspelt one, for a did-you-mean hint."""
    import difflib

    guess = difflib.get_close_matches(name, icon_names(), n=1, cutoff=0.6)
    return guess[0] if guess else None


def resolve_icon_name(name: str) -> str:
    """The vendored icon for a designer's icon name, following ICON_ALIASES."""
    bodies = _icon_bodies()
    if name in bodies:
        return name
    alias = ICON_ALIASES.get(name)
    if alias and alias in bodies:
        return alias
    raise MissingIconError(f"icon {name!r} is not vendored in {ICONS_FILE.name}; "
                           f"run `python -m forge.render.vendor` or add it to ICON_ALIASES")


def has_icon(name: str) -> bool:
    try:
        resolve_icon_name(name)
        return True
    except MissingIconError:
        return False


@lru_cache(maxsize=None)
def icon_path(name: str) -> tuple[IconPath, bool]:
    """The parsed path (512×512 units, y down) of an icon and whether it fills even-odd."""
    return parse_icon_body(_icon_bodies()[resolve_icon_name(name)])


@lru_cache(maxsize=1)
def assets_hash() -> str:
    """A hash of the vendored fonts, icons and colour profile and of the renderer's code, part of every cache key."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    for f in sorted(ASSETS.rglob("*")):
        if f.is_file() and f.suffix in (".ttf", ".json", ".icc"):
            h.update(f.relative_to(ASSETS).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()
