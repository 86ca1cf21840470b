"""The Typer app: every command wired to its name, nothing else."""
from __future__ import annotations

import typer

from .. import atomic
from . import books  # noqa: F401 - registers `forge render rulebook`, `reference` and `books`
from . import render
from .build import build
from .check import check
from .diff import diff
from .docs import docs
from .parity import parity
from .schema import schema
from .simulate import replay, simulate
from .validate import validate

app = typer.Typer(
    name="forge",
    help="Production pipeline and rules validator for Rift Commanders.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _each_command(ctx: typer.Context) -> None:
    # a command may confine its writes to its output folder (forge.atomic.confine): lifted when it ends
    ctx.call_on_close(atomic.release)


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
