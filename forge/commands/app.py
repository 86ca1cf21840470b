"""The Typer app: every command wired to its name, nothing else."""
from __future__ import annotations

import typer

from ..core import atomic
from . import helptext, plainparams
from . import books  # noqa: F401 - registers `forge render rulebook`, `reference` and `books`
from . import cards, render
from . import web  # noqa: F401 - registers `forge render gallery`
from .build import build
from .check import check
from .diff import diff
from .docs import docs
from .i18n import i18n
from .parity import parity
from .play import play
from .schema import schema
from .simulate import replay, simulate
from .sync import sync
from .validate import validate
from .watch import watch
from .common import set_verbosity

plainparams.install()  # plain option values coerced without importing pydantic (issue 9, Fast to start)
helptext.install()  # no <bool> after a flag, long choices broken at their bars

app = typer.Typer(
    name="forge",
    help="Production pipeline and rules validator for Rift Commanders.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish, PowerShell
    pretty_exceptions_enable=False,
)


def version_text() -> str:
    """``forge X.Y.Z (Python A.B.C)``: what a bug report needs to name the build."""
    import platform  # lazy: keeps platform out of forge's start-up
    from importlib.metadata import PackageNotFoundError, version  # lazy: keeps importlib out of forge's start-up

    try:
        mine = version("forge")
    except PackageNotFoundError:  # run from a source tree that was never installed
        mine = "unknown (not installed)"
    return f"forge {mine} (Python {platform.python_version()})"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit(0)


@app.callback()
def _each_command(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print forge's version and exit."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only what is wrong: findings and errors."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also print each step and how long it took."),
) -> None:
    set_verbosity(quiet, verbose)
    # a command may confine its writes to its output folder (forge.core.atomic.confine): lifted when it ends
    ctx.call_on_close(atomic.release)


app.command()(build)
app.command()(validate)
app.command()(simulate)
app.command()(replay)
app.add_typer(render.app, name="render")
app.add_typer(cards.app, name="cards")
app.command()(docs)
app.command()(schema)
app.command()(sync)
app.command()(parity)
app.add_typer(i18n, name="i18n")
app.command()(check)
app.command()(diff)
app.command()(watch)
app.command()(play)
