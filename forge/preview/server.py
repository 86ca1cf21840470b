"""The preview's web server: its own page, the state as JSON, images from memory, and a change stream.

Bound to 127.0.0.1 unless told otherwise. It reads no file on a request (so no path
can lead it out of its folder), answers only GET and HEAD, refuses a Host header
that does not name it (a web page elsewhere cannot reach it through DNS
rebinding), and sends a content security policy that allows only its own page
(its one script also pinned by the hash of forge's file, ``integrity``).
"""
from __future__ import annotations

import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files

from ..core.csp import integrity
from .state import PreviewState

STATIC = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
_IMAGE = re.compile(r"/card/(en|fr)/([a-z0-9]+(?:-[a-z0-9]+)*)\.jpg")
HEARTBEAT = 15.0
MAX_STREAMS = 32
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _static() -> dict[str, tuple[bytes, str]]:
    """The page's files, held in memory; the page pins its script by the hash of forge's ``app.js``."""
    folder = files(__package__) / "static"
    pages = {route: ((folder / name).read_bytes(), kind) for route, (name, kind) in STATIC.items()}
    body, kind = pages["/"]
    pages["/"] = (body.replace(b"{{integrity}}", integrity(pages["/app.js"][0]).encode()), kind)
    return pages


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], state: PreviewState):
        self.state = state
        self.pages = _static()
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self.stopping = threading.Event()
        super().__init__(address, _Handler)
        host, port = self.server_address[:2]
        self.hosts = {f"{h}:{port}" for h in ("127.0.0.1", "localhost", "[::1]", host)}

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the page's requests are not the designer's business
        pass

    def _send(self, status: int, body: bytes, kind: str = "text/plain; charset=utf-8", head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _refuse(self, status: HTTPStatus, reason: str) -> None:
        self._send(status, f"{status.value} {status.phrase}: {reason}\n".encode())

    def do_GET(self, head: bool = False) -> None:  # http.server's naming
        if self.headers.get("Host", "") not in self.server.hosts:
            return self._refuse(HTTPStatus.MISDIRECTED_REQUEST, "this preview answers only to its own address")
        path = self.path.split("?", 1)[0]
        if path in self.server.pages:
            body, kind = self.server.pages[path]
            return self._send(HTTPStatus.OK, body, kind, head)
        if path == "/state.json":
            body = json.dumps(self.server.state.snapshot(), ensure_ascii=False).encode("utf-8")
            return self._send(HTTPStatus.OK, body, "application/json; charset=utf-8", head)
        match = _IMAGE.fullmatch(path)
        if match:
            data = self.server.state.image(match.group(2), match.group(1))
            if data is None:
                return self._refuse(HTTPStatus.NOT_FOUND, "no such card image (yet)")
            return self._send(HTTPStatus.OK, data, "image/jpeg", head)
        if path == "/events" and not head:
            return self._events()
        return self._refuse(HTTPStatus.NOT_FOUND, "no such page")

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def _not_allowed(self) -> None:
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "the preview is read-only")

    do_POST = do_PUT = do_DELETE = do_PATCH = _not_allowed

    def _events(self) -> None:
        """Server-sent events: the state's version each time it changes, a comment as a heartbeat."""
        if not self.server.streams.acquire(blocking=False):
            return self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "too many open previews")
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            for name, value in SECURITY_HEADERS.items():
                self.send_header(name, value)
            self.end_headers()
            self.close_connection = True
            version = -1
            while not self.server.stopping.is_set():
                current = self.server.state.wait(version, HEARTBEAT)
                chunk = f"data: {current}\n\n" if current != version else ": still here\n\n"
                version = current
                self.wfile.write(chunk.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed
        finally:
            self.server.streams.release()


def start(state: PreviewState, host: str = "127.0.0.1", port: int = 8765) -> PreviewServer:
    """A running server (on its own thread); ``port`` 0 picks a free one."""
    server = PreviewServer((host, port), state)
    threading.Thread(target=server.serve_forever, name="forge-preview", daemon=True).start()
    return server
