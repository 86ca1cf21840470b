"""Book speed: both books in both languages, screen and print files, end to end, and where the time goes.

    python benchmarks/books_bench.py [--root .] [--workers 2] [--repeat 1] [--screen-only] [--json]

Target: the rulebook and the reference, in English and French, screen PDFs and print files
(press PDF/X and the A4 and Letter booklets), in 10 s or less on 2 cores, as ``forge build``
and ``forge render books --print`` make them; and a second build with nothing changed lays
nothing out. The end-to-end figure is what the command takes (a fresh process per worker,
so imports are counted) in wall-clock seconds, with the CPU seconds of all processes beside
it (a machine shared with other work stretches the first, not the second); the breakdown
runs each book in this process, one at a time.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from forge.books.build import build_books
from forge.books.compose import compose, load_project
from forge.books.pdf import check_pdf, render_book
from forge.books.printing import press_problems
from forge.database import load_database
from forge.text import load_phrasebooks

KINDS = ("rulebook", "reference")
LANGS = ("en", "fr")


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def end_to_end(root: Path, workers: int, press: bool) -> dict:
    """Every book in every language, as the command builds them: cold, then again with nothing changed."""
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu = time.perf_counter(), _cpu()
        outcomes = build_books(root, KINDS, LANGS, Path(tmp), workers=workers, press=press)
        seconds, cpu = time.perf_counter() - start, _cpu() - cpu
        assert all(o.written and not o.problems for o in outcomes), [o.problems for o in outcomes]
        start = time.perf_counter()
        again = build_books(root, KINDS, LANGS, Path(tmp), workers=workers, press=press)
        unchanged_seconds = time.perf_counter() - start
        assert all(o.unchanged for o in again), "a second build with nothing changed laid a book out again"
    return {"seconds": seconds, "cpu_seconds": cpu, "unchanged_seconds": unchanged_seconds,
            "books": {f"{o.kind}-{o.lang}": {"pages": o.pages, "bytes": o.size,
                                             "seconds": o.seconds} for o in outcomes}}


def breakdown(root: Path, press: bool) -> dict:
    """For each book: compose (templates and cards to HTML), render (WeasyPrint: the screen PDF and,
    with ``press``, the print file and booklets from the same layout), read back (pypdf: the screen
    PDF's check and the print file's preflight)."""
    load = load_database(root)
    project = load_project(root, load.db, load_phrasebooks(root))
    out = {}
    for kind in KINDS:
        for lang in LANGS:
            t0 = time.perf_counter()
            composed = compose(project, kind, lang)
            t1 = time.perf_counter()
            rendered = render_book(composed.html, composed.tail_html, root.resolve().as_uri() + "/", composed.policy,
                                   press="bench" if press else None)
            t2 = time.perf_counter()
            check_pdf(rendered.screen, text=False)
            if rendered.press:
                press_problems(rendered.press)
            t3 = time.perf_counter()
            out[f"{kind}-{lang}"] = {"compose_s": t1 - t0, "render_s": t2 - t1, "check_s": t3 - t2,
                                     "pages": rendered.pages}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path("."))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="end-to-end runs; the best is kept")
    ap.add_argument("--screen-only", action="store_true", help="the screen PDFs only (forge render books)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    press = not args.screen_only

    runs = [end_to_end(args.root, args.workers, press) for _ in range(max(1, args.repeat))]
    best = min(runs, key=lambda r: r["seconds"])
    figures = {"workers": args.workers, "print_files": press, "end_to_end_s": best["seconds"],
               "cpu_s": best["cpu_seconds"], "unchanged_s": best["unchanged_seconds"], "books": best["books"],
               "breakdown": breakdown(args.root, press)}
    if args.json:
        print(json.dumps(figures, indent=2, default=lambda v: round(v, 2)))
        return
    what = "screen and print files" if press else "screen PDFs only"
    print(f"both books, en+fr, {what}, {args.workers} workers: {best['seconds']:6.2f} s (target <= 10 s), "
          f"{best['cpu_seconds']:.1f} CPU s; again with nothing changed: {best['unchanged_seconds']:5.2f} s")
    for name, b in best["books"].items():
        parts = figures["breakdown"][name]
        print(f"  {name:<14} {b['pages']:3d} pages {b['bytes'] / 1024:6.0f} KB   "
              f"compose {parts['compose_s']:5.2f} s  render {parts['render_s']:5.2f} s  "
              f"read back {parts['check_s']:5.2f} s")


if __name__ == "__main__":
    main()
