"""The vendored game-icons.net names: which exist, who drew each, and forge's own derived icons.

Kept apart from the renderer (``forge.render.assets`` re-exports it) so that
``forge validate`` can check a card's icon names without loading reportlab.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
import difflib

ICONS_FILE = Path(__file__).resolve().parents[1] / "assets" / "icons" / "game-icons.json"

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

class MissingIconError(KeyError):
    """An icon name that is neither vendored nor aliased; the message names it."""


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
