"""Every command that writes: an output it cannot write is exit 2, one line with the path and the reason,
and what it wrote before is kept (`forge build`, `forge simulate` replays, `forge docs`, `forge schema`)."""
from __future__ import annotations

import errno
import os
import re
import shutil
from pathlib import Path

import pytest

from forge.core import atomic

from ..conftest import invoke as forge

REPO = Path(__file__).resolve().parents[2]
STALE_DESIGN = "# Design\n\n<!-- forge:table factions -->\nstale\n<!-- /forge:table -->\n"


def invoke(*args: str):
    return forge(list(args))


def one_error_line(result, path: Path, reason: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.stderr.splitlines() == [f"forge: error: {path}: cannot write ({reason})"]


@pytest.fixture
def full_disk(monkeypatch):
    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return lambda: monkeypatch.setattr(atomic, "_write_all", no_space)


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob(".*.tmp")]


def test_build_into_an_output_that_is_a_file(shipped):
    out = shipped / "output"
    out.write_text("not a folder")
    result = invoke("build", "--root", str(shipped), "--lang", "en", "--games", "12")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(rf"forge: error: {re.escape(str(out))}/\S+: cannot write \({re.escape(str(out))} is not a folder\)",
                        lines[0]), lines[0]
    assert "✓ validate" in result.stdout and "Traceback" not in result.output and "internal error" not in result.output
    assert out.read_text() == "not a folder"


def test_simulate_replays_on_a_full_disk_keep_the_earlier_ones(shipped, full_disk):
    args = ("simulate", "--root", str(shipped), "--games", "2", "--save-replays")
    assert invoke(*args).exit_code == 0
    replays = shipped / "output/replays"
    before = {p.name: p.read_bytes() for p in replays.iterdir()}
    assert len(before) == 2
    full_disk()
    result = invoke(*args, "--seed", "1")
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert re.fullmatch(rf"forge: error: {re.escape(str(replays))}/game-\d+-seed-\d+\.jsonl: cannot write "
                        r"\(No space left on device\)", line), line
    assert {p.name: p.read_bytes() for p in replays.iterdir()} == before
    assert no_temporary_files(replays)


def test_simulate_replays_into_an_output_that_is_a_file(shipped):
    (shipped / "output").write_text("not a folder")
    result = invoke("simulate", "--root", str(shipped), "--games", "1", "--save-replays", "--format", "json")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"forge: error: {shipped / 'output/replays'}/game-")
    assert result.stderr.endswith(f": cannot write ({shipped / 'output'} is not a folder)\n")


def test_docs_on_a_full_disk_keeps_the_document(shipped, full_disk):
    (shipped / "docs").mkdir()
    design = shipped / "docs/design.md"
    design.write_text(STALE_DESIGN, encoding="utf-8")
    full_disk()
    one_error_line(invoke("docs", "--root", str(shipped)), shipped / "docs/design.md", "No space left on device")
    assert design.read_text(encoding="utf-8") == STALE_DESIGN and no_temporary_files(shipped / "docs")


def test_schema_on_a_full_disk_keeps_the_schema(shipped, full_disk):
    schema = shipped / "schema/cards.schema.json"
    schema.write_text("{}", encoding="utf-8")
    full_disk()
    one_error_line(invoke("schema", "--root", str(shipped)), schema, "No space left on device")
    assert schema.read_text(encoding="utf-8") == "{}" and no_temporary_files(shipped / "schema")


def test_schema_into_a_folder_that_is_a_file(shipped):
    shutil.rmtree(shipped / "schema")
    (shipped / "schema").write_text("not a folder")
    one_error_line(invoke("schema", "--root", str(shipped), "--format", "json"), shipped / "schema/cards.schema.json",
                   f"{shipped / 'schema'} is not a folder")


@pytest.mark.parametrize("kind", ["not-utf8", "device"])
def test_docs_refuses_a_design_document_it_cannot_read_safely(shipped, kind):
    (shipped / "docs").mkdir()
    design = shipped / "docs/design.md"
    if kind == "device":
        design.symlink_to("/dev/zero")  # read blindly, it would fill the memory
    else:
        design.write_bytes(b"\xff\xfe not UTF-8")
    result = invoke("docs", "--root", str(shipped))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("forge: error: docs/design.md: "), result.stderr
    assert "Traceback" not in result.output and "internal error" not in result.output
