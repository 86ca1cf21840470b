"""Refresh the vendored icon subset from the @iconify-json/game-icons npm package.

Usage (from the project folder)::

    npm pack @iconify-json/game-icons          # fetches iconify-json-game-icons-X.tgz
    python -m forge.render.vendor iconify-json-game-icons-X.tgz [--root .] [EXTRA_ICON ...]

It keeps only the icons the renderer uses: its own symbols, the aliases' targets,
every faction's ``icon`` in ``cards/*.yaml`` and any extra names given, so the
repository carries a few kilobytes instead of the whole 4,000-icon set.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tarfile
from pathlib import Path

from .assets import ICON_ALIASES, ICONS_FILE, SYMBOL_ICONS

#: Icons kept for designers to choose from besides the ones in use (faction candidates).
EXTRA_ICONS: tuple[str, ...] = (
    "fire-dash", "flame", "angel-wings", "sun", "holy-symbol", "death-skull", "water-drop",
    "wave-crest", "crystal-ball", "sunbeams", "drop",
)

_FACTION_ICON = re.compile(r"^\s*icon:\s*['\"]?([a-z0-9-]+)", re.M)


def _read_icon_set(source: Path) -> dict:
    """icons.json from a package tarball, an unpacked package folder or the file itself."""
    if source.suffix in (".tgz", ".gz"):
        with tarfile.open(source) as tar:
            return json.load(tar.extractfile("package/icons.json"))
    if source.is_dir():
        source = source / "icons.json"
    return json.loads(source.read_text(encoding="utf-8"))


def faction_icons(root: Path) -> set[str]:
    """The ``icon:`` values written in the card files (factions choose them)."""
    names: set[str] = set()
    for f in sorted((root / "cards").glob("*.yaml")):
        names.update(_FACTION_ICON.findall(f.read_text(encoding="utf-8")))
    return names


def wanted_icons(root: Path, extra: list[str]) -> set[str]:
    return set(SYMBOL_ICONS.values()) | set(ICON_ALIASES.values()) | set(EXTRA_ICONS) | faction_icons(root) | set(extra)


def vendor(source: Path, root: Path, extra: list[str]) -> list[str]:
    """Write the subset file; returns the names that the icon set does not have."""
    full = _read_icon_set(source)
    icons, aliases = full["icons"], full.get("aliases", {})
    chosen: dict[str, dict] = {}
    missing = []
    for name in sorted(wanted_icons(root, extra)):
        real = name if name in icons else aliases.get(name, {}).get("parent")
        if real in icons:
            chosen[name] = {"body": icons[real]["body"]}
        else:
            missing.append(name)
    subset = {
        "prefix": "game-icons",
        "source": "npm @iconify-json/game-icons (https://game-icons.net)",
        "license": "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/)",
        "authors": "Lorc, Delapouite and contributors",
        "width": full.get("width", 512),
        "height": full.get("height", 512),
        "icons": chosen,
    }
    ICONS_FILE.parent.mkdir(parents=True, exist_ok=True)
    ICONS_FILE.write_text(json.dumps(subset, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, help="iconify-json-game-icons tarball, folder or icons.json")
    ap.add_argument("extra", nargs="*", help="more icon names to keep")
    ap.add_argument("--root", type=Path, default=Path("."), help="project folder (for cards/*.yaml)")
    args = ap.parse_args(argv)
    missing = vendor(args.source, args.root, args.extra)
    for name in missing:
        print(f"not in game-icons: {name} (add a replacement to ICON_ALIASES in forge/render/assets.py)",
              file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
