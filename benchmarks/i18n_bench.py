"""How long `forge i18n export` (.po and XLIFF) and an unchanged `forge i18n import` take on a project.

Usage: python benchmarks/i18n_bench.py [ROOT] [RUNS]; prints the best wall and CPU times of each step
(after one warm-up run), and the number of strings. The import is run on a copy of ROOT's translated
files, so the project is never written; an unchanged import must change no byte (checked here too).
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path


def timed(step, runs: int) -> tuple[float, float, object]:
    step()  # imports, as a CLI start pays once
    wall, cpu, out = [], [], None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = step()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu), out


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    from forge.i18n import exchange, importer

    with tempfile.TemporaryDirectory(prefix="forge-i18n-bench-") as tmp:
        copy = Path(tmp) / "project"
        for part in ("cards", "locales", "schema", "templates"):
            if (root / part).is_dir():
                shutil.copytree(root / part, copy / part)
        w, c, items = timed(lambda: exchange.to_po(exchange.catalog(copy)), runs)
        print(f"export .po:   wall best {w:.3f} s, CPU best {c:.3f} s ({len(exchange.catalog(copy))} strings)")
        w, c, data = timed(lambda: exchange.to_xliff(exchange.catalog(copy)), runs)
        print(f"export XLIFF: wall best {w:.3f} s, CPU best {c:.3f} s ({len(data):,} bytes)")
        po = Path(tmp) / "fr.po"
        po.write_text(exchange.to_po(exchange.catalog(copy)), encoding="utf-8")
        before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
        w, c, result = timed(lambda: importer.apply(copy, importer.read(po)[0], str(po)), runs)
        same = before == {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
        print(f"import .po (unchanged): wall best {w:.3f} s, CPU best {c:.3f} s "
              f"({result.strings} strings, {len(result.changed)} written, no byte changed: {same})")


if __name__ == "__main__":
    main()
