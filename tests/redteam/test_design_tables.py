"""The design notes' generated tables (docs/design.md) hold card names as text.

A card name is contributor text. Before, it went into the Markdown table raw: a ``|`` split the
row into more cells, and a name holding ``<!-- /forge:table -->`` ended the generated block
early, so `forge docs` wrote the rest of the table as hand-kept prose that no later run replaced.
"""
from __future__ import annotations

from pathlib import Path

from forge.render.design import DESIGN_DOC, fill
from forge.checks.validate import validate
from tests.conftest import REPO

EVIL = "Back|draft <!-- /forge:table --> x"


def test_a_card_name_cannot_split_a_cell_or_end_the_generated_block(shipped: Path):
    path = shipped / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('name: {en: "Backdraft"', f'name: {{en: "{EVIL}"', 1),
                    encoding="utf-8")
    report = validate(shipped, extra=False)
    document = (REPO / DESIGN_DOC).read_text(encoding="utf-8")
    filled = fill(document, report.load.db, report.books)
    assert filled.count("<!-- /forge:table -->") == document.count("<!-- /forge:table -->")
    [row] = [line for line in filled.splitlines() if "forge:table --> x" in line]
    assert "Back\\|draft &lt;!-- /forge:table --> x" in row
    # the row has as many cells as the table's header
    table = filled[:filled.index(row)].rsplit("\n\n", 1)[-1].splitlines()
    header = next(line for line in table if line.startswith("| "))
    assert row.replace("\\|", "").count("|") == header.count("|")
