"""The ``forge`` command line: wires commands to the app and nothing else."""
from __future__ import annotations

import typer

from .commands.docs import docs
from .commands.schema import schema
from .commands.validate import validate

app = typer.Typer(
    name="forge",
    help="Production pipeline and rules validator for Rift Commanders.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(validate)
app.command()(schema)
app.command()(docs)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
