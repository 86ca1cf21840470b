"""`forge watch` (issue 9 §6): a save is re-validated and its card redrawn, on a page that follows."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from forge.core.csp import integrity
from forge.preview.server import start
from forge.preview.snapshot import changed, snapshot
from forge.preview.state import PreviewState


def _edit(root: Path, old: str, new: str, file: str = "red.yaml") -> None:
    path = root / "cards" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_snapshot_sees_saves_additions_and_deletions_but_no_links_or_pipes(shipped):
    before = snapshot(shipped)
    assert "cards/red.yaml" in before and "locales/fr.yaml" in before
    _edit(shipped, "Kindle", "Kindle!")
    (shipped / "templates" / "new.txt").write_text("x", encoding="utf-8")
    (shipped / "cards" / "rites.yaml").unlink()
    (shipped / "cards" / "link.yaml").symlink_to("/etc/passwd")
    if hasattr(os, "mkfifo"):
        os.mkfifo(shipped / "cards" / "pipe.yaml")
    assert changed(before, snapshot(shipped)) == ["cards/red.yaml", "cards/rites.yaml", "templates/new.txt"]


@pytest.fixture
def state(shipped) -> PreviewState:
    state = PreviewState(shipped, ("en",), width=120)
    state.rebuild()
    return state


def _draw(state: PreviewState, card_id: str) -> None:
    """Draw the queued images up to and including ``card_id``'s."""
    while state.pending():
        job = state._queue[0]
        state.render_next()
        if job[0] == card_id:
            return


def test_a_first_build_queues_every_card_and_draws_jpegs(state):
    snap = state.snapshot()
    assert snap["summary"]["errors"] == 0 and snap["pending"] == len(snap["cards"]) == snap["summary"]["cards"]
    first = snap["cards"][0]["id"]
    state.render_next()
    assert state.image(first, "en")[:3] == b"\xff\xd8\xff"  # a JPEG
    assert state.snapshot()["cards"][0]["images"]["en"]


def test_an_edited_card_is_drawn_first_and_anew(state, shipped):
    _draw(state, "kindle")
    old = state.image("kindle", "en")
    _edit(shipped, 'name: {en: "Kindle"', 'name: {en: "Kindle Prime"')
    state.rebuild()
    assert state._queue[0] == ("kindle", "en")  # before the cards still waiting from the first build
    state.render_next()
    assert state.image("kindle", "en") != old


