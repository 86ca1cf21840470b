"""Render speed: the whole game cold, a re-run with nothing changed, and a re-run after one card changed.

    python benchmarks/render_bench.py [--root .] [--workers 2] [--card ID] [--json]

Targets (issue 4): cold under 30 s for every profile in both languages, and under
3 s to re-render after one card changed.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.database import load_database  # noqa: E402
from forge.render.cards import RenderOptions, render_cards  # noqa: E402
from forge.text import load_phrasebooks  # noqa: E402


def timed(db, books, root: Path, opts: RenderOptions) -> tuple[float, int]:
    start = time.perf_counter()
    result = render_cards(db, books, root, opts)
    return time.perf_counter() - start, len(result.written)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--card", help="the card to change for the incremental run (default: the first recruit card)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    load = load_database(args.root)
    db, books = load.db, load_phrasebooks(args.root)
    card = next(c for c in db.cards if c.id == args.card) if args.card else db.of_set("recruit")[0]
    figures = {"card_designs": len(db.cards), "physical_cards": sum(db.box_count(c) for c in db.cards),
               "workers": args.workers}
    with tempfile.TemporaryDirectory() as tmp:
        opts = RenderOptions(out=Path(tmp) / "output", workers=args.workers, tts_base_url="https://example.invalid")
        figures["cold_s"], figures["cold_files"] = timed(db, books, args.root, opts)
        figures["unchanged_s"], figures["unchanged_files"] = timed(db, books, args.root, opts)
        changed = replace(card, flavor={lang: text + " (revised)" for lang, text in card.flavor.items()} or
                          {"en": "Revised.", "fr": "Révisé."})
        db.cards[db.cards.index(card)] = changed
        figures["one_card_changed"] = card.id
        figures["one_card_s"], figures["one_card_files"] = timed(db, books, args.root, opts)
    if args.json:
        print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}, indent=2))
        return
    print(f"{figures['card_designs']} card designs, {figures['physical_cards']} physical cards, "
          f"{figures['workers']} workers")
    print(f"cold, every profile, en+fr:   {figures['cold_s']:6.2f} s  ({figures['cold_files']} files)")
    print(f"nothing changed:              {figures['unchanged_s']:6.2f} s  ({figures['unchanged_files']} files)")
    print(f"one card changed ({card.id}): {figures['one_card_s']:6.2f} s  ({figures['one_card_files']} files)")


if __name__ == "__main__":
    main()
