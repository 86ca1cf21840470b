"""Options every command shares, and the one place that prints reports and exits."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from contextlib import contextmanager
from typing import Annotated, Callable, Iterator, NoReturn
from dataclasses import replace
import os

import typer

from ..core import atomic, safeio
from ..core.findings import Finding


class Format(str, Enum):
    text = "text"
    json = "json"


class ReportFormat(str, Enum):
    """The gates' formats: people, tools, and the three that CI servers read natively."""

    text = "text"
    json = "json"
    github = "github"
    junit = "junit"
    sarif = "sarif"


RootOption = Annotated[Path, typer.Option("--root", help="The game project folder.", show_default=True)]
FormatOption = Annotated[Format, typer.Option("--format", help="Report as text for people or JSON for tools.")]
ReportFormatOption = Annotated[ReportFormat, typer.Option(
    "--format", help="text for people, json for tools; github (workflow annotations), junit (JUnit XML) or "
                     "sarif (SARIF 2.1.0, for code scanning) for CI.")]


def check_root(root: Path) -> None:
    """Exit 2 with a clear message when --root is not a folder."""
    if not root.is_dir():
        typer.echo(f"forge: error: --root {root}: no such folder", err=True)
        raise typer.Exit(2)


def inside_project(path: Path, root: Path, fmt: Format | None = None,
                   hint: str = "remove the link, or name the folder with --out to write there") -> Path:
    """``path`` when it stays inside the project once links are followed; else exit 2 with one line.

    A pull request may commit ``output/`` (or ``docs/``) as a symlink to a folder outside the
    project; forge must not write through it. A folder named explicitly (``--out``) is not checked.
    """
    if safeio.within(path, root):
        return path
    fail(f"{path}: the path leads outside the project (to {Path(path).resolve()}); forge does not write "
         "through a link", fmt, hint)


def default_output(root: Path, out: Path | None, fmt: Format | None = None) -> Path:
    """The output folder: ``--out`` when given, else ROOT/output, which must stay inside the project.

    Until the command ends, nothing is written outside it (a link inside it is not followed out).
    """
    folder = out if out is not None else inside_project(root / "output", root, fmt)
    atomic.confine(folder)
    return folder


def emit_json(payload: dict) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


_VERBOSITY = {"level": 0}  # -1 --quiet, 0 normal, 1 --verbose: set once by the app's callback
#: Lines of a text report that say all is well (or what was skipped): what --quiet leaves out.
_QUIET_DROPS = ("✓", "–", "  next:", "kit written", "Preview at")


def set_verbosity(quiet: bool, verbose: bool) -> None:
    _VERBOSITY["level"] = -1 if quiet else 1 if verbose else 0


def is_quiet() -> bool:
    return _VERBOSITY["level"] < 0


def is_verbose() -> bool:
    return _VERBOSITY["level"] > 0


def echo_report(text: str, err: bool = False) -> None:
    """Print a text report; with --quiet, only what is wrong (findings, ✗ lines, errors), so a clean run
    prints nothing, as linters do in CI logs."""
    if is_quiet():
        text = "\n".join(line for line in text.splitlines() if not line.startswith(_QUIET_DROPS))
    if text:
        typer.echo(text, err=err)


def _live(fmt) -> bool:
    """Whether a live progress display may take stderr: a terminal, text format, not --quiet."""
    return sys.stderr.isatty() and fmt in (None, Format.text) and not is_quiet()


@contextmanager
def progress(fmt=None) -> Iterator[Callable[[str], None]]:
    """A one-line rich spinner on stderr naming the current step; ``say(step)`` moves it on.

    Only on a terminal, in text format and without --quiet; --verbose also prints each step as a line.
    """
    if not _live(fmt):
        yield (lambda step: typer.echo(f"… {step}", err=True)) if is_verbose() else (lambda step: None)
        return
    from rich.console import Console  # lazy: loads rich only when needed
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn  # lazy: loads rich only when needed

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), transient=True,
                  console=Console(stderr=True)) as bar:
        task = bar.add_task("starting", total=None)

        def say(step: str) -> None:
            if is_verbose():
                bar.console.print(f"… {step}")
            bar.update(task, description=step)

        yield say


@contextmanager
def progress_bar(fmt=None) -> Iterator[Callable[[int, int, str], None]]:
    """A rich progress bar on stderr for work counted in items: ``advance(done, total, what)``.

    Only on a terminal, in text format and without --quiet; it is cleared when the work ends."""
    if not _live(fmt):
        yield lambda done, total, what: None
        return
    from rich.console import Console  # lazy: loads rich only when needed
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn  # lazy: loads rich only when needed

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task("rendering", total=None)

        def advance(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=f"rendering {what[:40]}")

        yield advance


