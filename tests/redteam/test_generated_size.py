"""`forge docs` fills table markers: a design document cannot make it write ten times its size.

Before: an 8 MB docs/design.md of 150,000 `<!-- forge:table factions -->` markers was written back as
an 82 MB file (which forge itself then refuses to read, being over the 10 MB input limit).
"""
from __future__ import annotations

import pytest

import shutil
from pathlib import Path

from forge.core import safeio

REPO = Path(__file__).resolve().parents[2]
MARKER = "<!-- forge:table factions -->\nx\n<!-- /forge:table -->\n"


@pytest.mark.slow
def test_a_generated_file_over_the_input_limit_is_not_written(shipped: Path, cli, monkeypatch):
    """The input limit lowered to 512 KiB: 2,000 markers (104 KB) would be filled into 1 MB, the same rule as
    the issue's 8 MB filled into 82 MB under the real 10 MiB, in a fraction of the time."""
    monkeypatch.setattr(safeio, "MAX_INPUT_BYTES", 512 * 1024)
    (shipped / "docs").mkdir()
    design = shipped / "docs" / "design.md"
    design.write_text("# Design\n" + MARKER * 2_000, encoding="utf-8")
    before = design.stat().st_size
    assert before < safeio.MAX_INPUT_BYTES
    result = cli(["docs", "--root", str(shipped)])
    assert result.exit_code == 2, result.output
    assert "more than forge reads back (524,288)" in result.stderr
    assert design.stat().st_size == before


def test_the_shipped_design_document_is_still_filled(shipped: Path, cli):
    shutil.copytree(REPO / "docs", shipped / "docs")
    result = cli(["docs", "--root", str(shipped), "--check"])
    assert result.exit_code == 0, result.output
