"""The gate of forge's web servers (``forge play``, ``forge watch``): one policy, so the two cannot drift apart.

The Host check is never off: a page of another site reaching a server through DNS
rebinding names its own host, and is refused (400). Loopback names are always
allowed; a server adds the name people use (``forge play --public-url``, or the
address it is bound to).

A request another site's page makes for a resource (``Sec-Fetch-Site`` not the
server's own, and not a link followed to a page) is refused (403): another site
cannot embed a card's picture to learn which cards exist, nor reach the API. A
state-changing request (POST...) whose ``Origin`` is not the server's own is
refused everywhere; off loopback it also carries a CSRF token: the page sets it in
a cookie (``SameSite=Strict``, ``HttpOnly``) and in a ``<meta>`` the script reads,
and the request sends it back in ``x-forge-csrf``; both must be equal (double
submit, compared in constant time).

Every answer, a refusal too, carries the same security headers: the Content-Security-Policy
of ``forge.core.csp.served_policy`` and the headers that keep other sites' pages out.
"""
from __future__ import annotations

import hmac
import json
import re
import secrets
from urllib.parse import urlsplit

from .csp import served_policy

SECURITY_HEADERS = [
    (b"content-security-policy", served_policy().encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")
CSRF_COOKIE, CSRF_HEADER = "forge_csrf", "x-forge-csrf"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")
_READ = ("GET", "HEAD")
_OWN_SITE = ("same-origin", "none")  # ``none``: the person typed the address or opened a bookmark


def host_name(host: str) -> str:
    """``host[:port]`` without its port, lower case (an IPv6 literal keeps its brackets, gains them if bare)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    if host.count(":") > 1:
        return f"[{host}]"
    return host.rsplit(":", 1)[0]


def bound_hosts(host: str) -> tuple[str, ...]:
    """The names a server bound to ``host`` answers to besides loopback's: that address, none for a wildcard
    (every address has no one name: ``forge play`` asks for ``--public-url`` then)."""
    return () if host in WILDCARD else (host,)


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


_READ_HEADERS = (b"host", b"origin", b"cookie", CSRF_HEADER.encode(), b"sec-fetch-site", b"sec-fetch-mode",
                 b"sec-fetch-dest")


class Guard:
    """A plain ASGI middleware (no task per request): Host, fetch metadata, Origin and CSRF checks, and the
    security headers on every answer."""

    def __init__(self, app, hosts: tuple[str, ...], csrf: bool = False) -> None:
        self.app, self.hosts, self.csrf = app, {host_name(h) for h in (*LOOPBACK, *hosts)}, csrf

    def refusal(self, scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"] if k in _READ_HEADERS}
        if host_name(headers.get("host", "")) not in self.hosts:
            return 400, ("this server answers only to its own address (" + ", ".join(sorted(self.hosts)) +
                         "); start it with --public-url to serve another name")
        read = scope["method"] in _READ
        site = headers.get("sec-fetch-site")
        if site is not None and site not in _OWN_SITE and not (
                read and headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") == "document"):
            return 403, "a page of another site cannot use this server (Sec-Fetch-Site): open its address yourself"
        if read:
            return None
        origin = headers.get("origin")
        if origin is not None and host_name(urlsplit(origin).netloc) not in self.hosts:
            return 403, "a page of another site cannot send this request (Origin)"
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
