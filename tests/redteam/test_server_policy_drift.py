"""`forge watch` and `forge play` answer a hostile request alike: one gate, one set of security headers.

Before, the preview kept its own copy of the policy, and the copies had drifted: its
Content-Security-Policy differed from play's (``form-action``), a foreign Host got 421 there
and 400 here, a POST from another site's Origin met no Origin check in the preview (405, as
any POST), a form posted by another site's page met a 405 there and a 415 here, and neither
server sent ``Cross-Origin-Resource-Policy``. Now both servers run
``forge.core.httpguard``'s gate: the same headers on every answer, refusals included, and
the same refusal, status and reason, of a foreign Host, a foreign Origin and another site's page.
"""
from __future__ import annotations

import http.client

import pytest

SECURITY = ("content-security-policy", "x-content-type-options", "referrer-policy", "cache-control",
            "cross-origin-resource-policy", "cross-origin-opener-policy")
HOSTILE = [  # (method, path on play, path on watch, headers): what another site's page sends
    ("GET", "/", "/", {"Host": "evil.example"}),  # DNS rebinding: the attacker's name
    ("POST", "/api/games", "/state.json", {"Origin": "https://evil.example", "Content-Type": "application/json"}),
    ("POST", "/api/games", "/state.json", {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate",  # a form
                                           "Sec-Fetch-Dest": "document", "Content-Type": "text/plain"}),
]


@pytest.fixture
def watch(shipped):
    from forge.preview.server import start
    from forge.preview.state import PreviewState

    state = PreviewState(shipped, ("en",), width=120)
    server = start(state, "127.0.0.1", 0)
    yield server
    server.close()


@pytest.fixture
def play(playable, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app

    with TestClient(make_app(playable, tmp_path / "play"), base_url="http://127.0.0.1:8766") as client:
        yield client


def _watch(server, method: str, path: str, headers: dict[str, str]):
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=b"{}" if method == "POST" else None,
                 headers={"Host": f"127.0.0.1:{port}", **headers})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_both_servers_send_the_same_security_headers(watch, play):
    status, headers, _ = _watch(watch, "GET", "/", {})
    played = play.get("/")
    assert status == played.status_code == 200
    assert {h: headers.get(h) for h in SECURITY} == {h: played.headers.get(h) for h in SECURITY}
    assert all(headers.get(h) for h in SECURITY), headers


@pytest.mark.parametrize("method, on_play, on_watch, sent", HOSTILE, ids=["host", "origin", "cross-site-form"])
def test_both_servers_refuse_a_hostile_request_alike(watch, play, method, on_play, on_watch, sent):
    status, headers, body = _watch(watch, method, on_watch, sent)
    played = play.request(method, on_play, content=b"{}" if method == "POST" else None,
                          headers={k.lower(): v for k, v in sent.items()})
    assert played.status_code in (400, 403)  # play refuses it
    assert (status, body) == (played.status_code, played.content)  # and the preview the same way, for the same reason
    assert {h: headers.get(h) for h in SECURITY} == {h: played.headers.get(h) for h in SECURITY}
