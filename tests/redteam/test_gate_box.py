"""The gate runs in a box (issue 23 §4): each check of `forge check` runs in a process of its own under OS limits.

Before, every check ran in forge's one process with no limit: an SVG's `<use>` chains hung `forge check` at
1.1 GB for five minutes, and a file whose reading allocates, spins or floods ended in a hang, an out-of-memory
kill or "internal error". Now a check that exceeds its memory, CPU, time or output budget fails with a
`[budget]` finding at the file it was reading, exit 1, at once and without a traceback. The costly reading is
played here by the schema check (or the simulation's results) replaced after it opened a card file, so the
tests hold whichever parser a real attack would drive; `forge.checks.check.limits` is narrowed for that check only.
Each test must fail without the box's limit it names: its attack ends, or is granted, when nothing stops it (an
allocation the machine and ``no_hang``'s own cap grant, a spin or a wait of bounded length, art that svglib draws).
A test about one check's box runs that check alone (`forge check --only`, which brings validate along for the
checks that read the cards it accepts): the command, its boxes and its exit status, without the others' time.

Also: `forge check` composes every book in every language, as `forge build` does, so a book whose prose does
not compose fails the gate instead of the build.
"""
from __future__ import annotations

import dataclasses
import shutil
import time
from pathlib import Path

import pytest

from forge.checks import check as check_module
from forge.core import safeio
from forge.core.svgsafe import sanitise
from forge.core.findings import Finding
from forge.carddb.model import Position
from forge.carddb.schema import schema_text

from ..conftest import REPO, invoke


@pytest.fixture
def gated(shipped: Path) -> Path:
    shutil.copytree(REPO / "docs", shipped / "docs")
    return shipped


def run(root: Path, *args: str) -> tuple[int, str]:
    result = invoke(["check", "--root", str(root), "--games", "2", *args])
    return result.exit_code, result.output


def narrow(monkeypatch, stage: str, **limits) -> None:
    """The box of ``stage`` narrowed to ``limits``; the other checks keep theirs (no effect before the box)."""
    real = getattr(check_module, "limits", None)

    def narrowed(name, *args, **kwargs):
        box = real(name, *args, **kwargs)
        return dataclasses.replace(box, **limits) if name == stage else box

    monkeypatch.setattr(check_module, "limits", narrowed, raising=False)


def costly(monkeypatch, root: Path, work) -> None:
    """The schema check reads cards/red.yaml, then does ``work`` (as a parser driven by that file would)."""
    def schema_text():
        safeio.read_bytes(root / "cards" / "red.yaml", root)
        return work()

    monkeypatch.setattr(check_module, "schema_text", schema_text)


#: A memory budget the tests narrow a box to, and an allocation past it that the machine grants without the box:
#: 1 GiB, under the 2 GiB more address space ``no_hang`` leaves the test (and so its boxes' children), and
#: zeroed by calloc (``bytes``, never ``bytearray``), so no page is touched however far it gets.
NARROW_MEMORY = 256 << 20
GRANTED = 1 << 30


def assert_clean_failure(code: int, out: str) -> None:
    assert code == 1, out
    assert "Traceback" not in out and "internal error" not in out
    assert out.splitlines()[-1].startswith("✗ check failed: ")


def test_a_check_that_allocates_past_its_memory_is_a_budget_finding(gated, monkeypatch, no_hang):
    costly(monkeypatch, gated, lambda: len(bytes(GRANTED)) and schema_text())  # unboxed: granted, a fine schema
    narrow(monkeypatch, "schema", memory=NARROW_MEMORY)
    started = time.monotonic()
    code, out = run(gated, "--only", "schema")
    assert_clean_failure(code, out)
    assert ("cards/red.yaml: [budget] the stage schema exceeded its memory budget (256 MiB) while reading "
            "cards/red.yaml") in out
    assert "✗ schema: over its memory budget" in out
    assert time.monotonic() - started < 60


def test_a_check_that_spins_past_its_cpu_is_a_budget_finding(gated, monkeypatch, no_hang):
    def spin():
        end = time.process_time() + 10  # before the box: 10 s of CPU, then a fine schema
        while time.process_time() < end:
            pass
        return schema_text()

    costly(monkeypatch, gated, spin)
    narrow(monkeypatch, "schema", cpu=1)
    code, out = run(gated, "--only", "schema")
    assert_clean_failure(code, out)
    assert "cards/red.yaml: [budget] the stage schema exceeded its CPU budget (1 s) while reading cards/red.yaml" in out


