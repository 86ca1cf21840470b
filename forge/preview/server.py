"""The preview's web server: its own page, the state as JSON, images from memory, and a change stream.

A Starlette app run by uvicorn on a thread of its own (the watch loop keeps the main
thread, and with it Ctrl-C). Bound to 127.0.0.1 unless told otherwise. It reads no
file on a request (so no path can lead it out of its folder) and answers only GET
and HEAD. Its gate is ``forge play``'s, ``forge.core.httpguard``: the same Host
allow-list (a web page elsewhere cannot reach it through DNS rebinding), the same
refusal of other sites' pages, the same security headers, the content security
policy that allows only its own page (its one script also pinned by the hash of
forge's file, ``integrity``).
"""
from __future__ import annotations

import json
import re
import threading
from importlib.resources import files

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..core.csp import integrity
from ..core.httpguard import LOOPBACK, Guard, bound_hosts
from ..play import serving
from .state import PreviewState

STATIC = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
_IMAGE = re.compile(r"(en|fr)/([a-z0-9]+(?:-[a-z0-9]+)*)\.jpg")
HEARTBEAT = 15.0
MAX_STREAMS = 32
#: Seconds a stop waits for the open pages' answers to end before it cuts them.
GRACE = 2


def _static() -> dict[str, tuple[bytes, str]]:
    """The page's files, held in memory; the page pins its script by the hash of forge's ``app.js``."""
    folder = files(__package__) / "static"
    pages = {route: ((folder / name).read_bytes(), kind) for route, (name, kind) in STATIC.items()}
    body, kind = pages["/"]
    pages["/"] = (body.replace(b"{{integrity}}", integrity(pages["/app.js"][0]).encode()), kind)
    return pages


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason, "status": status}, status_code=status)


class PreviewApp:
    """The routes over one preview state; the sync ones run in Starlette's threads (the state has a lock)."""

    def __init__(self, state: PreviewState, stopping: threading.Event) -> None:
        self.state, self.stopping = state, stopping
        self.pages = _static()
        self.streams = 0  # counted on the event loop: no lock
        self.waiting: anyio.CapacityLimiter | None = None  # the streams' own threads: they never starve the pages'

    def page(self, request: Request) -> Response:
        body, kind = self.pages[request.url.path]
        return Response(body, media_type=kind)

    def snapshot(self, request: Request) -> Response:
        body = json.dumps(self.state.snapshot(), ensure_ascii=False).encode("utf-8")
        return Response(body, media_type="application/json; charset=utf-8")

    def card(self, request: Request) -> Response:
        match = _IMAGE.fullmatch(f"{request.path_params['lang']}/{request.path_params['name']}")
        data = self.state.image(match.group(2), match.group(1)) if match else None
        if data is None:
            return _error(404, "no such card image (yet): a card's image is /card/<en|fr>/<card id>.jpg")
        return Response(data, media_type="image/jpeg")

    async def events(self, request: Request) -> Response:
        """Server-sent events: the state's version each time it changes, a comment as a heartbeat."""
        if request.method == "HEAD":
            return Response(media_type="text/event-stream")
        if self.streams >= MAX_STREAMS:
            return _error(503, "too many open previews")
        if self.waiting is None:  # made on the event loop, where anyio wants it
            self.waiting = anyio.CapacityLimiter(MAX_STREAMS)
        return StreamingResponse(self._stream(), media_type="text/event-stream", headers={"x-accel-buffering": "no"})

    async def _stream(self):
        self.streams += 1  # counted once running: a stream never started (its page gone first) is never freed
        try:
            version = -1
            while not self.stopping.is_set():
                current = await anyio.to_thread.run_sync(self.state.wait, version, HEARTBEAT, self.stopping,
                                                         abandon_on_cancel=True, limiter=self.waiting)
                if self.stopping.is_set():
                    return
                yield f"data: {current}\n\n" if current != version else ": still here\n\n"
                version = current
        finally:
            self.streams -= 1


async def _http_error(request: Request, exc: HTTPException) -> Response:
    reason = {404: "no such page: the preview serves /, /state.json, /events and /card/<en|fr>/<card id>.jpg",
              405: "the preview is read-only"}.get(exc.status_code, exc.detail)
    return _error(exc.status_code, reason)


async def _crash(request: Request, exc: Exception) -> Response:
    return _error(500, f"the preview failed on this request ({type(exc).__name__})")


def create_app(state: PreviewState, stopping: threading.Event, hosts: tuple[str, ...] = (),
               csrf: bool = False) -> Starlette:
    """The preview's ASGI app: ``hosts`` are the Host names it answers to besides loopback's (as ``forge play``'s)."""
    preview = PreviewApp(state, stopping)
    routes = [Route(path, preview.page) for path in STATIC] + [
        Route("/state.json", preview.snapshot), Route("/card/{lang}/{name}", preview.card),
        Route("/events", preview.events), Route("/favicon.ico", lambda request: Response(status_code=204))]
    return Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts, csrf=csrf)],
                     exception_handlers={HTTPException: _http_error, Exception: _crash})


class PreviewServer:
    """uvicorn serving the preview on its own thread, over a socket bound before anything is printed."""

    def __init__(self, host: str, port: int, state: PreviewState) -> None:
        import uvicorn  # lazy: loads uvicorn only when needed

        self.state, self.stopping = state, threading.Event()
        self.socket = serving.bind(host, port)
        self.server_address = self.socket.getsockname()
        self.url = serving.url(host, self.socket)
        app = create_app(state, self.stopping, bound_hosts(host), csrf=host not in LOOPBACK)
        config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False,
                                timeout_graceful_shutdown=GRACE)
        self.uvicorn = uvicorn.Server(config)  # not on the main thread: it leaves the signals to forge watch
        self.thread = threading.Thread(target=self.uvicorn.run, kwargs={"sockets": [self.socket]},
                                       name="forge-preview", daemon=True)

    def shutdown(self) -> None:
        """Stop: the change streams end, then uvicorn closes its connections (within ``GRACE`` seconds)."""
        self.stopping.set()
        with self.state.changed:
            self.state.changed.notify_all()
        self.uvicorn.should_exit = True
        self.thread.join(GRACE + 5)

    def server_close(self) -> None:
        self.socket.close()

    def close(self) -> None:
        """Stop serving and free the port: what ``forge watch`` and every test that starts a server call."""
        try:
            self.shutdown()
        finally:
            self.server_close()

    def __enter__(self) -> PreviewServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start(state: PreviewState, host: str = "127.0.0.1", port: int = 8765) -> PreviewServer:
    """A running server (on its own thread); ``port`` 0 picks a free one (OSError if the port is taken)."""
    server = PreviewServer(host, port, state)
    server.thread.start()
    return server

