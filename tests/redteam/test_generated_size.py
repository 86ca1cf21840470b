"""`forge docs` fills table markers: a design document cannot make it write ten times its size.

Before: an 8 MB docs/design.md of 150,000 `<!-- forge:table factions -->` markers was written back as
an 82 MB file (which forge itself then refuses to read, being over the 10 MB input limit).
"""
from __future__ import annotations

import pytest

import shutil
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
MARKER = "<!-- forge:table factions -->\nx\n<!-- /forge:table -->\n"


@pytest.mark.slow
def test_a_generated_file_over_the_input_limit_is_not_written(shipped: Path, cli):
    (shipped / "docs").mkdir()
    design = shipped / "docs" / "design.md"
    design.write_text("# Design\n" + MARKER * 150_000, encoding="utf-8")
    before = design.stat().st_size
    result = cli(["docs", "--root", str(shipped)])
    assert result.exit_code == 2, result.output
    assert "more than forge reads back" in result.stderr
    assert design.stat().st_size == before


def test_the_shipped_design_document_is_still_filled(shipped: Path, cli):
    shutil.copytree(REPO / "docs", shipped / "docs")
    result = cli(["docs", "--root", str(shipped), "--check"])
    assert result.exit_code == 0, result.output
