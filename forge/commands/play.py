"""``forge play``: serve a page where a person plays a game against the AI or hot-seat."""
from __future__ import annotations

import json
from pathlib import Path

import typer

from .common import Format, FormatOption, RootOption, check_root, fail, inside_project, render_findings


def play(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to serve on (loopback unless you say otherwise)."),
    port: int = typer.Option(8766, "--port", min=0, max=65535, help="Port to serve on (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web browser."),
) -> None:
    """Play Rift Commanders in your web browser, against the AI or hot-seat, with the rules enforced.

    Each game is kept in output/play/games/ as a record `forge replay` reads; it goes on after a restart.
    A database that `forge validate` refuses is not played (exit 1, its errors): a playtest of a duplicate
    id or a card the rulebook forbids would teach the wrong game.

    Example: forge play --open
    """
    check_root(root)
    from .. import atomic
    from ..gate import judge
    from ..play import serving
    from ..play.project import PLAY_DIR, make_app, read
    from ..play.server import LOOPBACK

    folder = inside_project(root / PLAY_DIR, root, format, hint="remove the link: forge keeps its games inside the project")
    atomic.confine(folder)
    verdict = judge(root, prints_text=False)  # one gate: a refused database is not played
    if verdict.refused:
        typer.echo(render_findings(verdict.findings), err=True)
        typer.echo("forge: error: the card database has errors; fix them (forge validate)", err=True)
        raise typer.Exit(2 if verdict.load.io_error else 1)
    project = read(root)
    if project.game is None:
        typer.echo(render_findings(project.findings), err=True)
        raise typer.Exit(2 if project.io_error else 1)
    app = make_app(project, folder, ("*",) if host in ("0.0.0.0", "::") else (*LOOPBACK, host))
    try:
        sock = serving.bind(host, port)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port} ({exc.strerror or exc})", format,
             "another program uses the port: choose one with --port (0 picks a free one)")
    url = serving.url(host, sock)
    if format is Format.json:
        typer.echo(json.dumps({"event": "serving", "url": url}))
    else:
        typer.echo(f"Play at {url}  (Ctrl-C to stop; games are kept in {PLAY_DIR / 'games'})")
        if host not in LOOPBACK:
            typer.echo(f"warning: serving on {host}: anyone who can reach this machine can play and read the games",
                       err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    serving.run(app, sock)
    if format is not Format.json:
        typer.echo("stopped")
