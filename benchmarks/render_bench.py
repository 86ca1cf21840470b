"""Render speed: the whole game cold, a re-run with nothing changed, and re-runs after one card changed.

    python benchmarks/render_bench.py [--root .] [--workers 2] [--card ID] [--cold 1] [--repeat 3] [--json]

Targets (issue 8): cold at most 12 s for every profile in both languages, and at most
2 s to re-render after one card changed, on the 2-core CI machine.

The machine is shared: each figure is given as wall time and as CPU time (this process
and its workers), with the load average before the run, so that a slow run on a busy
machine can be told from a slow renderer. Each one-card run changes the same card's
flavour text again (a new text each time), as an author editing it would.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.carddb.database import load_database
from forge.render.cards import RenderOptions, render_cards
from forge.text.cardtext import load_phrasebooks


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(db, books, root: Path, opts: RenderOptions) -> dict:
    load = os.getloadavg()[0]
    cpu, start = _cpu(), time.perf_counter()
    result = render_cards(db, books, root, opts)
    return {"wall_s": round(time.perf_counter() - start, 2), "cpu_s": round(_cpu() - cpu, 2),
            "load": round(load, 2), "files": len(result.written)}


def _edit(card, n: int):
    """The card with its flavour text changed (a different text for each ``n``)."""
    flavor = {lang: f"{text} ({n})" for lang, text in card.flavor.items()} or {"en": f"Revised {n}.",
                                                                               "fr": f"Révisé {n}."}
    return replace(card, flavor=flavor)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--card", help="the card to change for the incremental runs (default: the first recruit card)")
    ap.add_argument("--cold", type=int, default=1, help="cold runs, each in a new folder (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="one-card runs (default 3)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    load = load_database(args.root)
    db, books = load.db, load_phrasebooks(args.root)
    card = next(c for c in db.cards if c.id == args.card) if args.card else db.of_set("recruit")[0]
    figures: dict = {"card_designs": len(db.cards), "physical_cards": sum(db.box_count(c) for c in db.cards),
                     "workers": args.workers, "one_card_changed": card.id, "cold": [], "one_card": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(max(1, args.cold)):
            opts = RenderOptions(out=Path(tmp) / f"output-{i}", workers=args.workers,
                                 tts_base_url="https://example.invalid")
            figures["cold"].append(timed(db, books, args.root, opts))
        figures["unchanged"] = timed(db, books, args.root, opts)
        at = db.cards.index(card)
        for n in range(args.repeat):
            db.cards[at] = _edit(card, n)
            figures["one_card"].append(timed(db, books, args.root, opts))
    for kind in ("cold", "one_card"):
        runs = figures[kind]
        if runs:
            figures[f"{kind}_median_wall_s"] = round(statistics.median(r["wall_s"] for r in runs), 2)
            figures[f"{kind}_median_cpu_s"] = round(statistics.median(r["cpu_s"] for r in runs), 2)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['card_designs']} card designs, {figures['physical_cards']} physical cards, "
          f"{figures['workers']} workers, {os.cpu_count()} cores")

    def line(label: str, r: dict) -> None:
        print(f"{label:<34} {r['wall_s']:6.2f} s wall  {r['cpu_s']:6.2f} s CPU  "
              f"(load {r['load']:.1f}, {r['files']} files)")

    for r in figures["cold"]:
        line("cold, every profile, en+fr:", r)
    line("nothing changed:", figures["unchanged"])
    for r in figures["one_card"]:
        line(f"one card changed ({card.id}):", r)
    if figures["one_card"]:
        print(f"median one card: {figures['one_card_median_wall_s']:.2f} s wall, "
              f"{figures['one_card_median_cpu_s']:.2f} s CPU")


if __name__ == "__main__":
    main()
