"""``forge build``: validate, play a smoke batch of games, render every card output."""
from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING

from ..core.findings import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from ..core.limits import SMOKE_GAMES_BUILD as SMOKE_GAMES
from .common import (Format, FormatOption, RootOption, check_root, default_output, echo_report, emit_json, fail, plural,
                     progress, render_findings)


if TYPE_CHECKING:
    from ..pipeline.build import BuildReport


def build(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    out: Path = typer.Option(None, "--out", help="Output folder (default: ROOT/output)."),
    games: int = typer.Option(SMOKE_GAMES, "--games", min=0, help="Games of the simulation smoke test."),
    seed: int = typer.Option(0, "--seed", help="Seed of the simulation smoke test."),
    jobs: int = typer.Option(2, "--jobs", min=1, help="Processes for simulating and rendering."),
    lang: str = typer.Option("all", "--lang", help="Languages to render: en, fr or all."),
) -> None:
    """Build the whole kit: validate, simulate every pairing, render the cards, the books and the card gallery in English and French.

    Example: forge build --root my-game --lang fr
    """
    check_root(root)
    out = default_output(root, out, format)
    if lang not in ("en", "fr", "all"):
        fail(f"--lang {lang}: choose en, fr or all", format)
    langs = ("en", "fr") if lang == "all" else (lang,)
    from ..pipeline.build import build as run_build  # lazy: loads yaml, forge.carddb ... only when needed

    with progress(format) as say:
        report = run_build(root, out, games=games, seed=seed, jobs=jobs, langs=langs, progress=say)
    if format is Format.json:
        emit_json(report.to_json())
    else:
        echo_report(to_text(report, out))
    if report.io_error:  # one line names the output and the reason; the earlier outputs are kept
        typer.echo(f"forge: error: {report.io_error}", err=True)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_CLEAN if report.ok else EXIT_FINDINGS)


DESCRIBE = {
    "validate": lambda s: (f"{s['card_designs']} card designs, {s['physical_cards']} physical cards, "
                           f"{plural(s['errors'], 'error')}, {plural(s['warnings'], 'warning')}"),
    "simulate": lambda s: (f"{s['games']} games ({s['agents']} agents, seed {s['seed']}), "
                           f"{plural(s['errors'], 'error')}, {s['capped']} capped"),
    "render": lambda s: (f"{s['written']} files written, {s['unchanged']} unchanged, {s['removed']} removed"
                         + (f", {s['changed_outside']} changed outside forge (rendered again)" if s.get("changed_outside")
                            else "") + "; "
                         "preflight: " + ", ".join(f"{k} {'ok' if ok else 'FAILED'}" for k, ok in s["profiles"].items())),
    "books": lambda s: (f"{', '.join(s['books']) or 'nothing'} written"
                        + (f", {', '.join(s['unchanged'])} unchanged" if s.get("unchanged") else "")
                        + f", {s['pages']} pages"
                        + (f"; web edition: {', '.join(s['web'])}" if s.get("web") else "")
                        + "".join(f"; {line}" for line in s.get("example", ()))),
    "gallery": lambda s: (f"{s['path']}: {s['cards']} cards in {', '.join(s['langs'])}, {s['bytes'] / 1024:.0f} KB"
                          + ("" if s["written"] else ", unchanged")),
}


def to_text(report: BuildReport, out: Path) -> str:
    lines = []
    for stage in report.stages:
        shown = [f for f in stage.findings if f.severity == "error" or not stage.ok]
        if shown:
            lines.append(render_findings(shown))
        if stage.io_error and not stage.summary:
            continue  # the stage stopped at once; the error line says why
        mark = "✓" if stage.ok else "✗"
        lines.append(f"{mark} {stage.name}: {DESCRIBE[stage.name](stage.summary)} ({stage.seconds:.1f} s)")
    if report.ok:
        lines.append(f"kit written to {out}/")
    elif not report.io_error:
        lines.append("✗ build stopped: fix the findings above")
    return "\n".join(lines)
