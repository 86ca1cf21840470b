"""``forge play``: serve a page where a person plays a game against the AI, hot-seat, or on two machines."""
from __future__ import annotations

import json
from pathlib import Path

import typer

from .common import (
    Format,
    FormatOption,
    RootOption,
    check_root,
    fail,
    inside_project,
    render_findings,
)
from ..core import atomic


def play(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to serve on (loopback unless you say otherwise)."),
    port: int = typer.Option(8766, "--port", min=0, max=65535, help="Port to serve on (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web browser."),
    public_url: str = typer.Option(None, "--public-url", help="The address people open, e.g. "
                                   "https://play.example.org (its host is the only one besides loopback the "
                                   "server answers to; needed to serve on 0.0.0.0). See docs/play.md."),
) -> None:
    """Play Rift Commanders in your web browser, against the AI or hot-seat, with the rules enforced.

    Each game is kept in output/play/games/ as a record `forge replay` reads; it goes on after a restart.
    A database that `forge validate` refuses is not played (exit 1, its errors): a playtest of a duplicate
    id or a card the rulebook forbids would teach the wrong game.

    Two machines play one game with --public-url (the name the other player reaches, often a TLS
    reverse proxy's: docs/play.md); the game's creator sends the other player the invite link.

    Example: forge play --open
    """
    check_root(root)
    public = _public(public_url, host, format)
    from ..checks.gate import judge  # lazy: loads forge.checks only when needed
    from ..play import serving  # lazy: loads forge.play only when needed
    from ..core.httpguard import LOOPBACK, bound_hosts, host_name  # lazy: keeps forge.core.csp, forge.core.httpguard out of forge's start-up
    from ..play.project import PLAY_DIR, make_app, read  # lazy: loads forge.play only when needed

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
    loopback = host in LOOPBACK and public is None
    hosts = (host_name(public.netloc),) if public is not None else bound_hosts(host)
    app = make_app(project, folder, hosts, csrf=not loopback, secure=public is not None and public.scheme == "https")
    try:
        sock = serving.bind(host, port)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port} ({exc.strerror or exc})", format,
             "another program uses the port: choose one with --port (0 picks a free one)")
    url = public.geturl().rstrip("/") + "/" if public is not None else serving.url(host, sock)
    if format is Format.json:
        typer.echo(json.dumps({"event": "serving", "url": url}))
    else:
        typer.echo(f"Play at {url}  (Ctrl-C to stop; games are kept in {PLAY_DIR / 'games'})")
        if not loopback:
            typer.echo(f"serving on {host}: a game opens only by its links (keep them secret); use HTTPS between "
                       "machines (docs/play.md)", err=True)
    for gid, key in app.state.play.store.adopt():  # games kept before links: their links, to this terminal only
        link = f"{url}game/{gid}#{key}"
        typer.echo(json.dumps({"event": "adopted", "game": gid, "url": link}) if format is Format.json
                   else f"game {gid}, kept before games had links: {link}")
    if open_browser:
        import webbrowser  # lazy: keeps webbrowser out of forge's start-up

        webbrowser.open(url)
    serving.run(app, sock)
    if format is not Format.json:
        typer.echo("stopped")


def _public(public_url: str | None, host: str, format: Format):
    """``--public-url`` split, or None; a wildcard address without it is a usage error (the Host check needs a name)."""
    from urllib.parse import urlsplit  # lazy: keeps urllib out of forge's start-up

    if public_url is None:
        if host in ("0.0.0.0", "::", ""):
            fail(f"--host {host} serves every address: say which one people open", format,
                 "add --public-url http://<this machine's name or address>:<port> (or https://… behind a proxy)")
        return None
    public = urlsplit(public_url)
    if public.scheme not in ("http", "https") or not public.hostname or public.path not in ("", "/") or \
            public.query or public.fragment or public.username or public.password:
        fail(f"--public-url {public_url[:80]!r}: an http(s) address with a host and no path", format,
             "e.g. --public-url https://play.example.org")
    return public
