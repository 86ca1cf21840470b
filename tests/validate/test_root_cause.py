"""The root cause first, and every finding at a real file and line (issue 9 §2).

One tab character in a card file used to give three count errors (the file's cards
were missing from the counts) before the syntax error itself.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.checks.validate import validate


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _tab_at_first_card_field(path: Path) -> int:
    lines = _lines(path)
    at = next(i for i, line in enumerate(lines) if line.startswith("    ") and ":" in line)
    lines[at] = "\t" + lines[at].lstrip()
    path.write_text("".join(lines), encoding="utf-8")
    return at + 1


def test_a_tab_gives_one_finding_the_syntax_error(shipped):
    line = _tab_at_first_card_field(shipped / "cards" / "red.yaml")
    report = validate(shipped, extra=True)
    errors = [f for f in report.findings if f.severity == "error"]
    assert [(f.position.file, f.position.line, f.rule) for f in errors] == [("cards/red.yaml", line, "yaml-syntax")]
    assert report.skipped == ["counts", "card_proofs"]
    assert report.summary()["unloaded"] == [f"cards/red.yaml:{line}:{errors[0].position.col}"]


def test_a_card_that_fails_the_schema_does_not_also_break_the_counts(shipped):
    path = shipped / "cards" / "white.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    copies: 2\n", "    copies: two\n", 1), encoding="utf-8")
    report = validate(shipped, extra=False)
    rules = {f.rule for f in report.findings if f.severity == "error"}
    assert rules == {"schema"}
    assert "counts" in report.skipped


def test_the_counts_come_back_once_every_file_loads(shipped):
    """Not a blanket silence: a real count error in a database that loads is still reported."""
    path = shipped / "cards" / "white.yaml"
    text = path.read_text(encoding="utf-8")
    assert "    copies: 2\n" in text
    path.write_text(text.replace("    copies: 2\n", "    copies: 1\n", 1), encoding="utf-8")
    report = validate(shipped, extra=False)
    assert report.skipped == []
    counts = [f for f in report.findings if f.rule == "count"]
    assert counts and "79 recruitment cards" in counts[0].message


def test_count_findings_point_at_a_real_file_and_line(shipped):
    path = shipped / "cards" / "white.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    copies: 2\n", "    copies: 1\n", 1), encoding="utf-8")
    report = validate(shipped, extra=False)
    for f in report.findings:
        assert f.position.line >= 1 and (shipped / f.position.file).is_file(), f.render()


def test_a_missing_starter_set_is_reported_in_a_card_file(shipped):
    (shipped / "cards" / "starter.yaml").unlink()
    report = validate(shipped, extra=False)
    starter = [f for f in report.findings if f.rule == "starter"]
    assert starter
    for f in starter:
        assert f.position.line >= 1 and (shipped / f.position.file).is_file(), f.render()


@pytest.mark.parametrize("mangle", ["top-level list", "not utf-8"])
def test_a_file_that_does_not_load_skips_the_set_wide_checks(shipped, mangle):
    path = shipped / "cards" / "black.yaml"
    if mangle == "top-level list":
        path.write_text("- just\n- a list\n", encoding="utf-8")
    else:
        path.write_bytes(path.read_bytes() + b"\xff\n")
    report = validate(shipped, extra=False)
    assert report.skipped == ["counts"]
    assert not [f for f in report.findings if f.rule in ("count", "starter")]
    assert not [f for f in report.findings if f.rule == "faction" and "not defined" in f.message]