def render_findings(findings: list[Finding]) -> str:
    return "\n".join(f.render() for f in findings)


def repository_prefix(root: Path) -> str:
    """Where ``--root`` lies in the repository that CI annotates, as a POSIX prefix ("" at its top).

    Findings name files relative to ``--root``; GitHub places an annotation or a SARIF result by its
    path in the repository. The repository is ``GITHUB_WORKSPACE`` when the runner sets it and holds
    the root, else the nearest folder above the root that holds ``.git`` (no git command is run: a
    pull request's checkout is not asked to run anything)."""
    here = Path(root).resolve()
    workspace = os.environ.get("GITHUB_WORKSPACE")
    candidates = [Path(workspace).resolve()] if workspace else []
    candidates += [folder for folder in (here, *here.parents) if (folder / ".git").exists()][:1]
    for top in candidates:
        if here == top or top in here.parents:
            prefix = here.relative_to(top).as_posix()
            return "" if prefix == "." else prefix
    return ""


def _in_repository(finding: Finding, prefix: str) -> Finding:
    file = finding.position.file
    if not prefix or not file or Path(file).is_absolute():
        return finding
    return replace(finding, position=replace(finding.position, file=f"{prefix}/{file}"))


def emit_ci(fmt: ReportFormat, suites: list, name: str, summary: str, root: Path) -> None:
    """Print the report in a CI format: annotations then the summary line, JUnit XML, or SARIF; every
    file named by its path in the repository, so that it lands on the file whatever ``--root`` is."""
    from ..core import reports  # lazy: keeps forge.core.reports out of forge's start-up

    prefix = repository_prefix(root)
    suites = [replace(suite, findings=[_in_repository(f, prefix) for f in suite.findings]) for suite in suites]
    findings = [f for suite in suites for f in suite.findings]
    if fmt is ReportFormat.github:
        annotations = reports.github(findings)
        typer.echo((annotations + "\n" if annotations else "") + summary)
    elif fmt is ReportFormat.junit:
        typer.echo(reports.junit(suites, name))
    else:
        typer.echo(reports.sarif(findings))


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def io_failure(exc: OSError, fmt: Format | None = None) -> NoReturn:
    """Exit 2 with one line naming the path and the reason (an output that cannot be written, say).

    With --format json the same line is also the ``error`` of a JSON report on stdout.
    """
    fail(atomic.describe(exc), fmt)


def fail(message: str, fmt: Format | ReportFormat | None = None, hint: str = "") -> NoReturn:
    """Exit 2 with ``forge: error: <message>`` (and its hint) on stderr; with --format json, also
    ``{"ok": false, "error": <message>}`` on stdout."""
    if fmt == "json":  # Format.json or ReportFormat.json
        emit_json({"ok": False, "error": message})
    typer.echo(f"forge: error: {message}" + (f"\n    hint: {hint}" if hint else ""), err=True)
    raise typer.Exit(2)


def publish_generated(root: Path, rel: str, text: str, check: bool, fmt: Format, command: str) -> None:
    """Write a generated file when it changed (or, with --check, only say so), report, and exit.

    Exit 1 only when --check finds the file stale, so CI can gate on it.
    """
    path = inside_project(root / rel, root, fmt, hint=f"make {rel} an ordinary file of the project, not a link")
    size = len(text.encode("utf-8"))
    if size > safeio.MAX_INPUT_BYTES:  # e.g. 150,000 table markers, each filled with a table: 10 times the input
        fail(f"{rel}: the generated file would be {size:,} bytes, more than forge reads back "
             f"({safeio.MAX_INPUT_BYTES:,}); not written", fmt, "remove repeated `<!-- forge:table … -->` markers")
    try:
        current = safeio.read_bytes(path, root).decode("utf-8", "replace")
    except safeio.UnsafeInput:  # missing, or not an ordinary file of the project: written anew (never followed)
        current = None
    stale = current != text
    if stale and not check:
        try:
            atomic.write_text(path, text)
        except OSError as exc:  # the previous file is kept
            io_failure(exc, fmt)
    if fmt is Format.json:
        emit_json({"path": rel, "stale": stale, "written": stale and not check})
    elif check:
        typer.echo(f"{rel}: {f'out of date; run `forge {command}`' if stale else 'up to date'}")
    else:
        typer.echo(f"{rel}: {'written' if stale else 'already up to date'}")
    raise typer.Exit(1 if (check and stale) else 0)
