"""``forge watch``: a live preview of the cards and their findings while a designer edits them."""
from __future__ import annotations

import threading
from pathlib import Path
import json

import typer

from .common import Format, FormatOption, RootOption, check_root, fail
from ..core.workers import Interrupted


def _json_line(payload: dict) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False))


def watch(
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to serve on (loopback unless you say otherwise)."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port to serve on (0: any free port)."),
    lang: str = typer.Option("all", "--lang", help="Languages to draw: en, fr or all."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the web browser."),
) -> None:
    """Re-validate and redraw the changed cards on every save, on a page that refreshes itself.

    Example: forge watch --open   (then edit cards/red.yaml and save)
    """
    check_root(root)
    if lang not in ("en", "fr", "all"):
        fail(f"--lang {lang}: choose en, fr or all", format)
    from ..preview.loop import watch as run  # lazy: loads forge.preview only when needed
    from ..preview.server import start  # lazy: loads anyio, starlette ... only when needed
    from ..preview.state import PreviewState  # lazy: loads forge.preview only when needed

    state = PreviewState(root, ("en", "fr") if lang == "all" else (lang,))
    try:
        server = start(state, host, port)
    except OSError as exc:
        fail(f"cannot serve on {host}:{port} ({exc.strerror or exc})", format,
             "another program uses the port: choose one with --port (0 picks a free one)")
    say = _json_line if format is Format.json else None  # JSON Lines: one event per line, as they come
    if say:
        say({"event": "serving", "url": server.url})
    else:
        typer.echo(f"Preview at {server.url}  (Ctrl-C to stop)")
        if host not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(f"warning: serving on {host}: anyone who can reach this machine sees the cards", err=True)
    if open_browser:
        import webbrowser  # lazy: keeps webbrowser out of forge's start-up

        webbrowser.open(server.url)

    def report(files: list[str], current: PreviewState) -> None:
        s = current.snapshot()["summary"]
        if say:
            say({"event": "changed", "files": files, **s})
        else:
            verdict = f"✗ {s['errors']} error(s)" if s["errors"] else "✓ valid"
            typer.echo(f"{', '.join(files[:3])}{' …' if len(files) > 3 else ''}: {verdict}, "
                       f"{s['warnings']} warning(s)")

    stop = threading.Event()
    try:
        run(root, state, stop, report)
    except (KeyboardInterrupt, Interrupted):
        pass
    finally:
        stop.set()
        server.close()
    if not say:
        typer.echo("stopped")
