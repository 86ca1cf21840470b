"""`forge schema` and `forge docs`: generated files are written atomically, `--check` gates CI."""
from __future__ import annotations

import json

from forge.carddb.schema import SCHEMA_PATH, schema_text


def test_schema_check_passes_on_the_repository(cli):
    from ..conftest import REPO

    assert cli(["schema", "--check", "--root", str(REPO)]).exit_code == 0


def test_schema_is_written_then_up_to_date(tmp_path, cli):
    first = cli(["schema", "--root", str(tmp_path), "--format", "json"])
    assert json.loads(first.stdout) == {"path": SCHEMA_PATH, "stale": True, "written": True}
    assert (tmp_path / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text()
    again = cli(["schema", "--root", str(tmp_path)])
    assert again.exit_code == 0 and "already up to date" in again.stdout


def test_stale_schema_fails_the_check_and_is_left_alone(tmp_path, cli):
    (tmp_path / "schema").mkdir()
    (tmp_path / SCHEMA_PATH).write_text("{}", encoding="utf-8")
    result = cli(["schema", "--check", "--root", str(tmp_path)])
    assert result.exit_code == 1 and "out of date" in result.stdout
    assert (tmp_path / SCHEMA_PATH).read_text(encoding="utf-8") == "{}"


def test_docs_fills_the_tables_of_a_design_document(shipped, cli):
    (shipped / "docs").mkdir()
    (shipped / "docs" / "design.md").write_text("# Design\n\n<!-- forge:table rites -->\n\nProse.\n",
                                                 encoding="utf-8")
    assert cli(["docs", "--check", "--root", str(shipped)]).exit_code == 1
    assert cli(["docs", "--root", str(shipped)]).exit_code == 0
    text = (shipped / "docs" / "design.md").read_text(encoding="utf-8")
    assert "| Rite of the Blaze | Rite du Brasier | Red |" in text
    assert text.endswith("<!-- /forge:table -->\n\nProse.\n")
    assert cli(["docs", "--check", "--root", str(shipped)]).exit_code == 0