def test_a_check_that_waits_past_its_time_is_a_budget_finding(gated, monkeypatch, no_hang):
    costly(monkeypatch, gated, lambda: time.sleep(10) or schema_text())
    narrow(monkeypatch, "schema", wall=1.0)
    code, out = run(gated, "--only", "schema")
    assert_clean_failure(code, out)
    assert ("cards/red.yaml: [budget] the stage schema exceeded its time budget (1 s) while reading "
            "cards/red.yaml") in out


@pytest.mark.slow
def test_a_check_whose_result_floods_is_a_budget_finding(gated, monkeypatch, no_hang):
    def flood(db, games, seed, jobs):
        where = Position("cards/red.yaml", 1, 1)
        return [Finding(where, "simulate", f"game {i} failed: " + "x" * 200) for i in range(100_000)], {
            "games": games, "errors": 100_000, "capped": 0, "seed": seed, "agents": "heuristic"}

    monkeypatch.setattr(check_module, "smoke", flood)
    code, out = run(gated, "--only", "simulate")
    assert_clean_failure(code, out)
    assert "simulate: [budget] the stage simulate exceeded its output budget (8 MiB)" in out
    assert len(out) < 100_000  # the flood never reaches the log


@pytest.mark.parametrize("fmt, expected", [
    ("github", ["::error file=cards/red.yaml,title=forge [budget]::the stage schema exceeded its memory budget"]),
    ("json", ['"file": "cards/red.yaml",', '"rule": "budget",']),
    ("sarif", ['"uri": "cards/red.yaml"', '"ruleId": "budget"']),
], ids=["github", "json", "sarif"])
@pytest.mark.slow
def test_a_budget_finding_shows_in_the_ci_formats(gated, monkeypatch, no_hang, fmt, expected):
    costly(monkeypatch, gated, lambda: len(bytes(GRANTED)) and schema_text())
    monkeypatch.setattr(check_module, "BOX_MEMORY", NARROW_MEMORY // 2)  # every check's: --budget 2 makes it 256 MiB
    code, out = run(gated, "--only", "schema", "--format", fmt, "--budget", "2")  # --budget scales every limit
    assert code == 1 and "Traceback" not in out
    assert all(part in out for part in expected), out
    assert "memory budget (256 MiB) while reading cards/red.yaml" in out


@pytest.mark.slow
def test_a_book_that_does_not_compose_fails_the_gate(gated):
    for lang in ("en", "fr"):  # the same change in both languages: parity has nothing to say
        prose = gated / "templates" / "books" / f"rulebook.{lang}.md"
        text = prose.read_text(encoding="utf-8")
        assert "divine-shield" in text
        prose.write_text(text.replace("divine-shield", "no-such-shield"), encoding="utf-8")  # a card that is not there
    code, out = run(gated)
    assert code == 1, out
    assert [line for line in out.splitlines() if "[book]" in line and "no-such-shield" in line]
    assert "✗ books:" in out and out.splitlines()[-1] == "✗ check failed: books"


def _long_path(segments: int) -> bytes:
    """An SVG of one path of ``segments`` lines: within every budget of the sanitiser (one element, 6 characters a
    segment), yet svglib takes a few CPU seconds to draw 200,000 of them (about 17 µs a segment, here)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
            '<path d="M0 0' + " L1 2" * segments + '"/></svg>').encode()


@pytest.mark.slow
def test_card_art_that_the_sanitiser_accepts_but_costs_past_the_cpu_budget_stops_the_gate_at_the_art(
        gated, monkeypatch, no_hang):
    """What the box adds to the sanitiser of §3 (which refuses the issue's `<use>` chains itself, before svglib:
    test_svg_budget): art within its every budget that still costs more than the box allows. validate's box is
    narrowed to 1 CPU s (validate spends about 0.3 s on the shipped game before it reaches the art); the gate
    ends with a [budget] finding at the picture, not a pass after the seconds the drawing takes unboxed."""
    art = _long_path(200_000)
    sanitise(art)  # accepted: no SVGRefused
    (gated / "art").mkdir()
    (gated / "art" / "long.svg").write_bytes(art)
    cards = gated / "cards" / "red.yaml"
    text = cards.read_text(encoding="utf-8")
    old = "    art: {icon: flint-spark, accents: [small-fire], layout: corner}"
    assert old in text
    cards.write_text(text.replace(old, "    art: {image: art/long.svg, fit: contain}", 1), encoding="utf-8")
    narrow(monkeypatch, "validate", cpu=1)
    code, out = run(gated, "--only", "validate")
    assert_clean_failure(code, out)
    assert ("art/long.svg: [budget] the stage validate exceeded its CPU budget (1 s) while reading art/long.svg"
            in out), out
    assert "✗ validate: over its CPU budget" in out
