"""``forge check``: the CI gate for a change to the card database, each check in a box.

Six checks each become a ``CheckResult``: the full validation, the English/French parity, the
freshness of the generated schema and design tables, the books (every book composed in every
language, as ``forge build`` composes them, with the web edition's strings) and a smoke batch of
simulated games. Each runs in a child process under OS limits (``forge.core.box``), two at a time: a
pull request's file that would make a check hang or eat the memory stops that check at its
budget, as a ``[budget]`` finding at the file it was reading. Nothing here prints or exits.

``check(root, only=...)`` runs some of the checks (``forge check --only``, a fast pre-commit gate);
``run_check(name, root)`` runs one in this process, without a box, for embedding and tests.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..core import safeio
from ..core.box import Limits, Outcome, Pool
from ..carddb.database import load_database, unsafe_finding
from ..core.findings import ERROR, EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, WARNING, Finding
from ..core.limits import (BOX_CPU, BOX_CPU_PER_GAME, BOX_MEMORY, BOX_OUTPUT, BOX_WALL_PER_CPU,
                     SMOKE_GAMES_CHECK)
from ..i18n.parity import parity
from ..carddb.model import Position
from ..core import seal
from ..carddb.schema import SCHEMA_PATH, schema_text
from ..sim.simulate import smoke
from .validate import validate
from ..core.workers import cpus
from ..text.cardtext import PhraseError, load_phrasebooks

SMOKE_GAMES = SMOKE_GAMES_CHECK
PASSED, FAILED, SKIPPED = "ok", "failed", "skipped"
#: The order the checks are reported in.
ORDER = ("validate", "parity", "schema", "books", "docs", "simulate")
#: Checks that read the cards as validate accepted them: skipped when it refuses them. docs and the
#: simulation wait for validate; the books, the longest, start beside it and their result is then dropped.
#: Running one of these runs validate too (``chosen``), and reports it: it says whether they could run.
NEED_VALID = ("books", "docs", "simulate")
WAIT_FOR_VALIDATE = ("docs", "simulate")
#: Checks run at once: the books (the longest) beside the others, on a machine's two cores.
AT_ONCE = 2
BUDGET_HINT = ("a file this costly to read is a mistake or an attack: shrink or simplify it "
               "(a project that truly needs more can run `forge check --budget 2`)")


@dataclass
class CheckResult:
    """One check: its name, its status, what it says, its findings, how long it took."""

    name: str
    status: str
    summary: dict = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of its box
    peak: int = 0  # peak resident bytes of its box
    io_error: bool = False  # an input it could not read: the gate exits 2

    def to_json(self) -> dict:
        return {"name": self.name, "status": self.status, "ok": self.status != FAILED,
                "seconds": round(self.seconds, 2), "cpu_seconds": round(self.cpu, 2),
                "peak_mib": round(self.peak / (1 << 20), 1), "summary": self.summary,
                "findings": [f.to_json() for f in self.findings]}


@dataclass
class CheckReport:
    """The checks that ran, in ``ORDER``."""

    checks: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.status != FAILED for c in self.checks)

    @property
    def io_error(self) -> bool:
        return any(c.io_error for c in self.checks)

    @property
    def exit_status(self) -> int:
        """2 when a check could not read an input, 1 when one failed, else 0: ``forge check``'s exit status."""
        return EXIT_USAGE if self.io_error else EXIT_CLEAN if self.ok else EXIT_FINDINGS

    def to_json(self) -> dict:
        return {"ok": self.ok, "checks": [c.to_json() for c in self.checks]}


@dataclass
class Ran:
    """What a check's box sends back: findings, summary, and for validate whether the cards can be used."""

    findings: list[Finding]
    summary: dict
    io_error: bool = False
    usable: bool = True


class UnknownCheck(ValueError):
    """A check name forge does not have (or none at all); the message lists the checks there are."""


def chosen(only: Iterable[str] | None = None) -> tuple[str, ...]:
    """The checks that run for ``only`` (None: every one), in ``ORDER``: those named, and validate when one
    named reads the cards as validate accepted them (``NEED_VALID``), so that it is skipped, never run
    on cards validate refuses. Raises ``UnknownCheck`` for a name that is not a check, or for no name."""
    if only is None:
        return ORDER
    names = {only} if isinstance(only, str) else set(only)  # one name, not its letters
    unknown = sorted(names - set(ORDER))
    if unknown or not names:
        said = f"unknown check {', '.join(map(repr, unknown))}" if unknown else "no check named"
        raise UnknownCheck(f"{said}; the checks are {', '.join(ORDER)}")
    if names & set(NEED_VALID):
        names.add("validate")
    return tuple(name for name in ORDER if name in names)


