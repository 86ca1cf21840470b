"""Vendored fonts and icons: where they live, how they are registered, and their hash for caching.

Everything the renderer draws with ships in ``forge/assets/`` so a fresh clone
renders without downloading anything (see ``forge/assets/ATTRIBUTION.md``).
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..carddb.gameicons import (  # noqa: F401  (re-exported: the renderer's modules and the books import them from here)
    DERIVED_ICONS, ICON_ALIASES, ICONS_FILE, MissingIconError, _icon_bodies, _icon_data, has_icon, icon_author,
    icon_names, resolve_icon_name, suggest_icon,
)
from .svgpath import Path as IconPath
from .svgpath import parse_icon_body

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FONTS_DIR = ASSETS / "fonts"

#: reportlab font name -> vendored TTF file.
FONT_FILES: dict[str, str] = {
    "IMFellEnglishSC": "IMFellEnglishSC-Regular.ttf",
    "Lato": "Lato-Regular.ttf",
    "Lato-Bold": "Lato-Bold.ttf",
    "Lato-Italic": "Lato-Italic.ttf",
    "Lato-BoldItalic": "Lato-BoldItalic.ttf",
    "Lato-Black": "Lato-Black.ttf",
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
    "health": "glass-heart",  # the player aids' health marker (never a faction's disc)
    "poison": "poison-bottle",  # poison counters
}


def register_fonts() -> None:
    """Register the vendored TTFs with reportlab (idempotent); TTFs are always subset when embedded.

    reportlab is imported here, not with this module: the caches' keys (``assets_hash``) need none of it.
    """
    from reportlab.pdfbase import pdfmetrics  # lazy: loads reportlab only when needed

    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, file in FONT_FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(_tagged_ttfont()(name, str(FONTS_DIR / file)))


def subset_tag(font: bytes, glyphs) -> bytes:
    """A font subset's six-letter tag (PDF 32000 §9.6.4): from the font's name and the characters the
    subset holds, so two subsets in a document never share one (reportlab names every font's first
    subset AAAAAA), and the same subset gets the same tag on every run."""
    digest = hashlib.sha256(font + b"|" + ",".join(str(g) for g in glyphs).encode()).digest()
    return bytes(65 + b % 26 for b in digest[:6])


@lru_cache(maxsize=1)
def _tagged_ttfont():
    """reportlab's TTFont whose embedded subsets carry ``subset_tag``'s tags."""
    from reportlab.pdfbase import ttfonts  # lazy: loads reportlab only when needed

    class TaggedTTFont(ttfonts.TTFont):
        def addObjects(self, doc):
            state = self.state.get(doc)
            tags = [subset_tag(self.face.name, s) for s in (state.subsets if state else [])]
            numbered = ttfonts.SUBSETN  # reportlab's tag, by subset number: AAAAAA, AAAAAB, …
            ttfonts.SUBSETN = lambda n, *_: tags[n]
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered

    return TaggedTTFont


@lru_cache(maxsize=None)
def icon_path(name: str) -> tuple[IconPath, bool]:
    """The parsed path (512×512 units, y down) of an icon and whether it fills even-odd."""
    return parse_icon_body(_icon_bodies()[resolve_icon_name(name)])


@lru_cache(maxsize=1)
def assets_hash() -> str:
    """A hash of the vendored fonts, icons and colour profile and of the renderer's code, part of every cache key."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")) + [Path(__file__).resolve().parents[1] / "carddb" / "gameicons.py"]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    for f in sorted(ASSETS.rglob("*")):
        if f.is_file() and f.suffix in (".ttf", ".json", ".icc"):
            h.update(f.relative_to(ASSETS).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()
