"""forge check: one report over every check, exit 1 when one fails."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ..conftest import invoke


def run(root: Path, *args: str):
    """The whole gate on the command line: (exit status, stdout)."""
    result = invoke(["check", "--root", str(root), "--games", "4", *args])
    return result.exit_code, result.stdout


def gate(root: Path, name: str, strict: bool = False) -> tuple[int, str]:
    """The check ``name`` alone, run in this process as ``forge check`` runs it in its box (``forge.checks.check``'s
    own function) and reported as the command reports it: (the exit status it gives, the report's text). Where a
    test is about one check, this proves it without the other five; a few tests here run the whole gate."""
    from forge.checks import check as checks
    from forge.commands.check import to_text

    ran = getattr(checks, f"_{name}")(root)
    report = checks.CheckReport([checks._result(name, ran.findings, strict, ran.summary, 0.0)], ran.io_error)
    return (2 if report.io_error else 0 if report.ok else 1), to_text(report)


@pytest.mark.slow
def test_the_shipped_project_passes(gated):
    code, out = run(gated)
    lines = [line.rsplit(" (", 1)[0] for line in out.splitlines() if line[:1] in "✓✗–"]
    assert code == 0, out
    assert lines == ["✓ validate: 0 errors, 0 warnings", "✓ parity: 0 errors, 0 warnings", "✓ schema: up to date",
                     "✓ books: 4 books composed, 0 errors, 0 warnings", "✓ docs: up to date", "✓ simulate: 4 games (heuristic agents, seed 0), 0 errors",
                     "✓ all checks passed"]


@pytest.mark.slow
def test_a_stale_schema_fails_the_gate(gated):
    (gated / "schema/cards.schema.json").write_text("{}\n", encoding="utf-8")
    code, out = gate(gated, "schema")
    assert code == 1
    assert ("schema/cards.schema.json: [generated] schema/cards.schema.json is out of date\n"
            "    hint: run `forge schema` and commit it") in out
    assert "✗ schema: out of date" in out
    assert out.splitlines()[-1] == "✗ check failed: schema"


@pytest.mark.slow
def test_a_stale_design_doc_fails_the_gate(gated):
    design = gated / "docs/design.md"
    text = design.read_text(encoding="utf-8")
    design.write_text(text.replace("<!-- forge:table factions -->\n", "<!-- forge:table factions -->\nstale\n"),
                      encoding="utf-8")
    code, out = gate(gated, "docs")
    assert code == 1
    assert out.splitlines()[-1] == "✗ check failed: docs"


@pytest.mark.slow
def test_warnings_fail_only_with_strict(gated):
    red = gated / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")  # no schema line: a warning
    code, out = gate(gated, "validate")
    assert code == 0 and "✓ validate: 0 errors, 1 warning" in out
    code, out = run(gated, "--strict")  # the whole gate: --strict reaches the checks
    assert code == 1
    assert out.splitlines()[-1] == "✗ check failed: validate"


@pytest.mark.slow
def test_an_invalid_database_skips_the_simulation(gated):
    red = gated / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace("cost: 1\n", "cost: -1\n", 1), encoding="utf-8")
    code, out = run(gated, "--format", "json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    status = {c["name"]: c["status"] for c in report["checks"]}
    # parity too: a card that fails the schema is never silently left out of the comparison (issue 11)
    assert status == {"validate": "failed", "parity": "failed", "schema": "ok", "books": "skipped", "docs": "skipped",
                      "simulate": "skipped"}
    validate, parity = report["checks"][0], report["checks"][1]
    assert "cost: -1 is less than the minimum of 0" in [f["message"] for f in validate["findings"]]
    assert "cost: -1 is less than the minimum of 0" in [f["message"] for f in parity["findings"]]


def test_no_cards_folder_is_an_io_error(tmp_path):
    code, out = run(tmp_path)
    assert code == 2
    assert "cards: [io] no `cards/` folder" in out
