"""forge.core.box: how a boxed stage ends, each way, as the parent sees it (issue 23 §4)."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from forge.core import safeio
from forge.core.box import Limits, Pool

ROOMY = Limits(memory=1 << 30, cpu=30, wall=60.0, output=1 << 20)
#: More than ROOMY's memory, which the machine grants a child without a limit: zeroed by calloc (``bytes``, never
#: ``bytearray``), so no page is touched, and an allocation that should have failed costs nothing.
PAST_ROOMY = 2 << 30


def boxed(fn, *args, limits: Limits = ROOMY):
    with Pool(1) as pool:
        pool.start("stage", fn, args, limits)
        return pool.wait("stage")


def _read_then(path: str, then):
    safeio.read_bytes(Path(path), Path(path).parent)
    return then()


def test_a_stage_sends_back_its_value_and_its_usage():
    outcome = boxed(lambda n: list(range(n)), 5)
    assert outcome.ok and outcome.value == [0, 1, 2, 3, 4]
    assert outcome.peak > 0 and outcome.seconds > 0 and not outcome.reading


def test_a_stage_names_the_last_file_it_opened(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text("x: 1\n", encoding="utf-8")
    outcome = boxed(_read_then, str(card), lambda: len(bytes(PAST_ROOMY)))
    assert outcome.exceeded == "memory" and outcome.reading == str(card)


def test_a_stage_is_not_charged_for_what_the_parent_holds():
    """The memory limit is on top of the address space the child starts with: a parent holding more than a
    stage's budget (2 GiB here, untouched) leaves its stages their whole budget."""
    held = bytes(PAST_ROOMY)
    outcome = boxed(lambda: len(bytes(256 << 20)), limits=Limits(512 << 20, 30, 60.0, 1 << 20))
    assert outcome.ok and outcome.value == 256 << 20
    del held


def test_an_error_in_a_stage_is_its_failure_not_a_traceback(capfd):
    def broken():
        raise ValueError("no such thing" * 1000)

    outcome = boxed(broken)
    assert not outcome.ok and not outcome.exceeded
    assert outcome.failure.startswith("ValueError: no such thing") and len(outcome.failure) <= 2000
    assert capfd.readouterr() == ("", "")  # the child prints nothing


def test_a_stage_killed_by_a_signal_says_which():
    outcome = boxed(lambda: os.kill(os.getpid(), signal.SIGSEGV))
    assert outcome.failure == "it was stopped by SIGSEGV" and not outcome.exceeded


def test_a_stage_that_spins_exceeds_its_cpu():
    def spin():
        end = time.process_time() + 10  # bounded: without the box, the stage ends well within its wall time
        while time.process_time() < end:
            pass
        return "spun"

    assert boxed(spin, limits=Limits(1 << 30, 1, 60.0, 1 << 20)).exceeded == "CPU"


def test_a_stage_that_waits_exceeds_its_time():
    started = time.monotonic()
    assert boxed(time.sleep, 30, limits=Limits(1 << 30, 30, 0.5, 1 << 20)).exceeded == "time"
    assert time.monotonic() - started < 10


def test_a_stage_whose_result_is_too_large_exceeds_its_output():
    assert boxed(lambda: "x" * (2 << 20), limits=Limits(1 << 30, 30, 60.0, 1 << 20)).exceeded == "output"


def test_a_pool_stops_what_still_runs_on_the_way_out():
    with Pool(2) as pool:
        pool.start("slow", time.sleep, (60,), ROOMY)
        pid = pool.running["slow"].pid
    assert not pool.running
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return
    raise AssertionError("the child outlived its pool")


def test_limits_scale_and_read_in_words():
    box = Limits(1 << 30, 30, 120.0, 8 << 20).scaled(2)
    assert (box.memory, box.cpu, box.wall, box.output) == (2 << 30, 60, 240.0, 16 << 20)
    assert (box.describe("memory"), box.describe("CPU"), box.describe("time"), box.describe("output")) == (
        "2 GiB", "60 s", "240 s", "16 MiB")
