"""`forge watch` and `forge play` behind one gate (issue 26 §3): the same headers, the same refusals.

Both apps are asked the same questions through Starlette's test client, as a browser
would ask them (its Host, Origin and fetch-metadata headers), and must answer alike.
"""
from __future__ import annotations

import threading
import time

import pytest
from starlette.testclient import TestClient

from forge.core.csp import served_policy
from forge.core.httpguard import SECURITY_HEADERS, bound_hosts
from forge.preview.server import create_app as preview_app
from forge.preview.state import PreviewState

from ..conftest import REPO

SECURITY = [name.decode() for name, _ in SECURITY_HEADERS]
#: What another site's page sends: an image it embeds, a script's request, a form it posts.
EMBED = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image"}
FETCH = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty"}
FORM = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document"}


def _preview(hosts=(), csrf=False) -> TestClient:
    return TestClient(preview_app(PreviewState(REPO, ("en",)), threading.Event(), hosts, csrf),
                      base_url="http://127.0.0.1:8765")


@pytest.fixture
def servers(playable, tmp_path):
    """(name, client, a page it serves, a URL it answers a POST on) for each server, on loopback."""
    from forge.play.project import make_app

    with TestClient(make_app(playable, tmp_path / "play"), base_url="http://127.0.0.1:8766") as play, \
            _preview() as watch:
        yield [("play", play, "/", "/api/games"), ("watch", watch, "/", "/state.json")]


def _security(response) -> dict[str, str]:
    return {name: response.headers.get(name) for name in SECURITY}


def test_both_servers_send_the_same_security_headers_on_answers_and_refusals(servers):
    seen = {}
    for name, client, page, _ in servers:
        ok, refused = client.get(page), client.get(page, headers={"host": "evil.example"})
        assert ok.status_code == 200 and refused.status_code == 400, name
        assert _security(ok) == _security(refused), name
        seen[name] = _security(ok)
    assert seen["play"] == seen["watch"]
    assert seen["watch"]["content-security-policy"] == served_policy()
    assert "form-action 'none'" in served_policy() and "frame-ancestors 'none'" in served_policy()
    assert seen["watch"]["cross-origin-resource-policy"] == "same-origin"


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example:80", "localhost.evil.example", "", "*"])
def test_both_servers_refuse_a_foreign_host(servers, host):
    for name, client, page, _ in servers:
        r = client.get(page, headers={"host": host})
        assert r.status_code == 400 and "its own address" in r.json()["error"], name


def test_both_servers_answer_loopback_names_on_any_port(servers):
    for name, client, page, _ in servers:
        for host in ("127.0.0.1", "localhost:1234", "LOCALHOST:8765", "[::1]:80"):
            assert client.get(page, headers={"host": host}).status_code == 200, (name, host)


def test_both_servers_refuse_a_post_from_another_sites_origin(servers):
    for name, client, _, post in servers:
        r = client.post(post, json={}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and "Origin" in r.json()["error"], name


@pytest.mark.parametrize("sent", [EMBED, FETCH, FORM], ids=["embedded", "fetched", "form"])
def test_both_servers_refuse_another_sites_page_its_resources_and_its_posts(servers, sent):
    for name, client, page, post in servers:
        r = client.post(post, json={}, headers=sent)
        assert r.status_code == 403 and "Sec-Fetch-Site" in r.json()["error"], name
        if sent is not FORM:
            r = client.get(page, headers=sent)
            assert r.status_code == 403 and "Sec-Fetch-Site" in r.json()["error"], name


def test_a_link_from_another_site_still_opens_the_page(servers):
    for name, client, page, _ in servers:
        assert client.get(page, headers=FORM).status_code == 200, name  # a link followed: a navigation
        assert client.get(page, headers={"sec-fetch-site": "same-origin"}).status_code == 200, name
        assert client.get(page, headers={"sec-fetch-site": "none"}).status_code == 200, name  # typed in


def test_a_preview_served_off_loopback_answers_to_its_address_and_asks_a_csrf_token():
    with _preview(bound_hosts("192.0.2.7"), csrf=True) as watch:
        assert watch.get("/", headers={"host": "192.0.2.7:8765"}).status_code == 200
        assert watch.get("/", headers={"host": "192.0.2.8:8765"}).status_code == 400
        r = watch.post("/state.json", headers={"host": "192.0.2.7:8765"})
        assert r.status_code == 403 and "CSRF" in r.json()["error"]


def test_a_preview_on_every_address_answers_to_loopback_names_only():
    assert bound_hosts("0.0.0.0") == bound_hosts("::") == ()
    with _preview(bound_hosts("0.0.0.0")) as watch:
        assert watch.get("/", headers={"host": "0.0.0.0:8765"}).status_code == 400
        assert watch.get("/", headers={"host": "localhost:8765"}).status_code == 200


def test_the_preview_stays_read_only(servers):
    watch = dict((name, client) for name, client, *_ in servers)["watch"]
    r = watch.post("/state.json", json={})
    assert r.status_code == 405 and "read-only" in r.json()["error"]
    r = watch.get("/nothing-here")
    assert r.status_code == 404 and "/state.json" in r.json()["error"]


def test_the_previews_change_streams_are_bounded_and_a_closed_page_frees_its_own(shipped):
    """The rewrite on Starlette keeps the preview's bound on open streams (503 past it), and frees them."""
    import socket

    from forge.preview.server import MAX_STREAMS, start

    state = PreviewState(shipped, ("en",))
    server = start(state, "127.0.0.1", 0)
    port = server.server_address[1]

    def stream():
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        return sock, sock.recv(4096).split(b"\r\n")[0]

    try:
        for _ in range(2):  # twice: the first round's pages, closed, left no slot taken
            opened = [stream() for _ in range(MAX_STREAMS + 1)]
            assert [status for _, status in opened].count(b"HTTP/1.1 200 OK") == MAX_STREAMS
            assert opened[-1][1] == b"HTTP/1.1 503 Service Unavailable"
            for sock, _ in opened:
                sock.close()
            deadline = time.monotonic() + 10
            while server.uvicorn.server_state.connections and time.monotonic() < deadline:
                with state.changed:
                    state._bump()  # a change: each stream writes, and finds its page gone
                time.sleep(0.05)
    finally:
        server.close()
