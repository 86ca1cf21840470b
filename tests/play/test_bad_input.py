"""Bad requests get a clear 4xx with the reason, never a 500 or a traceback, and leave the game as it was."""
from __future__ import annotations

import os

import pytest

from .conftest import new_game, same


def _record(client, gid: str) -> bytes:
    return (client.folder / "games" / f"game-{int(gid):06d}.jsonl").read_bytes()


def _refused(r, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["status"] == status
    reason = body["error"]
    assert "Traceback" not in r.text and all(w in reason for w in words), reason
    return reason


@pytest.fixture
def game(client):
    gid, view = new_game(client, seed=9)
    return gid, view, _record(client, gid)


def _unchanged(client, gid, view, record) -> None:
    assert _record(client, gid) == record
    now = client.get(f"/api/games/{gid}").json()
    assert now["decision_no"] == view["decision_no"] and now["decision"] == view["decision"]


def test_an_action_that_is_not_legal_is_refused_with_the_legal_ones(client, game):
    gid, view, record = game
    r = client.post(f"/api/games/{gid}/decide", json={"decision": view["decision_no"], "action": ["buy", 0, 7]})
    _refused(r, 422, "buy 0 7", "not a legal option", "main")
    assert ["end", -1, -1] in r.json()["legal"]
    # a card of the AI's hand, a made-up kind, a card that does not exist
    for action in (["play", 99999, -1], ["win", -1, -1], ["summon", -5, -1]):
        _refused(client.post(f"/api/games/{gid}/decide", json={"decision": view["decision_no"], "action": action}),
                 422, "not a legal option")
    _unchanged(client, gid, view, record)


def test_a_stale_decision_is_refused(client, game):
    gid, view, record = game
    end = next(o for o in view["decision"]["options"] if o["kind"] == "end")
    body = {"decision": view["decision_no"], "action": end["action"]}
    assert client.post(f"/api/games/{gid}/decide", json=body).status_code == 200
    moved = client.get(f"/api/games/{gid}").json()
    reason = _refused(client.post(f"/api/games/{gid}/decide", json=body), 409, "stale decision")
    assert f"decision {moved['decision_no']}" in reason
    assert same(client.get(f"/api/games/{gid}").json(), moved)


def test_malformed_requests_are_refused(client, game):
    gid, view, record = game
    url = f"/api/games/{gid}/decide"
    as_json = {"content-type": "application/json"}
    _refused(client.post(url, content=b"{not json", headers=as_json), 400, "not JSON")
    # a form or text/plain, what another site's page may post here without asking, is refused
    _refused(client.post(url, content=b'{"decision": 0}', headers={"content-type": "text/plain"}), 415, "JSON")
    _refused(client.post(url, data={"decision": "0"}), 415, "content-type: application/json")
    _refused(client.post(url, json=[1, 2]), 400, "JSON object")
    _refused(client.post(url, json={"decision": view["decision_no"], "action": "end"}), 400, "[kind, a, b]")
    _refused(client.post(url, json={"decision": "7", "action": ["end", -1, -1]}), 400, "decision_no")
    _refused(client.post(url, content=b"{" + b" " * 20000 + b"}", headers=as_json), 413, "larger than")
    _refused(client.post(url, json={"decision": 0, "action": ["end", -1, -1], "seat": 1}), 403, "AI")
    _refused(client.post(url, json={"decision": 0, "action": ["end", -1, -1], "seat": "x"}), 400, "seat")
    _refused(client.get(f"/api/games/{gid}?seat=1"), 403, "AI")
    _refused(client.get(f"/api/games/{gid}?lang=de"), 400, "choose en or fr")
    _refused(client.delete(f"/api/games/{gid}"), 405, "DELETE")
    _refused(client.post("/api/games", json={"factions": ["red", "red"]}), 422, "different faction")
    _refused(client.post("/api/games", json={"factions": ["red", "green"]}), 400, "factions")
    _refused(client.post("/api/games", json={"mode": "online"}), 400, "mode")
    _refused(client.post("/api/games", json={"ai": "oracle"}), 422, "seat")
    _refused(client.post("/api/games", json={"seed": -1}), 400, "seed")
    _refused(client.get(f"/api/games/{gid}/record"), 409, "other hand")
    _unchanged(client, gid, view, record)


def test_a_game_that_does_not_exist(client, game):
    key = {"x-forge-key": client.keys[game[0]]}  # a key of another game opens nothing here
    _refused(client.get("/api/games/999", headers=key), 404, "no game 999")
    _refused(client.post("/api/games/999/decide", json={"decision": 0, "action": ["end", -1, -1]}, headers=key),
             404, "no game 999")
    _refused(client.get("/api/games/abc"), 404, "a game id is a number")
    _refused(client.get("/api/games/0001"), 404, "a game id is a number")
    assert not (client.folder / "games" / "game-000999.jsonl").exists()


@pytest.mark.parametrize("path", [
    "/card/en/..%2F..%2F..%2Fpyproject.toml", "/card/en/%2e%2e%2f%2e%2e%2fpyproject.toml.jpg",
    "/card/en/../../../../etc/passwd", "/card/..%2F..%2Fetc/passwd.jpg", "/card/en/lost-soul.jpg%00.txt",
    "/static/..%2F..%2Fserver.py", "/static/../../../pyproject.toml", "/static/index.html",
    "/api/games/..%2F..%2Fpyproject.toml", "/api/games/1%2F..%2F..%2Fetc%2Fpasswd/log",
    "/game/..%2F..%2F..%2Fetc%2Fpasswd/x", "/etc/passwd", "/output/play/games/game-000001.jsonl",
])
def test_a_path_that_tries_to_leave_the_served_folders(client, game, path):
    r = client.get(path)
    assert 400 <= r.status_code < 500 and r.json()["error"], (path, r.status_code, r.text)
    assert "[project]" not in r.text and "root:" not in r.text and '"t":"header"' not in r.text


def test_a_link_in_the_pictures_folder_is_drawn_over_not_followed(client, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the CI's secrets")
    client.get("/card/en/lost-soul.jpg")
    kept = next((client.folder / "cards" / "en").glob("lost-soul-*.jpg"))
    kept.unlink()
    kept.symlink_to(secret)
    r = client.get("/card/en/lost-soul.jpg")
    assert r.status_code == 200 and r.content[:3] == b"\xff\xd8\xff" and b"secrets" not in r.content
    assert not kept.is_symlink() and secret.read_text() == "the CI's secrets"


def test_a_pictures_folder_that_leads_outside_is_refused(client, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    client.folder.mkdir(parents=True, exist_ok=True)
    (client.folder / "cards").symlink_to(outside, target_is_directory=True)
    _refused(client.get("/card/en/lost-soul.jpg"), 403, "leads outside")
    assert list(outside.iterdir()) == []


def test_a_record_that_is_a_link_or_a_fifo_or_damaged_is_refused(client, playable, tmp_path):
    from forge.play.project import make_app

    from .conftest import Keyed

    gid, view = new_game(client, seed=1)
    folder = client.folder / "games"
    good = folder / f"game-{int(gid):06d}.jsonl"
    for n in "2345":  # each with the first game's keys: the record is what is refused
        (folder / f"game-00000{n}.keys.json").write_bytes((folder / f"game-{int(gid):06d}.keys.json").read_bytes())
        client.keys[n] = client.keys[gid]
    (folder / "game-000002.jsonl").symlink_to(good)
    os.mkfifo(folder / "game-000003.jsonl")
    (folder / "game-000004.jsonl").write_bytes(good.read_bytes().replace(b'"seed":1', b'"seed":2'))
    (folder / "game-000005.jsonl").write_bytes(good.read_bytes()[:-30])
    with Keyed(make_app(playable, client.folder), client.keys) as fresh:
        _refused(fresh.get("/api/games/2"), 403, "is a link")
        _refused(fresh.get("/api/games/3"), 403, "named pipe")
        _refused(fresh.get("/api/games/4"), 422, "cannot be played", "line")
        _refused(fresh.get("/api/games/5"), 422, "cut short")
        assert fresh.get(f"/api/games/{gid}").json()["decision_no"] == view["decision_no"]
        # a new game takes the number after every record on disk, never one of theirs
        assert fresh.post("/api/games", json={}).json()["game"] == "6"


def test_a_host_that_is_not_the_server_s_own_is_refused(client):
    _refused(client.get("/", headers={"host": "evil.example"}), 400, "its own address")
    _refused(client.get("/api/games", headers={"host": "127.0.0.1.evil.example:80"}), 400, "its own address")
    assert client.get("/", headers={"host": "localhost:8766"}).status_code == 200


def test_an_engine_failure_ends_the_game_not_the_server(client, monkeypatch):
    from forge.engine.state import State

    gid, view = new_game(client, seed=12)

    def broken(self, action):
        raise RuntimeError("a rules bug")

    end = next(o for o in view["decision"]["options"] if o["kind"] == "end")
    monkeypatch.setattr(State, "apply", broken)
    r = client.post(f"/api/games/{gid}/decide", json={"decision": view["decision_no"], "action": end["action"]})
    monkeypatch.undo()
    assert r.status_code == 200 and "a rules bug" in r.json()["over"]["text"] and r.json()["decision"] is None
    _refused(client.post(f"/api/games/{gid}/decide", json={"decision": view["decision_no"], "action": end["action"]}),
             409, "over")


def test_two_clicks_at_once_make_one_move_and_one_stale_refusal(playable, tmp_path):
    """The same decision sent twice at the same moment (a double click, two tabs): one is played, one refused."""
    import asyncio

    import httpx2

    from forge.play.project import make_app

    app = make_app(playable, tmp_path / "play")

    async def race():
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            made = (await c.post("/api/games", json={"seed": 6})).json()
            gid, key = made["game"], {"x-forge-key": made["key"]}
            view = (await c.get(f"/api/games/{gid}", headers=key)).json()
            body = {"decision": view["decision_no"], "action": ["end", -1, -1]}
            answers = await asyncio.gather(*(c.post(f"/api/games/{gid}/decide", json=body, headers=key)
                                             for _ in range(4)))
            return gid, sorted(r.status_code for r in answers), (await c.get(f"/api/games/{gid}", headers=key)).json()

    gid, codes, after = asyncio.run(race())
    assert codes == [200, 409, 409, 409]
    session = app.state.play.store.sessions[gid]
    record = (tmp_path / "play" / "games" / f"game-{int(gid):06d}.jsonl").read_text("utf-8")
    assert record == session.record_text() and after["decision_no"] == session.state.decisions
