"""How long `forge parity` takes on a project (target: ≤ 1 s on the shipped game).

Usage: python benchmarks/parity_bench.py [ROOT] [RUNS]; prints the best and median wall times and the
best CPU time of the whole check (inventory, every check family, compiled card texts and the text fit).
The first run is what one `forge parity` pays after its imports (the text layout caches start empty);
the later runs reuse them. Add ~0.4 s for the CLI's own start (Python and imports).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    from forge.i18n.parity import parity

    import forge.render.fitcheck  # noqa: F401 - imported by the first run otherwise

    start, start_cpu = time.perf_counter(), time.process_time()
    parity(root)  # the first run: what one `forge parity` pays (the layout caches are empty)
    first, first_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        report = parity(root)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(f"forge parity on {root}: first run {first:.3f} s wall, {first_cpu:.3f} s CPU; then wall best {min(times):.3f} s, median {statistics.median(times):.3f} s; "
          f"CPU best {min(cpu):.3f} s (a loaded machine stretches the wall time, not the CPU time) "
          f"over {runs} runs ({sum(report.strings.values())} strings, {len(report.findings)} findings)")


if __name__ == "__main__":
    main()