def limits(name: str, games: int = SMOKE_GAMES, budget: float = 1.0) -> Limits:
    """The box of the check ``name`` (forge.core.limits says why each figure), times ``budget``."""
    cpu = BOX_CPU + (games * BOX_CPU_PER_GAME if name == "simulate" else 0)
    return Limits(BOX_MEMORY, round(cpu), cpu * BOX_WALL_PER_CPU, BOX_OUTPUT).scaled(budget)


def check(root: Path | str, games: int = SMOKE_GAMES, seed: int = 0, jobs: int = 1,
          strict: bool = False, progress: Callable[[str], None] | None = None,
          budget: float = 1.0, only: Iterable[str] | None = None) -> CheckReport:
    """Run the checks on the project at ``root``, each in its box; ``strict`` makes warnings fail their check.

    ``only`` names the checks to run (default: every one); validate runs too, and is reported, when a named
    check needs the cards it accepts (``chosen``, which raises ``UnknownCheck`` before anything runs). The
    report lists the checks that ran. ``progress(step)`` is told each check as it starts (the command's
    progress line on a terminal); ``budget`` multiplies every box's limits. The books start beside validate:
    when validate refuses the cards, their result is dropped (skipped, as docs and the simulation are)."""
    root = Path(root)
    names = chosen(only)
    say = progress or (lambda step: None)
    stages = {name: stage for name, stage in _stages(root, games, seed, jobs).items() if name in names}
    seal.key()  # this machine's cache key, read (or made) once here: the boxes seal their records with it
    with Pool(min(AT_ONCE, cpus())) as pool:
        for name, (fn, args) in stages.items():
            if name in WAIT_FOR_VALIDATE and not _usable(pool.wait("validate")):
                continue
            say(f"simulate: {games} games" if name == "simulate" else name)
            pool.start(name, fn, args, limits(name, games, budget))
        if "validate" in stages and not _usable(pool.wait("validate")):
            pool.cancel("books")
        outcomes = pool.join()
    report = CheckReport()
    usable = "validate" not in outcomes or _usable(outcomes["validate"])  # not run: no check named needs it
    for name in names:
        if name in NEED_VALID and not usable:
            report.checks.append(CheckResult(name, SKIPPED, {"reason": "the card database does not validate"}))
            continue
        outcome = outcomes[name]
        ran = outcome.value if outcome.ok else _stopped(name, outcome, limits(name, games, budget), root)
        result = _result(name, ran, strict, outcome.seconds)
        result.cpu, result.peak = outcome.cpu, outcome.peak
        report.checks.append(result)
    return report


def run_check(name: str, root: Path | str, strict: bool = False, games: int = SMOKE_GAMES, seed: int = 0,
              jobs: int = 1) -> CheckResult:
    """The check ``name`` alone, in this process and without a box, as ``check`` reports it (for embedding and
    tests: the same function its box runs, so a test of one check needs neither the others nor a fork).

    Nothing else runs: a check of ``NEED_VALID`` reads the cards as they are, whether validate accepts them
    or not (the caller decides); no limit holds it, so give it only a project you trust. Raises
    ``UnknownCheck`` for a name that is not a check."""
    chosen([name])  # an unknown name raises UnknownCheck, listing the checks
    fn, args = _stages(Path(root), games, seed, jobs)[name]
    started = time.monotonic()
    ran = fn(*args)
    return _result(name, ran, strict, time.monotonic() - started)


def _stages(root: Path, games: int, seed: int, jobs: int) -> dict[str, tuple[Callable[..., Ran], tuple]]:
    """Each check's function and its arguments, in the order ``check`` starts them: the books first, the longest,
    beside the chain of the others on the second core."""
    return {"books": (_books, (root,)), "validate": (_validate, (root,)), "parity": (_parity, (root,)),
            "schema": (_schema, (root,)), "docs": (_docs, (root,)), "simulate": (_simulate, (root, games, seed, jobs))}


def _usable(outcome: Outcome) -> bool:
    return outcome.ok and outcome.value.usable


