"""Benchmark: `forge validate` on the shipped game and on generated databases.

Usage: python benchmarks/validate_bench.py [--sizes 1000,2500,5000,10000] [--repeat 3]

Generated databases copy the shipped cards under new ids, spread over files of
500 cards, so the per-card work is realistic. It prints seconds per size and
seconds per 1,000 cards; linear growth shows as a flat last column. Runs on
one core (a single process).
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import yaml

from forge.checks.validate import validate

REPO = Path(__file__).resolve().parents[1]
HEADER = "# yaml-language-server: $schema=../schema/cards.schema.json\n"


def make_project(size: int, into: Path) -> Path:
    """A project with ``size`` cards made from the shipped ones."""
    shutil.copytree(REPO / "locales", into / "locales")
    (into / "cards").mkdir()
    base: list[dict] = []
    for path in sorted((REPO / "cards").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if "factions" in data:
            (into / "cards" / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        base += data.get("cards", [])
    cards = []
    for i in range(size):
        card = dict(base[i % len(base)])
        card["id"] = f"{card['id']}-{i}"
        cards.append(card)
    for start in range(0, size, 500):
        chunk = {"cards": cards[start:start + 500]}
        text = HEADER + yaml.safe_dump(chunk, allow_unicode=True, sort_keys=False)
        (into / "cards" / f"gen-{start // 500:04d}.yaml").write_text(text, encoding="utf-8")
    return into


def timed(root: Path, repeat: int, extra: bool) -> float:
    """The best of ``repeat`` runs in this process (the first run also pays for caches)."""
    return min(_once(root, extra) for _ in range(repeat))


def _once(root: Path, extra: bool) -> float:
    started = time.perf_counter()
    validate(root, extra=extra)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2500,5000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    first = _once(REPO, extra=True)
    full = timed(REPO, args.repeat, extra=True)
    quick = timed(REPO, args.repeat, extra=False)
    print(f"shipped game: {first:.3f} s first run, then {full:.3f} s (full, with engine proofs and text fit); "
          f"{quick:.3f} s (--quick)")
    print(f"{'cards':>7} {'seconds':>9} {'s / 1000 cards':>15}")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            root = make_project(size, Path(tmp))
            seconds = timed(root, args.repeat, extra=False)
        print(f"{size:>7} {seconds:>9.2f} {seconds / size * 1000:>15.3f}")


if __name__ == "__main__":
    main()
