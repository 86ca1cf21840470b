"""Serving beyond loopback: the Host check is never off, and a state-changing request carries a CSRF token.

Before, ``forge play --host 0.0.0.0`` answered to any Host (a page of any site could reach it
through DNS rebinding) and checked no CSRF token. Now the server answers only to loopback's
names and to the host of ``--public-url`` (400 otherwise), a wildcard address without
``--public-url`` is a usage error, and off loopback every POST carries the page's CSRF token
in ``x-forge-csrf``, equal to its ``SameSite=Strict`` cookie; a POST from another site's Origin
is refused everywhere.
"""
from __future__ import annotations

import re


def _public(playable, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app

    app = make_app(playable, tmp_path / "play", ("play.example.org",), csrf=True, secure=True)
    return TestClient(app, base_url="https://play.example.org")


def test_a_host_that_is_not_the_public_one_is_refused(playable, tmp_path):
    with _public(playable, tmp_path) as c:
        for host in ("evil.example", "play.example.org.evil.example", "evil.example:443", "", "*"):
            r = c.get("/", headers={"host": host})
            assert r.status_code == 400 and "its own address" in r.json()["error"], host
        assert c.get("/", headers={"host": "play.example.org"}).status_code == 200
        assert c.get("/", headers={"host": "127.0.0.1:8766"}).status_code == 200


def test_a_wildcard_address_needs_a_public_url(shipped, cli):

    result = cli(["play", "--root", str(shipped), "--host", "0.0.0.0", "--port", "0"])
    assert result.exit_code == 2 and "--public-url" in result.stderr, result.output
    result = cli(["play", "--root", str(shipped), "--host", "0.0.0.0", "--port", "0",
                  "--public-url", "https://play.example.org/some/path"])
    assert result.exit_code == 2 and "no path" in result.stderr, result.output


def test_off_loopback_a_post_without_the_csrf_token_is_refused(playable, tmp_path):
    with _public(playable, tmp_path) as c:
        page = c.get("/")
        token = re.search(r'<meta name="forge-csrf" content="([^"]+)">', page.text).group(1)
        cookie = page.headers["set-cookie"]
        assert f"forge_csrf={token}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert "Secure" in cookie and len(token) >= 22  # 128 bits and more
        body = {"mode": "remote"}
        c.cookies.clear()
        assert c.post("/api/games", json=body).status_code == 403  # no cookie, no header
        assert c.post("/api/games", json=body, headers={"x-forge-csrf": token}).status_code == 403  # header only
        c.cookies.set("forge_csrf", token, domain="play.example.org")
        assert c.post("/api/games", json=body).status_code == 403  # cookie only: what a forged form sends
        r = c.post("/api/games", json=body, headers={"x-forge-csrf": "B" * len(token)})
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        r = c.post("/api/games", json=body, headers={"x-forge-csrf": token, "origin": "https://evil.example"})
        assert r.status_code == 403 and "Origin" in r.json()["error"]
        made = c.post("/api/games", json=body, headers={"x-forge-csrf": token, "origin": "https://play.example.org"})
        assert made.status_code == 201, made.text
        gid, key = made.json()["game"], made.json()["key"]
        view = c.get(f"/api/games/{gid}", headers={"x-forge-key": key}).json()
        move = {"decision": view["decision_no"], "action": ["end", -1, -1]}
        assert c.post(f"/api/games/{gid}/decide", json=move, headers={"x-forge-key": key}).status_code == 403
        r = c.post(f"/api/games/{gid}/decide", json=move, headers={"x-forge-key": key, "x-forge-csrf": token})
        assert r.status_code == 200, r.text
