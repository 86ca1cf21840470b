"""Another site's page cannot embed or fetch what `forge watch` and `forge play` serve.

Before, a page of any site the designer visited could put ``<img src="http://127.0.0.1:8765/
card/en/<id>.jpg">`` in itself: the browser sent the request (the Host, loopback's, was
right) and the picture loaded, so the page learnt which cards exist, unreleased designs
included, and their size; nothing in the answer told the browser to refuse it. Now the gate
both servers share refuses a request whose ``Sec-Fetch-Site`` is not the server's own unless
it is a link followed to a page (403), and every answer says ``Cross-Origin-Resource-Policy:
same-origin`` for the browsers that send no fetch metadata.
"""
from __future__ import annotations

import http.client

import pytest

from ..browser import until

#: What Chromium and Firefox send for an <img> of another site's page.
EMBEDDED = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image",
            "Referer": "https://evil.example/"}


@pytest.fixture
def watch(shipped):
    from forge.preview.server import start
    from forge.preview.state import PreviewState

    state = PreviewState(shipped, ("en",), width=120)
    state.rebuild()
    state.render_next()  # the first card's picture, as the preview holds it after a save
    server = start(state, "127.0.0.1", 0)
    yield server, state.snapshot()["cards"][0]["id"]
    server.close()


def _get(server, path: str, headers: dict[str, str]):
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **headers})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, response.getheader("Cross-Origin-Resource-Policy"), body


@pytest.mark.slow  # the preview's first build: about 4 s
def test_another_site_cannot_embed_a_card_of_the_preview(watch):
    server, card = watch
    status, corp, body = _get(server, f"/card/en/{card}.jpg", EMBEDDED)
    assert status == 403 and b"\xff\xd8" not in body and corp == "same-origin"
    status, corp, body = _get(server, f"/card/en/{card}.jpg", {"Sec-Fetch-Site": "same-origin"})
    assert status == 200 and body[:3] == b"\xff\xd8\xff" and corp == "same-origin"  # its own page shows it
    for path in ("/state.json", "/events", "/app.js"):  # nor read the findings, follow the stream, run the script
        assert _get(server, path, {**EMBEDDED, "Sec-Fetch-Dest": "script"})[0] == 403, path


def test_another_site_cannot_embed_a_card_of_the_play_server(playable, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app

    with TestClient(make_app(playable, tmp_path / "play"), base_url="http://127.0.0.1:8766") as play:
        embedded = play.get("/card/fr/lost-soul.jpg", headers={k.lower(): v for k, v in EMBEDDED.items()})
        assert embedded.status_code == 403 and embedded.content[:2] != b"\xff\xd8"
        own = play.get("/card/fr/lost-soul.jpg", headers={"sec-fetch-site": "same-origin"})
        assert own.status_code == 200 and own.headers.get("cross-origin-resource-policy") == "same-origin"
        followed = play.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate",
                                          "sec-fetch-dest": "document"})
        assert followed.status_code == 200  # an invitation link sent by chat still opens the game


@pytest.fixture
def browser():
    from ..browser import launch

    yield from launch()


@pytest.mark.slow
def test_in_chromium_another_sites_page_gets_no_picture_and_the_preview_shows_them_all(watch, browser):
    """The attack as a browser makes it: a page on localhost (another site than 127.0.0.1) embeds the card."""
    import http.server
    import threading

    server, card = watch
    picture = f"http://127.0.0.1:{server.server_address[1]}/card/en/{card}.jpg"
    page = f'<!doctype html><img id="probe" src="{picture}">'.encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto(f"http://localhost:{evil.server_address[1]}/")
        until(tab, "document.getElementById('probe').complete")
        assert tab.evaluate("document.getElementById('probe').naturalWidth") == 0  # nothing learnt
        tab.goto(f"http://127.0.0.1:{server.server_address[1]}/")  # the preview's own page shows it
        until(tab, f"[...document.images].some(i => i.src.includes('/{card}.jpg') && i.naturalWidth > 0)")
    finally:
        context.close()
        evil.shutdown()
        evil.server_close()

