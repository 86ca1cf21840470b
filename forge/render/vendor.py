"""Refresh the vendored icon subset from the @iconify-json/game-icons npm package.

Usage (from the project folder)::

    npm pack @iconify-json/game-icons          # fetches iconify-json-game-icons-X.tgz
    python -m forge.render.vendor iconify-json-game-icons-X.tgz [--root .] [--authors FILE] [EXTRA_ICON ...]

It keeps exactly the icons forge draws: the renderer's own symbols (and the bases of
its derived icons), every faction's ``icon`` and every icon a card's ``art:`` names
in ``cards/*.yaml``, and any extra names given; so the repository carries a few
hundred kilobytes instead of the whole 4,000-icon set.

Each icon keeps its author, whom the books' credits name per card. The Iconify
package names only the set's author, so authors come from the icons already
vendored and from ``--authors FILE`` (lines ``icon-name Author Name``, the folder
the icon sits in on game-icons.net); an icon without one is refused.
"""
from __future__ import annotations

import argparse
import json
import sys
import tarfile
from pathlib import Path

from ..core.atomic import write_text
from .assets import DERIVED_ICONS, ICONS_FILE, SYMBOL_ICONS


def _read_icon_set(source: Path) -> dict:
    """icons.json from a package tarball, an unpacked package folder or the file itself."""
    if source.suffix in (".tgz", ".gz"):
        with tarfile.open(source) as tar:
            return json.load(tar.extractfile("package/icons.json"))
    if source.is_dir():
        source = source / "icons.json"
    return json.loads(source.read_text(encoding="utf-8"))


def used_icons(root: Path) -> set[str]:
    """The icons the cards name: each faction's ``icon`` and each card's art composition."""
    from ..carddb.database import load_database  # lazy: loads markupsafe, yaml only when needed
    from ..carddb.model import IconArt  # lazy: loads markupsafe only when needed

    db = load_database(root).db
    names = {f.icon for f in db.factions}
    for card in db.cards:
        if isinstance(card.art, IconArt):
            names.update(card.art.icons())
    return names


def wanted_icons(root: Path, extra: list[str]) -> set[str]:
    symbols = {DERIVED_ICONS.get(n, (n,))[0] for n in SYMBOL_ICONS.values()}
    return symbols | used_icons(root) | set(extra)


def read_authors(path: Path | None) -> dict[str, str]:
    """``icon-name Author`` lines; blank lines and # comments are skipped."""
    if path is None:
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, author = line.partition(" ")
            out[name] = author.strip()
    return out


def vendor(source: Path, root: Path, extra: list[str], authors: dict[str, str] | None = None) -> list[str]:
    """Write the subset file; returns the problems (names the set lacks, icons without an author)."""
    full = _read_icon_set(source)
    icons, aliases = full["icons"], full.get("aliases", {})
    known = {}
    if ICONS_FILE.exists():
        known = {n: i.get("author") for n, i in json.loads(ICONS_FILE.read_text(encoding="utf-8"))["icons"].items()}
    known.update(authors or {})
    chosen: dict[str, dict] = {}
    problems = []
    for name in sorted(wanted_icons(root, extra) - set(DERIVED_ICONS)):
        real = name if name in icons else aliases.get(name, {}).get("parent")
        if real not in icons:
            problems.append(f"not in game-icons: {name} (choose another icon)")
        elif not known.get(name):
            problems.append(f"no author for {name}: add `{name} Author` to the --authors file")
        else:
            chosen[name] = {"body": icons[real]["body"], "author": known[name]}
    subset = {
        "prefix": "game-icons",
        "source": "npm @iconify-json/game-icons (https://game-icons.net)",
        "license": "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/)",
        "authors": "Lorc, Delapouite and contributors",
        "width": full.get("width", 512),
        "height": full.get("height", 512),
        "icons": chosen,
    }
    if not problems:
        ICONS_FILE.parent.mkdir(parents=True, exist_ok=True)
        write_text(ICONS_FILE, json.dumps(subset, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path, help="iconify-json-game-icons tarball, folder or icons.json")
    ap.add_argument("extra", nargs="*", help="more icon names to keep")
    ap.add_argument("--root", type=Path, default=Path("."), help="project folder (for cards/*.yaml)")
    ap.add_argument("--authors", type=Path, help="lines `icon-name Author` for icons not vendored yet")
    args = ap.parse_args(argv)
    problems = vendor(args.source, args.root, args.extra, read_authors(args.authors))
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
