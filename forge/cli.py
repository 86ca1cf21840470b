"""The ``forge`` entry point: Ctrl-C, I/O errors and bugs each end in one line, never a traceback.

The commands (``forge.commands.app``) are imported inside ``main``, after Ctrl-C is
trapped, so that a Ctrl-C during the second it takes to import them is handled too.
"""
from __future__ import annotations

import os
import signal
import sys


def main() -> None:
    """Run the app; an unexpected failure prints one line, not a traceback (FORGE_DEBUG=1 shows it).

    Ctrl-C prints `forge: interrupted` and exits 130 (the pools stop their workers on the way out).
    """
    from .core import atomic, workers  # lazy: loads forge.core only when needed

    workers.trap_interrupts()
    try:
        from .commands.app import app  # lazy: loads markupsafe, typer ... only when needed

        sys.exit(_run(app))
    except (workers.Interrupted, KeyboardInterrupt):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # pressed twice, Ctrl-C still prints one line
        print("forge: interrupted", file=sys.stderr)
        # The pools have stopped their workers and every write is atomic: nothing is left to finish.
        # Leave now, past the interpreter's shutdown, whose joins of pool threads interrupted half-way
        # printed "Exception ignored in: <module 'threading'>" once in about fifty Ctrl-Cs under load.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    except OSError as exc:  # a file forge could not read or write: the user's to fix, not a bug
        if os.environ.get("FORGE_DEBUG"):
            raise
        print(f"forge: error: {atomic.describe(exc)}", file=sys.stderr)
        sys.exit(2)
    except Exception as exc:  # the last line of defence for users
        if os.environ.get("FORGE_DEBUG"):
            raise
        print(f"forge: internal error: {type(exc).__name__}: {exc}\n"
              "    hint: this is a bug in forge; rerun with FORGE_DEBUG=1 and report the traceback", file=sys.stderr)
        sys.exit(2)


def _run(app) -> int:
    """Run the Typer app; a usage error (unknown option, bad value…) is reported in forge's own style,
    ``forge: error: …`` and a hint, like every other error, instead of Typer's framed panel."""
    from typer import Abort  # lazy: loads typer only when needed

    from .core.compat.typer import click_exception  # lazy: loads forge.core only when needed

    ClickException = click_exception()  # Typer 0.29 vendors Click

    try:
        status = app(standalone_mode=False)
    except ClickException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `forge` alone: the help, as before
            exc.show()
            return exc.exit_code
        ctx = getattr(exc, "ctx", None)
        lists = "commands" if ctx and hasattr(ctx.command, "list_commands") else "options, with an example"
        hint = f"\n    hint: `{ctx.command_path} --help` lists the {lists}" if ctx else ""
        # Typer's adapter words a bad choice "Value error, 'de' is not one of …": the pydantic prefix is noise.
        message = exc.format_message().replace(": Value error, ", ": ")
        print(f"forge: error: {message}{hint}", file=sys.stderr)
        return exc.exit_code
    except Abort:
        print("forge: aborted", file=sys.stderr)
        return 1
    return status if isinstance(status, int) else 0


def __getattr__(name: str):
    """``forge.cli.app``, the Typer app, imported on first use (tests drive it with CliRunner)."""
    if name == "app":
        from .commands.app import app  # lazy: loads markupsafe, typer ... only when needed

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
