"""The play server's gate: the Host it answers to, the CSRF check off loopback, the security headers, rates.

The Host check is never off: a page of another site reaching the server through DNS
rebinding names its own host, and is refused (400). ``forge play --public-url`` adds the
name people use (behind a TLS proxy, say); loopback names are always allowed.

Off loopback a state-changing request (POST) carries a CSRF token: the page sets it in a
cookie (``SameSite=Strict``, ``HttpOnly``) and in a ``<meta>`` the script reads, and the
request sends it back in ``x-forge-csrf``; both must be equal (double submit, compared in
constant time). A POST whose ``Origin`` is not the server's own is refused everywhere.
"""
from __future__ import annotations

import hmac
import json
import re
import secrets
import time
from urllib.parse import urlsplit

SECURITY_HEADERS = [
    (b"content-security-policy", (b"default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                                  b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
CSRF_COOKIE, CSRF_HEADER = "forge_csrf", "x-forge-csrf"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")


def host_name(host: str) -> str:
    """``host[:port]`` without its port, lower case (an IPv6 literal keeps its brackets, gains them if bare)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    if host.count(":") > 1:
        return f"[{host}]"
    return host.rsplit(":", 1)[0]


def csrf_token(cookie_header: str | None) -> str:
    """The browser's CSRF token when it sent a well-formed one, else a new one (128 bits and more)."""
    token = _cookie(cookie_header, CSRF_COOKIE)
    return token if token and _TOKEN.fullmatch(token) else secrets.token_urlsafe(24)


def csrf_cookie(token: str, secure: bool) -> str:
    return f"{CSRF_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict" + ("; Secure" if secure else "")


def _cookie(header: str | None, name: str) -> str | None:
    for part in (header or "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _refuse(status: int, reason: str):
    body = json.dumps({"error": reason, "status": status}).encode()

    async def respond(send):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
    return respond


class Guard:
    """A plain ASGI middleware (no task per request): Host, Origin and CSRF checks, and the security headers."""

    def __init__(self, app, hosts: tuple[str, ...], csrf: bool = False) -> None:
        self.app, self.hosts, self.csrf = app, {host_name(h) for h in (*LOOPBACK, *hosts)}, csrf

    def refusal(self, scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]
                   if k in (b"host", b"origin", b"cookie", CSRF_HEADER.encode())}
        if host_name(headers.get("host", "")) not in self.hosts:
            return 400, ("this server answers only to its own address (" + ", ".join(sorted(self.hosts)) +
                         "); start it with --public-url to serve another name")
        if scope["method"] in ("GET", "HEAD"):
            return None
        origin = headers.get("origin")
        if origin is not None and host_name(urlsplit(origin).netloc) not in self.hosts:
            return 403, "a page of another site cannot change a game here (Origin)"
        if self.csrf:
            cookie, sent = _cookie(headers.get("cookie"), CSRF_COOKIE), headers.get(CSRF_HEADER)
            if not (cookie and sent and hmac.compare_digest(cookie.encode(), sent.encode())):
                return 403, "the request carries no valid CSRF token (x-forge-csrf): reload the page"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        refused = self.refusal(scope)
        if refused is not None:
            return await _refuse(*refused)(send_with_headers)
        await self.app(scope, receive, send_with_headers)


class Bucket:
    """A token bucket per name (a game key, say): ``rate`` a second, ``burst`` at once; bounded in memory."""

    def __init__(self, rate: float, burst: float, names: int = 10_000) -> None:
        self.rate, self.burst, self.names = rate, burst, names
        self.left: dict[str, tuple[float, float]] = {}

    def allow(self, name: str) -> bool:
        now = time.monotonic()
        tokens, then = self.left.get(name, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self.left) >= self.names and name not in self.left:
            self.left.clear()  # a flood of names: forget them all rather than grow
        if tokens < 1:
            self.left[name] = (tokens, now)
            return False
        self.left[name] = (tokens - 1, now)
        return True
