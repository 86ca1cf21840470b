"""A game opens only with one of its keys: none, a wrong one, another game's or a spectator's does not play it.

Before, anyone who could reach ``forge play`` could open, play and read any game by its number
(``/api/games/7``), for either seat (``?seat=1``), and the numbers count from 1. Now every
game request carries a seat's key (192 random bits, the link's fragment, in ``x-forge-key``): no
key is 403, a wrong key is 404 as for no game, a key plays only its own seat, a spectator's
key plays nothing, and the server keeps only the keys' digests, compared with
``hmac.compare_digest`` against every grant of the game whichever matches.
"""
from __future__ import annotations

import json



def _game(client):
    made = client.post("/api/games", json={"mode": "remote", "spectator": True, "factions": ["red", "white"]})
    assert made.status_code == 201, made.text
    made = made.json()
    return made["game"], made["key"], made["invite"].split("#")[1], made["spectate"].split("#")[1]


def _client(playable, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app

    return TestClient(make_app(playable, tmp_path / "play"), base_url="http://127.0.0.1")


def test_no_key_or_a_wrong_key_opens_nothing(playable, tmp_path):
    with _client(playable, tmp_path) as c:
        gid, k0, _, _ = _game(c)
        for path in ("", "/log", "/record", "/events"):
            assert c.get(f"/api/games/{gid}{path}").status_code == 403
            assert c.get(f"/api/games/{gid}{path}?seat=1").status_code == 403
            for wrong in ("A" * 32, k0[:-1] + ("A" if k0[-1] != "A" else "B"), k0 + "x", "", "../" * 11):
                r = c.get(f"/api/games/{gid}{path}", headers={"x-forge-key": wrong})
                assert r.status_code in (403, 404) and "Traceback" not in r.text, (wrong, r.status_code)
        _, other, _, _ = _game(c)
        r = c.get(f"/api/games/{gid}", headers={"x-forge-key": other})  # another game's key
        assert r.status_code == 404 and r.json()["error"] == f"no game {gid} opens with this key: ask its players for the link"
        body = {"decision": 0, "action": ["end", -1, -1]}
        assert c.post(f"/api/games/{gid}/decide", json=body).status_code == 403
        assert c.post(f"/api/games/{gid}/abandon", json={}).status_code == 403
        assert c.post(f"/api/games/{gid}/spectator", json={}).status_code == 403


def test_a_key_plays_its_own_seat_only_and_a_spectator_plays_nothing(playable, tmp_path):
    with _client(playable, tmp_path) as c:
        gid, k0, k1, ks = _game(c)
        view = c.get(f"/api/games/{gid}", headers={"x-forge-key": k0}).json()
        assert view["pending"] == 0 and view["decision"] is not None
        end = {"decision": view["decision_no"], "action": ["end", -1, -1]}
        # the other seat's key, or the right key naming the other seat, cannot take seat 0's decision
        r = c.post(f"/api/games/{gid}/decide", json=end, headers={"x-forge-key": k1})
        assert r.status_code == 409 and "player 1's, not player 2's" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/decide", json={**end, "seat": 0}, headers={"x-forge-key": k1})
        assert r.status_code == 403
        assert c.get(f"/api/games/{gid}?seat=0", headers={"x-forge-key": k1}).status_code == 403
        for path, body in (("decide", end), ("decide", {**end, "seat": 0}), ("abandon", {}), ("spectator", {})):
            r = c.post(f"/api/games/{gid}/{path}", json=body, headers={"x-forge-key": ks})
            assert r.status_code == 403 and "spectator" in r.json()["error"], (path, r.text)
        spectator = c.get(f"/api/games/{gid}", headers={"x-forge-key": ks}).json()
        assert spectator["role"] == "spectator" and spectator["decision"] is None
        assert [p["hand"] for p in spectator["players"]] == [None, None]
        assert c.get(f"/api/games/{gid}/record", headers={"x-forge-key": ks}).status_code == 409
        assert c.get(f"/api/games/{gid}", headers={"x-forge-key": k0}).json()["decision_no"] == view["decision_no"]


def test_the_server_keeps_digests_and_compares_every_grant_in_constant_time(playable, tmp_path, monkeypatch):
    from forge.play import seats

    with _client(playable, tmp_path) as c:
        gid, k0, k1, ks = _game(c)
        kept = (tmp_path / "play" / "games" / f"game-{int(gid):06d}.keys.json").read_text()
        assert not any(k in kept for k in (k0, k1, ks)) and len(json.loads(kept)["grants"]) == 3
        assert len(k0) == 32 and len({k0, k1, ks}) == 3  # 24 random bytes: 192 bits
        calls = []
        real = seats.hmac.compare_digest
        monkeypatch.setattr(seats.hmac, "compare_digest", lambda a, b: calls.append(a) or real(a, b))
        for key in (k0, ks, "A" * 32):
            calls.clear()
            c.get(f"/api/games/{gid}", headers={"x-forge-key": key})
            assert len(calls) == 3  # the first grant matches or none does: all three are compared all the same
