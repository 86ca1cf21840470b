"""``forge check``: the CI gate for a change to the card database, every check in one process.

Five checks run in turn and each becomes a ``CheckResult``: the full validation, the
English/French parity, the freshness of the generated schema and design tables, and a
smoke batch of simulated games. Nothing here prints or exits.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import safeio
from .database import unsafe_finding
from .findings import ERROR, WARNING, Finding
from .limits import SMOKE_GAMES_CHECK
from .model import Position
from .i18n.parity import parity
from .schema import SCHEMA_PATH, schema_text
from .simulate import smoke
from .validate import Report, validate

SMOKE_GAMES = SMOKE_GAMES_CHECK
PASSED, FAILED, SKIPPED = "ok", "failed", "skipped"


@dataclass
class CheckResult:
    """One check: its name, its status, what it says, its findings, how long it took."""

    name: str
    status: str
    summary: dict = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"name": self.name, "status": self.status, "ok": self.status != FAILED,
                "seconds": round(self.seconds, 2), "summary": self.summary,
                "findings": [f.to_json() for f in self.findings]}


@dataclass
class CheckReport:
    checks: list[CheckResult] = field(default_factory=list)
    io_error: bool = False

    @property
    def ok(self) -> bool:
        return all(c.status != FAILED for c in self.checks)

    def to_json(self) -> dict:
        return {"ok": self.ok, "checks": [c.to_json() for c in self.checks]}


def check(root: Path | str, games: int = SMOKE_GAMES, seed: int = 0, jobs: int = 1,
          strict: bool = False, progress: Callable[[str], None] | None = None) -> CheckReport:
    """Run every check on the project at ``root``; ``strict`` makes warnings fail their check.

    ``progress(step)`` is told each check as it starts (the command's progress line on a terminal)."""
    root = Path(root)
    say = progress or (lambda step: None)
    report = CheckReport()
    say("validate")
    started = time.perf_counter()
    checked = validate(root, extra=True)
    report.io_error = checked.io_error
    report.checks.append(_result("validate", checked.findings, strict, checked.summary(), started))
    say("parity")
    started = time.perf_counter()
    matched = parity(root, layout=False)  # validate above measured the text fit
    report.io_error |= matched.io_error
    report.checks.append(_result("parity", matched.findings, strict, matched.summary(), started))
    say("schema")
    report.checks.append(_timed("schema", lambda: _schema_findings(root), strict))
    usable = not any(f.severity == ERROR for f in checked.findings) and not checked.io_error
    if usable:
        say("docs")
        report.checks.append(_timed("docs", lambda: _docs_findings(root, checked), strict))
        say(f"simulate: {games} games")
        started = time.perf_counter()
        findings, summary = smoke(checked.load.db, games, seed, jobs)
        report.checks.append(_result("simulate", findings, strict, summary, started))
    else:
        for name in ("docs", "simulate"):
            report.checks.append(CheckResult(name, SKIPPED, {"reason": "the card database does not validate"}))
    return report


def _result(name: str, findings: list[Finding], strict: bool, summary: dict, started: float) -> CheckResult:
    failing = {ERROR, WARNING} if strict else {ERROR}
    status = FAILED if any(f.severity in failing for f in findings) else PASSED
    return CheckResult(name, status, summary, list(findings), time.perf_counter() - started)


def _timed(name: str, run, strict: bool) -> CheckResult:
    started = time.perf_counter()
    findings = run()
    return _result(name, findings, strict, {"current": not findings}, started)


def _read_generated(root: Path, rel: str, hint: str) -> str | list[Finding]:
    """The text of a generated file, or the finding that says why it cannot be compared.

    Read through ``safeio``: a generated file replaced by a pipe, a device or a link
    out of the project is refused with a finding, never read.
    """
    try:
        return safeio.read_text(root / rel, root)
    except safeio.UnsafeInput as exc:
        if exc.rule != "io":
            return [unsafe_finding(exc, rel)]
    except UnicodeDecodeError:
        pass
    return [Finding(Position(rel), "generated", f"{rel} is missing or unreadable", hint)]


def _stale(root: Path, rel: str, expected: str, command: str) -> list[Finding]:
    """A finding when the generated file ``rel`` is missing or differs from what forge would write."""
    current = _read_generated(root, rel, f"run `forge {command}`")
    if isinstance(current, list):
        return current
    if current != expected:
        return [Finding(Position(rel), "generated", f"{rel} is out of date", f"run `forge {command}` and commit it")]
    return []


def _schema_findings(root: Path) -> list[Finding]:
    return _stale(root, SCHEMA_PATH, schema_text(), "schema")


def _docs_findings(root: Path, checked: Report) -> list[Finding]:
    from .design import DESIGN_DOC, fill

    current = _read_generated(root, DESIGN_DOC, "restore it from version control, then run `forge docs`")
    if isinstance(current, list):
        return current
    return _stale(root, DESIGN_DOC, fill(current, checked.load.db, checked.books), "docs")


__all__ = ["CheckReport", "CheckResult", "check", "SMOKE_GAMES"]
