"""Running the app: a socket bound before anything is printed (port 0 picks a free one), then uvicorn on it.

The socket is made with ``IPPROTO_TCP`` named: asyncio sets TCP_NODELAY on a connection only
when its socket says so (``sock.proto``), and an accepted socket inherits the listener's. Without
it a browser's reused connection waits for the delayed ACK, about 40 ms per answer.
"""
from __future__ import annotations

import socket


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``: connections wait in its backlog until the server runs (OSError if taken)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url(host: str, sock: socket.socket) -> str:
    """The address people open (a wildcard host is reached on loopback)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else (f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{sock.getsockname()[1]}/"


def run(app, sock: socket.socket) -> None:
    """Serve until Ctrl-C or SIGTERM; either is a clean stop (uvicorn would re-raise the signal after it)."""
    import uvicorn  # lazy: loads uvicorn only when needed

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            super().handle_exit(sig, frame)
            self._captured_signals.clear()

    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False, timeout_graceful_shutdown=2)
    Server(config).run(sockets=[sock])
