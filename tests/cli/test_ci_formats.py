"""`--format github|junit|sarif` on the three gates (issue 9 §2): what CI servers read natively."""
from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from forge.core.findings import Finding
from forge.carddb.model import Position
from forge.core import reports
from ..conftest import invoke

SARIF_SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-2.1.0-rtm.5.json").read_text())


def _break(root: Path) -> None:
    """A negative cost at a known place: cards/black.yaml, the first card's `cost:` line."""
    path = root / "cards" / "black.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("cost:"))
    lines[at] = lines[at].split("cost:")[0] + "cost: -1\n"
    path.write_text("".join(lines), encoding="utf-8")
    _break.line = at + 1


def _run(*args: str):
    return invoke(list(args))


@pytest.fixture
def broken(shipped: Path) -> Path:
    _break(shipped)
    return shipped


def test_github_annotations_point_at_the_file_and_line(broken):
    result = _run("validate", "--root", str(broken), "--format", "github", "--quick")
    assert result.exit_code == 1
    annotations = [line for line in result.output.splitlines() if line.startswith("::error ")]
    assert any(a.startswith(f"::error file=cards/black.yaml,line={_break.line},col=") and "title=forge [schema]" in a
               for a in annotations), annotations
    assert result.output.rstrip().splitlines()[-1].startswith("✗ ")  # the summary line stays for the log


def test_github_escapes_what_a_pull_request_wrote():
    finding = Finding(Position("cards/a,b:c.yaml", 3, 4), "schema", "100% wrong\nsecond line", hint="x, y")
    line = reports.github([finding])
    assert line == ("::error file=cards/a%2Cb%3Ac.yaml,line=3,col=4,title=forge [schema]::"
                    "100%25 wrong%0Asecond line%0Ahint: x, y")
    assert "\n" not in line  # one workflow command, whatever the message holds


def test_junit_fails_one_case_per_error_and_names_the_file(broken):
    result = _run("validate", "--root", str(broken), "--format", "junit", "--quick")
    assert result.exit_code == 1
    root = ET.fromstring(result.output.encode())
    assert root.tag == "testsuites" and int(root.get("failures")) >= 1
    failed = [case for case in root.iter("testcase") if case.find("failure") is not None]
    assert any(case.get("file") == "cards/black.yaml" and case.get("line") == str(_break.line) for case in failed)
    assert int(root.get("tests")) == sum(1 for _ in root.iter("testcase"))


def test_junit_of_a_clean_check_has_a_passing_case_per_check(shipped):
    shutil.copytree(Path(__file__).parents[2] / "docs", shipped / "docs")
    result = _run("check", "--root", str(shipped), "--format", "junit", "--games", "2")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.output.encode())
    assert [s.get("name") for s in root.iter("testsuite")] == ["validate", "parity", "schema", "books", "docs",
                                                                "simulate"]
    assert root.get("failures") == "0"


def test_junit_marks_the_checks_a_broken_database_skips(broken):
    result = _run("check", "--root", str(broken), "--format", "junit", "--games", "2")
    assert result.exit_code == 1
    root = ET.fromstring(result.output.encode())
    skipped = {s.get("name") for s in root.iter("testsuite") if s.get("skipped") == "1"}
    assert skipped == {"books", "docs", "simulate"}


def test_junit_survives_control_characters_in_a_message():
    finding = Finding(Position("cards/x.yaml", 1, 1), "schema", "bad \x00\x1b byte")
    text = reports.junit([reports.Suite("validate", [finding])], "forge validate")
    root = ET.fromstring(text.encode())  # would raise on a raw NUL or ESC
    assert root.find(".//failure").get("message") == "bad \ufffd\ufffd byte"


def test_sarif_is_valid_against_the_2_1_0_schema_and_locates_each_result(broken):
    result = _run("validate", "--root", str(broken), "--format", "sarif", "--quick")
    assert result.exit_code == 1
    log = json.loads(result.output)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "forge"
    hit = [r for r in run["results"] if r["ruleId"] == "schema"]
    loc = hit[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "cards/black.yaml", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == _break.line
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_sarif_of_a_clean_run_is_valid_and_empty(shipped):
    result = _run("validate", "--root", str(shipped), "--format", "sarif", "--quick")
    assert result.exit_code == 0
    log = json.loads(result.output)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []


def test_sarif_schema_check_is_not_vacuous():
    """The schema really constrains: a result with a line 0 region is refused."""
    bad = json.loads(reports.sarif([Finding(Position("cards/x.yaml", 2, 3), "schema", "m")]))
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SARIF_SCHEMA).validate(bad)


@pytest.mark.parametrize("fmt", ["github", "junit", "sarif"])
def test_parity_takes_the_ci_formats(shipped, fmt):
    fr = shipped / "locales" / "fr.yaml"
    text = fr.read_text(encoding="utf-8")
    fr.write_text(text.replace("threshold: \"{n}", "threshold: \"{m}", 1), encoding="utf-8")
    result = _run("parity", "--root", str(shipped), "--format", fmt)
    assert result.exit_code == 1, result.output
    assert "locales/fr.yaml" in result.output
