"""forge check: one report over every check, exit 1 when one fails."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from forge.checks.check import ORDER, CheckReport, UnknownCheck, chosen, run_check

from ..conftest import invoke


def run(root: Path, *args: str):
    """The whole gate on the command line: (exit status, stdout)."""
    result = invoke(["check", "--root", str(root), "--games", "4", *args])
    return result.exit_code, result.stdout


def gate(root: Path, name: str, strict: bool = False) -> tuple[int, str]:
    """The check ``name`` alone, run in this process (``run_check``: the function ``forge check`` runs in its box)
    and reported as the command reports it: (the exit status it gives, the report's text). Where a test is about
    one check, this proves it without the other five and without a box; a few tests here run the whole gate."""
    from forge.commands.check import to_text

    report = CheckReport([run_check(name, root, strict)])
    return report.exit_status, to_text(report)


def checks_of(out: str) -> list[str]:
    """The report's lines of the checks and its verdict, without their times."""
    return [line.rsplit(" (", 1)[0] for line in out.splitlines() if line[:1] in "✓✗–"]


def refuse_the_cards(root: Path) -> None:
    """A card validate refuses (a negative cost): the checks that need the cards are skipped."""
    red = root / "cards/red.yaml"
    red.write_text(red.read_text(encoding="utf-8").replace("cost: 1\n", "cost: -1\n", 1), encoding="utf-8")


@pytest.mark.slow
def test_the_shipped_project_passes(gated):
    code, out = run(gated)
    assert code == 0, out
    assert checks_of(out) == ["✓ validate: 0 errors, 0 warnings", "✓ parity: 0 errors, 0 warnings", "✓ schema: up to date",
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
    assert gate(gated, "validate", strict=True)[0] == 1
    code, out = run(gated, "--strict", "--only", "validate")  # on the command line: --strict reaches the boxed check
    assert code == 1
    assert out.splitlines()[-1] == "✗ check failed: validate"


@pytest.mark.slow
def test_an_invalid_database_skips_the_simulation(gated):
    refuse_the_cards(gated)
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


def test_a_check_named_that_needs_the_cards_brings_validate_along():
    assert chosen(None) == ORDER
    assert chosen(["schema"]) == ("schema",)
    assert chosen(["simulate", "parity", "simulate"]) == ("validate", "parity", "simulate")  # in the report's order
    assert chosen(["docs", "validate"]) == ("validate", "docs")
    assert chosen("parity") == ("parity",)  # one name, not its letters
    with pytest.raises(UnknownCheck, match="unknown check 'lint'; the checks are validate, parity, schema, books, "
                                           "docs, simulate"):
        chosen(["lint", "schema"])
    with pytest.raises(UnknownCheck, match="no check named"):
        chosen([])
    with pytest.raises(UnknownCheck, match="unknown check 'lint'"):
        run_check("lint", ".")


@pytest.mark.slow
def test_only_runs_the_checks_named_and_exits_by_them(gated):
    refuse_the_cards(gated)  # the whole gate would fail: --only schema does not look at the cards
    result = invoke(["-v", "check", "--root", str(gated), "--only", "schema"])  # -v: a line per check it starts
    assert [line for line in result.stderr.splitlines() if line.startswith("… ")] == ["… schema"]
    assert (result.exit_code, checks_of(result.stdout)) == (0, ["✓ schema: up to date", "✓ all checks passed"])
    (gated / "schema/cards.schema.json").write_text("{}\n", encoding="utf-8")
    code, out = run(gated, "--only", "schema")
    assert (code, checks_of(out)) == (1, ["✗ schema: out of date", "✗ check failed: schema"]), out


@pytest.mark.slow
def test_only_books_on_cards_validate_refuses_reports_validate_and_skips_the_books(gated):
    refuse_the_cards(gated)
    code, out = run(gated, "--only", "books")
    assert code == 1, out
    assert "cost: -1 is less than the minimum of 0" in out
    lines = checks_of(out)
    assert [line.split(":")[0] for line in lines] == ["✗ validate", "– books", "✗ check failed"]
    assert lines[1:] == ["– books: skipped: the card database does not validate", "✗ check failed: validate"]


def test_an_unknown_check_is_a_usage_error_that_lists_the_checks(gated):
    """As ``forge.cli`` runs the app (``standalone_mode=False``): the usage error it prints as one line, exit 2."""
    result = invoke(["check", "--root", str(gated), "--only", "validate,simulation"], standalone_mode=False)
    assert result.exception.exit_code == 2 and not result.stdout  # nothing ran
    assert result.exception.format_message() == ("Invalid value for '--only': unknown check 'simulation'; the checks "
                                                 "are validate, parity, schema, books, docs, simulate")


@pytest.mark.slow
def test_the_ci_reports_list_only_the_checks_that_ran(gated):
    code, out = run(gated, "--only", "docs", "--only", "schema", "--format", "json")  # repeated, or comma-separated
    report = json.loads(out)
    assert code == 0 and report["ok"]
    assert [c["name"] for c in report["checks"]] == ["validate", "schema", "docs"]  # docs reads the accepted cards
    code, out = run(gated, "--only", "schema", "--format", "junit")
    assert code == 0 and [s.get("name") for s in ET.fromstring(out).iter("testsuite")] == ["schema"]