def _stopped(name: str, outcome: Outcome, box: Limits, root: Path) -> Ran:
    """A check its box stopped, as a finding at the file it was reading (at the check's name when it read none,
    or when its result was too large: the result is the whole check's)."""
    kind = outcome.exceeded
    file = _shown(outcome.reading, root) if kind != "output" else ""
    where = f" while reading {file}" if file else ""
    if kind:
        message = f"the stage {name} exceeded its {kind} budget ({box.describe(kind)}){where}"
        return Ran([Finding(Position(file or name), "budget", message, BUDGET_HINT)], {"budget": kind})
    return Ran([Finding(Position(file or name), "stage-failed", f"the stage {name} stopped{where}: {outcome.failure}",
                        "an input forge cannot read, or a bug in forge: report it with the file")], {"stopped": True})


def _shown(path: str, root: Path) -> str:
    """An input's path as a finding shows it: relative to the project when it lies inside."""
    if not path:
        return ""
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path


# -- the checks, each run in its box ---------------------------------------------------------------
def _validate(root: Path) -> Ran:
    checked = validate(root, extra=True)
    usable = not any(f.severity == ERROR for f in checked.findings) and not checked.io_error
    return Ran(checked.findings, checked.summary(), checked.io_error, usable)


def _parity(root: Path) -> Ran:
    matched = parity(root, layout=False)  # validate measures the text fit
    return Ran(matched.findings, matched.summary(), matched.io_error)


def _schema(root: Path) -> Ran:
    findings = _stale(root, SCHEMA_PATH, schema_text(), "schema")
    return Ran(findings, {"current": not findings})


def _docs(root: Path) -> Ran:
    from ..render.design import DESIGN_DOC, fill  # lazy: loads forge.render only when needed

    current = _read_generated(root, DESIGN_DOC, "restore it from version control, then run `forge docs`")
    if isinstance(current, list):
        return Ran(current, {"current": False})
    findings = _stale(root, DESIGN_DOC, fill(current, load_database(root).db, load_phrasebooks(root)), "docs")
    return Ran(findings, {"current": not findings})


def _books(root: Path) -> Ran:
    """Every book in every language composed as `forge build` composes it, with the web edition's strings.

    The card pictures are left out (``without_pictures``): they are the card renderer's, which `forge check`
    does not run (validate reads the art and measures each card's fit), and drawing them would triple the
    gate's time."""
    from ..books.anatomy import without_pictures  # lazy: loads forge.books only when needed
    from ..books.compose import BookIOError, load_project  # lazy: loads jinja2, pyphen ... only when needed
    from ..books.web import load_edition  # lazy: loads jinja2, pyphen ... only when needed

    try:
        load = load_database(root)
        with without_pictures():
            edition = load_edition(load_project(root, load.db, load_phrasebooks(root)))
    except BookIOError as exc:
        return Ran([_book_io_finding(str(exc))], {"books": []})
    except PhraseError as exc:
        return Ran([exc.finding()], {"books": []})
    findings = list(dict.fromkeys(f for c in edition.composed.values() for f in c.findings))
    return Ran(findings, {"books": [f"{kind}-{lang}" for kind, lang in edition.composed]})


def _simulate(root: Path, games: int, seed: int, jobs: int) -> Ran:
    findings, summary = smoke(load_database(root).db, games, seed, jobs)
    return Ran(findings, summary)


def _book_io_finding(message: str) -> Finding:
    """A book file that cannot be read (``BookIOError``: "<file>: [rule] message\n    hint: …") as a finding."""
    head, _, hint = message.partition("\n    hint: ")
    file, _, text = head.partition(": ")
    rule = "io"
    if text.startswith("[") and "] " in text:
        rule, text = text[1:].split("] ", 1)
    return Finding(Position(file), rule, text or head, hint or "restore the file from version control")


def _result(name: str, ran: Ran, strict: bool, seconds: float) -> CheckResult:
    failing = {ERROR, WARNING} if strict else {ERROR}
    status = FAILED if any(f.severity in failing for f in ran.findings) else PASSED
    return CheckResult(name, status, ran.summary, list(ran.findings), seconds, io_error=ran.io_error)


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


__all__ = ["CheckReport", "CheckResult", "UnknownCheck", "check", "chosen", "run_check", "ORDER", "SMOKE_GAMES"]
