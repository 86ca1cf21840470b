"""One gate for every command that makes something from the cards (issue 9 §2).

`forge validate` is the judge: a database it refuses (a duplicate id, a card the
rulebook forbids, a file that does not load) gives no kit, no book, no balance
report and no playable game, because each would carry the error into something a
person trusts. `--force` (where a command offers it) makes a draft anyway, marked.

A command that prints no card text (the simulation, the play server, the replay
viewer) is not refused for a locale or the card template: they are the
translators' and the renderer's. The simulation and the replay viewer run
without them; the play server checks the one table it reads (``play:``) itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.findings import ERROR, Finding

#: Files a command that prints no card text does not read.
TEXT_SOURCES = ("locales/", "templates/")


@dataclass
class Verdict:
    """validate's report on the project and the errors that refuse it for this command."""

    checked: object  # forge.checks.validate.Report
    errors: list[Finding]

    @property
    def load(self):
        return self.checked.load

    @property
    def refused(self) -> bool:
        return bool(self.load.io_error or self.errors)

    @property
    def findings(self) -> list[Finding]:
        """What to show for a refusal: the load's findings and the refusing errors, once each, sorted."""
        return sorted(set(self.load.findings) | set(self.errors))

    def draft_reason(self) -> str:
        return draft_reason(self.errors)


def draft_reason(errors: list[Finding]) -> str:
    """The line a forced draft carries: how many errors validate found ("" for none)."""
    n = len(errors)
    return f"{n} error{'s' if n > 1 else ''} in the card database (forge validate)" if n else ""


def judge(root: Path, prints_text: bool = True, leave: frozenset[str] = frozenset(),
          leave_files: tuple[str, ...] = ()) -> Verdict:
    """Validate ``root`` for a command: ``leave`` names rules the command reports itself, ``leave_files``
    files it checks itself; without ``prints_text`` the locales and templates do not refuse it."""
    from .validate import validate  # lazy: loads yaml, forge.carddb ... only when needed

    checked = validate(root, extra=True, layout=False)
    skipped = leave_files + (() if prints_text else TEXT_SOURCES)
    errors = [f for f in checked.findings
              if f.severity == ERROR and f.rule not in leave and not _under(f.position.file, skipped)]
    return Verdict(checked, errors)


def _under(file: str, prefixes: tuple[str, ...]) -> bool:
    return any(file == p or file.startswith(p) for p in prefixes) if file else False
