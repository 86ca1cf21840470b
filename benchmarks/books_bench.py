"""Book speed: both books in both languages, end to end, and where the time goes for each book.

    python benchmarks/books_bench.py [--root .] [--workers 2] [--repeat 1] [--json]

Target: the rulebook and the reference, in English and French, in under 20 s on 2 cores.
The end-to-end figure is what ``forge render books`` takes (a fresh process per worker,
so imports are counted); the breakdown runs each book in this process, one at a time.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.books.build import build_books  # noqa: E402
from forge.books.compose import compose, load_project  # noqa: E402
from forge.books.pdf import check_pdf, render_pdf  # noqa: E402
from forge.database import load_database  # noqa: E402
from forge.text import load_phrasebooks  # noqa: E402

KINDS = ("rulebook", "reference")
LANGS = ("en", "fr")


def end_to_end(root: Path, workers: int) -> dict:
    """Every book in every language, as the command builds them: cold, then again with nothing changed."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        outcomes = build_books(root, KINDS, LANGS, Path(tmp), workers=workers)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        again = build_books(root, KINDS, LANGS, Path(tmp), workers=workers)
        unchanged_seconds = time.perf_counter() - start
        assert all(o.unchanged for o in again), "a second build with nothing changed laid a book out again"
    return {"seconds": seconds, "unchanged_seconds": unchanged_seconds,
            "books": {f"{o.kind}-{o.lang}": {"pages": o.pages, "bytes": o.size,
                                             "seconds": o.seconds} for o in outcomes}}


def breakdown(root: Path) -> dict:
    """For each book: compose (templates and cards to HTML), render (WeasyPrint), read back (pypdf)."""
    load = load_database(root)
    project = load_project(root, load.db, load_phrasebooks(root))
    out = {}
    for kind in KINDS:
        for lang in LANGS:
            t0 = time.perf_counter()
            composed = compose(project, kind, lang)
            t1 = time.perf_counter()
            data, pages = render_pdf(composed.html, composed.tail_html, root.resolve().as_uri() + "/", composed.policy)
            t2 = time.perf_counter()
            check_pdf(data)
            t3 = time.perf_counter()
            out[f"{kind}-{lang}"] = {"compose_s": t1 - t0, "render_s": t2 - t1, "check_s": t3 - t2, "pages": pages}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="end-to-end runs; the best is kept")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    runs = [end_to_end(args.root, args.workers) for _ in range(max(1, args.repeat))]
    best = min(runs, key=lambda r: r["seconds"])
    figures = {"workers": args.workers, "end_to_end_s": best["seconds"], "unchanged_s": best["unchanged_seconds"],
               "books": best["books"],
               "breakdown": breakdown(args.root)}
    if args.json:
        print(json.dumps(figures, indent=2, default=lambda v: round(v, 2)))
        return
    print(f"both books, en+fr, {args.workers} workers: {best['seconds']:6.2f} s (target < 20 s); "
          f"again with nothing changed: {best['unchanged_seconds']:5.2f} s")
    for name, b in best["books"].items():
        parts = figures["breakdown"][name]
        print(f"  {name:<14} {b['pages']:3d} pages {b['bytes'] / 1024:6.0f} KB   "
              f"compose {parts['compose_s']:5.2f} s  render {parts['render_s']:5.2f} s  "
              f"read back {parts['check_s']:5.2f} s")


if __name__ == "__main__":
    main()
