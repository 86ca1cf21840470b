"""``forge i18n``: the translators' files (the termbase, for CAT tools)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .common import RootOption, check_root, fail

i18n = typer.Typer(help="Files for translators: the termbase as TBX or CSV.", no_args_is_help=True)


class TermFormat(str, Enum):
    tbx = "tbx"
    csv = "csv"


@i18n.command("termbase")
def termbase(
    root: RootOption = Path("."),
    format: TermFormat = typer.Option(TermFormat.tbx, "--format", help="tbx (TBX-Core, ISO 30042) or csv."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here instead of to standard output."),
) -> None:
    """Export locales/termbase.yaml for CAT tools (Trados, memoQ, OmegaT, Weblate).

    Example: forge i18n termbase --format tbx -o termbase.tbx
    """
    check_root(root)
    from .. import atomic
    from ..i18n import termbase as tb_module
    from ..i18n.sources import Sources

    sources = Sources(root)
    tb = tb_module.load(sources)
    problems = sources.findings + [f for f in tb.findings if f.severity == "error"]
    if problems or tb.doc is None:
        first = problems[0].render() if problems else f"no {tb_module.TERMBASE} in {root}"
        fail(f"cannot export the termbase: {first}", None, f"correct {tb_module.TERMBASE}, then export again")
    text = tb_module.to_tbx(tb) if format is TermFormat.tbx else tb_module.to_csv(tb)
    if output is None:
        typer.echo(text, nl=False)
    else:
        atomic.write_text(output, text)