def test_a_finding_is_shown_beside_its_card(state, shipped):
    _edit(shipped, "    cost: 1\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"",
          "    cost: -1\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"")
    state.rebuild()
    cards = {c["id"]: c for c in state.snapshot()["cards"]}
    assert [f["rule"] for f in cards["kindle"]["findings"]] == ["schema"]
    assert cards["kindle"]["stale"]  # it does not load: its last image stays, marked
    assert not cards["ash-runner"]["findings"]


def test_a_file_that_stops_loading_keeps_its_cards_stale_not_gone(state, shipped):
    _draw(state, "kindle")
    path = shipped / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n\tbroken: [\n", encoding="utf-8")
    state.rebuild()
    snap = state.snapshot()
    kindle = next(c for c in snap["cards"] if c["id"] == "kindle")
    assert kindle["stale"] and state.image("kindle", "en") is not None
    shown = snap["findings"] + [f for c in snap["cards"] for f in c["findings"]]
    assert snap["summary"]["errors"] == 1 and [f["rule"] for f in shown] == ["yaml-syntax"]


def test_a_save_while_a_card_is_being_drawn_discards_the_outdated_image(state, shipped, monkeypatch):
    import forge.books.anatomy as anatomy

    real = anatomy.render_card
    _draw(state, "kindle")

    def slow(card, *args, **kwargs):  # the designer saves again while this card is drawn
        _edit(shipped, 'name: {en: "Kindle', 'name: {en: "Kindle Again')
        state.rebuild()
        return real(card, *args, **kwargs)

    _edit(shipped, 'name: {en: "Kindle"', 'name: {en: "Kindle One"')
    state.rebuild()
    drawn_for = state.cards["kindle"].keys["en"]
    monkeypatch.setattr(anatomy, "render_card", slow)
    state.render_next()
    monkeypatch.setattr(anatomy, "render_card", real)
    assert state.cards["kindle"].keys["en"] == drawn_for  # the image of "Kindle One" was not kept
    assert state._queue[0] == ("kindle", "en")  # "Kindle Again" is drawn next
    state.render_next()
    assert state.cards["kindle"].keys["en"] == state.cards["kindle"].wanted["en"]


@pytest.fixture
def server(state):
    server = start(state, "127.0.0.1", 0)
    yield server
    server.close()


@pytest.fixture(scope="module")
def refusing(tmp_path_factory):
    """One server for the module's tests whose requests it refuses: none changes its state or its files
    (a server per test took 0.4 s to build, start and close)."""
    from ..conftest import REPO

    root = tmp_path_factory.mktemp("preview")
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, root / part)
    state = PreviewState(root, ("en",), width=120)
    state.rebuild()
    server = start(state, "127.0.0.1", 0)
    yield server
    server.close()


def _get(server, path: str, host: str | None = None, method: str = "GET"):
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers={"Host": host or f"127.0.0.1:{port}"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response, body


def test_the_page_its_state_and_images_are_served_with_a_strict_policy(server, state):
    response, body = _get(server, "/")
    assert response.status == 200 and b"<title>forge watch" in body
    assert "default-src 'self'" in response.getheader("Content-Security-Policy")
    _, script = _get(server, "/app.js")  # the page runs forge's app.js only: pinned by its hash
    assert f'<script src="/app.js" integrity="{integrity(script)}" defer></script>'.encode() in body
    response, body = _get(server, "/state.json")
    assert response.status == 200 and json.loads(body)["summary"]["errors"] == 0
    first = json.loads(body)["cards"][0]["id"]
    state.render_next()
    response, body = _get(server, f"/card/en/{first}.jpg")
    assert response.status == 200 and response.getheader("Content-Type") == "image/jpeg" and body[:2] == b"\xff\xd8"


@pytest.mark.parametrize("path", ["/card/en/../../../etc/passwd", "/../cards/red.yaml", "/cards/red.yaml",
                                  "/card/de/kindle.jpg", "/card/en/no-such-card.jpg", "/%2e%2e/etc/passwd"])
def test_nothing_outside_the_preview_is_served(refusing, path):
    response, body = _get(refusing, path)
    assert response.status == 404 and b"root:" not in body and b"cards:" not in body


def test_another_host_name_is_refused_dns_rebinding(refusing):
    response, _ = _get(refusing, "/state.json", host="attacker.example:80")
    assert response.status == 400  # the gate forge play shares (forge.core.httpguard)


def test_the_preview_is_read_only(refusing):
    response, _ = _get(refusing, "/state.json", method="POST")
    assert response.status == 405


def test_the_event_stream_announces_each_change(server, state):
    port = server.server_address[1]
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    received = b""
    sock.settimeout(30)  # a stream that never speaks fails the test instead of hanging the suite
    while b"data: " not in received:
        received += sock.recv(4096)
    version = state.version
    state.render_next()  # a new image: the version moves on
    while f"data: {version + 1}".encode() not in received:
        received += sock.recv(4096)
    sock.close()
    assert b"text/event-stream" in received


def _line(stream, seconds: float = 90.0) -> str:
    """The next line of a child's output, or a failure after ``seconds`` (never a hung suite)."""
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(timeout=seconds):
            pytest.fail(f"no output from forge watch within {seconds} s")
    return stream.readline()


def test_forge_watch_serves_follows_a_save_and_stops_on_ctrl_c(shipped):
    script = Path(sys.executable).with_name("forge")
    proc = subprocess.Popen([str(script), "watch", "--root", str(shipped), "--port", "0", "--format", "json",
                             "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        serving = json.loads(_line(proc.stdout))
        assert serving["event"] == "serving" and serving["url"].startswith("http://127.0.0.1:")
        deadline = time.monotonic() + 90
        while True:  # the first build is done (and the files' state taken) before the save
            with urllib.request.urlopen(serving["url"] + "state.json", timeout=10) as response:
                if json.load(response)["summary"]:
                    break
            assert time.monotonic() < deadline, "forge watch never finished its first build"
            time.sleep(0.1)
        _edit(shipped, "    cost: 1\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"",
              "    cost: -1\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Kindle\"")
        event = json.loads(_line(proc.stdout))
        assert event["event"] == "changed" and event["files"] == ["cards/red.yaml"] and event["errors"] == 1
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    assert "Traceback" not in proc.stderr.read()


def test_a_busy_port_is_a_usage_error(shipped, cli):
    

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli(["watch", "--root", str(shipped), "--port", str(port)])
    assert result.exit_code == 2 and "--port" in result.output


def test_cards_are_drawn_at_their_text_class_size_as_printed(state, shipped):
    """A card's text size depends on the other cards of its class: the preview draws the printed face."""
    from forge.carddb.database import load_database
    from forge.render.face import build_faces
    from forge.text.cardtext import load_phrasebooks

    load = load_database(shipped)
    printed = {f.id: f for f in build_faces(load.db, load_phrasebooks(shipped), ["en"], shipped)["en"]}
    for card_id in ("archon-of-dawn", "kindle"):
        face = state._built[(card_id, "en")]
        assert (face.text_class, face.text_size, face.text_align) == (
            printed[card_id].text_class, printed[card_id].text_size, printed[card_id].text_align)
    assert printed["archon-of-dawn"].text_size < printed["kindle"].text_size  # the classes really differ
