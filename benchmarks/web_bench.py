"""What the card gallery adds to `forge build`, and what one replay page costs (issue 13 §2, §3).

Usage: python benchmarks/web_bench.py [ROOT]; prints, for the gallery, the first run (every card drawn in
both languages: what a first `forge build` pays) and a second run (the pictures kept in the output
folder's record: what every later build pays), then the replay page of one heuristic game (cold and warm);
each with wall and CPU times (a loaded machine stretches the wall time, not the CPU time) and the page size.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def _timed(make):
    start, start_cpu = time.perf_counter(), time.process_time()
    result = make()
    return result, time.perf_counter() - start, time.process_time() - start_cpu


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    from forge.carddb.database import load_database
    from forge.engine import Game, HeuristicAgent, run
    from forge.engine.record import make_record, to_jsonl
    from forge.text.cardtext import load_phrasebooks
    from forge.web.gallery import build_gallery
    from forge.web.replay import build_replay

    db, books = load_database(root).db, load_phrasebooks(root)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "output"
        for run_name in ("first", "second"):
            o, wall, cpu = _timed(lambda: build_gallery(root, out, ("en", "fr"), db, books))
            print(f"gallery, {run_name} run: {wall:.2f} s wall, {cpu:.2f} s CPU; {o.cards} cards × 2 languages, "
                  f"{o.size / 1024:.0f} KB")
        state = Game(db).new_state(11, ("red", "blue"), log=True)
        run(state, (HeuristicAgent(1), HeuristicAgent(2)))
        record = Path(tmp) / "game.jsonl"
        record.write_text(to_jsonl(make_record(state, ("heuristic", "heuristic"))), encoding="utf-8")
        fresh = Path(tmp) / "fresh"
        for run_name, cache in (("cold", fresh), ("warm", fresh)):
            o, wall, cpu = _timed(lambda run_name=run_name, cache=cache: build_replay(root, lambda: record.open("rb"), record.name,
                                                       Path(tmp) / f"{run_name}.html", "en", cache))
            print(f"replay page, {run_name}: {wall:.2f} s wall, {cpu:.2f} s CPU; {o.steps} steps, {o.cards} cards, "
                  f"{o.size / 1024:.0f} KB (record {record.stat().st_size / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
