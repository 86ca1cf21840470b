"""The ``forge`` command line: wires commands to the app and nothing else."""
from __future__ import annotations

import os
import signal
import sys

import typer

from . import atomic, workers
from .commands import render
from .commands import books  # noqa: F401 - registers `forge render rulebook`, `reference` and `books`
from .commands.build import build
from .commands.check import check
from .commands.diff import diff
from .commands.docs import docs
from .commands.parity import parity
from .commands.schema import schema
from .commands.simulate import replay, simulate
from .commands.validate import validate

app = typer.Typer(
    name="forge",
    help="Production pipeline and rules validator for Rift Commanders.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(build)
app.command()(validate)
app.command()(simulate)
app.command()(replay)
app.add_typer(render.app, name="render")
app.command()(docs)
app.command()(schema)
app.command()(parity)
app.command()(check)
app.command()(diff)


def main() -> None:
    """Run the app; an unexpected failure prints one line, not a traceback (FORGE_DEBUG=1 shows it).

    Ctrl-C prints `forge: interrupted` and exits 130 (the pools stop their workers on the way out).
    """
    workers.trap_interrupts()
    try:
        app()
    except (workers.Interrupted, KeyboardInterrupt):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # pressed twice, Ctrl-C still prints one line
        typer.echo("forge: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:  # a file forge could not read or write: the user's to fix, not a bug
        if os.environ.get("FORGE_DEBUG"):
            raise
        typer.echo(f"forge: error: {atomic.describe(exc)}", err=True)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get("FORGE_DEBUG"):
            raise
        typer.echo(f"forge: internal error: {type(exc).__name__}: {exc}\n"
                   "    hint: this is a bug in forge; rerun with FORGE_DEBUG=1 and report the traceback", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
