"""Findings: what every check reports, as data, rendered once by a reporter.

A check never prints and never exits: it returns findings. The CLI decides the
exit status from them in one place (``exit_status``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .escape import one_line

ERROR = "error"
WARNING = "warning"

#: Exit statuses shared by every command.
EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True, order=True)
class Position:
    """Where something was written: a file relative to the project root, 1-based line and column."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file


@dataclass(frozen=True, order=True)
class Finding:
    """One problem at one place: ``file:line:col: [rule] message``, then a hint on how to fix it."""

    position: Position
    rule: str
    message: str
    hint: str = ""
    severity: str = ERROR

    def render(self) -> str:
        """Two lines at most, whatever a file's name or a card's text holds: a line break there would start
        a line of its own, which a CI log reads as a command (GitHub's ``::error``, ``::stop-commands``)."""
        text = one_line(f"{self.position}: [{self.rule}] {self.message}")
        if self.hint:
            text += f"\n    hint: {one_line(self.hint)}"
        return text

    def to_json(self) -> dict:
        d = asdict(self)
        pos = d.pop("position")
        return {"file": pos["file"], "line": pos["line"], "column": pos["col"], **d}


def exit_status(findings: list[Finding], io_error: bool = False) -> int:
    """2 when a file could not be read, 1 for any error finding, else 0."""
    if io_error:
        return EXIT_USAGE
    return EXIT_FINDINGS if any(f.severity == ERROR for f in findings) else EXIT_CLEAN
