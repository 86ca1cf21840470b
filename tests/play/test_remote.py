"""Two machines, one game: each seat's own page follows the other's moves live; the lobby, abandoning, the clock;
and what keeps the server fast: the record appended with fsync, TCP_NODELAY."""
from __future__ import annotations

import asyncio
import os
import random
import socket

import httpx2

from forge.engine.record import digest, replay

from .conftest import Stream, choose


def _remote(c):
    made = c.post("/api/games", json={"mode": "remote", "factions": ["blue", "red"], "first": 1})
    assert made.status_code == 201, made.text
    made = made.json()
    return made["game"], {0: made["key"], 1: made["invite"].split("#")[1]}, made


def test_a_remote_game_is_created_with_an_invite_and_dealt_in_secret(client):
    gid, keys, made = _remote(client)
    assert made["link"] == f"/game/{gid}#{keys[0]}" and made["invite"] == f"/game/{gid}#{keys[1]}"
    assert "spectate" not in made
    views = {p: client.get(f"/api/games/{gid}", headers={"x-forge-key": k}).json() for p, k in keys.items()}
    assert [views[p]["seat"] for p in (0, 1)] == [0, 1] and views[0]["mode"] == "remote"
    assert views[0]["names"] == ["Player 1 (You)", "Player 2"] and views[1]["names"] == ["Player 1", "Player 2 (You)"]
    assert views[1]["pending"] == 1 and views[1]["decision"] and views[0]["decision"] is None  # player 2 goes first
    assert views[0]["waiting"] == "Player 2 is deciding…"
    r = client.post("/api/games", json={"mode": "remote", "seed": 3})
    assert r.status_code == 400 and "secret" in r.json()["error"]
    later = client.post(f"/api/games/{gid}/spectator", json={}, headers={"x-forge-key": keys[0]})
    assert later.status_code == 201 and later.json()["spectate"].startswith(f"/game/{gid}#")
    # the deal's seed is secret (63 random bits), not the game's number: nobody can deal the decks again
    other, _, _ = _remote(client)
    seeds = [client.store.sessions[g].state.seed for g in (gid, other)]
    assert seeds[0] != seeds[1] and not set(seeds) & {1, 2, int(gid), int(other)}


def test_each_page_sees_the_other_s_move_live_and_an_abandon_ends_it_for_both(playable, tmp_path):
    from forge.play.project import make_app

    app = make_app(playable, tmp_path / "play")

    async def play():
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
            made = (await c.post("/api/games", json={"mode": "remote", "spectator": True})).json()
            gid = made["game"]
            keys = {0: made["key"], 1: made["invite"].split("#")[1]}
            pages = {p: Stream(app, gid, k) for p, k in keys.items()}
            watcher = Stream(app, gid, made["spectate"].split("#")[1], "fr")
            tasks = [asyncio.create_task(s.run()) for s in (*pages.values(), watcher)]
            first = await pages[1].until(lambda vs: len(vs) >= 1)
            assert first[0]["decision"] is None and first[0]["pending"] == 0
            rng, moves = random.Random(4), 0
            view = (await c.get(f"/api/games/{gid}", headers={"x-forge-key": keys[0]})).json()
            while moves < 40:
                p = view["pending"]
                body = {"decision": view["decision_no"], "action": choose(view, rng)["action"]}
                r = await c.post(f"/api/games/{gid}/decide", json=body, headers={"x-forge-key": keys[p]})
                assert r.status_code == 200, r.text
                moves += 1
                now = r.json()["decision_no"]
                # the other page is told, without asking: its next view is the one after this move
                shown = await pages[1 - p].until(lambda vs, now=now: vs[-1]["decision_no"] >= now)
                view = shown[-1]
                if not view["over"] and view["pending"] == p:  # still this seat's turn: its own page says so too
                    view = (await pages[p].until(lambda vs, now=now: vs[-1]["decision_no"] >= now))[-1]
            r = await c.post(f"/api/games/{gid}/abandon", json={}, headers={"x-forge-key": keys[1]})
            assert r.status_code == 200 and r.json()["over"]["abandoned"] == 1
            for s in (*pages.values(), watcher):
                await s.until(lambda vs: vs[-1]["over"])
            for s in (*pages.values(), watcher):
                s.closed.set()
            await asyncio.gather(*tasks)
            assert moves == 40
            return gid, pages, watcher

    gid, pages, watcher = asyncio.run(play())
    assert all(s.status == 200 for s in (*pages.values(), watcher))
    last = [s.views()[-1] for s in pages.values()]
    assert [v["over"]["text"] for v in last] == ["Player 2 abandoned the game.", "Player 2 (You) abandoned the game."]
    assert watcher.views()[-1]["over"]["text"] == "Joueur 2 a abandonné la partie."
    assert watcher.views()[-1]["role"] == "spectator" and watcher.views()[-1]["lang"] == "fr"
    assert all(v["clock_ms"][0] >= 0 and v["clock_ms"][1] >= 0 for v in last)
    session = app.state.play.store.sessions[gid]
    record = (tmp_path / "play" / "games" / f"game-{int(gid):06d}.jsonl").read_bytes()
    assert record == session.record_text().encode("utf-8")
    assert digest(replay(playable.game, record)) == digest(session.state)


def test_the_lobby_lists_a_browser_s_games_and_a_player_may_abandon_one(client):
    gid, keys, _ = _remote(client)
    ai = client.post("/api/games", json={}).json()
    asked = [{"game": gid, "key": keys[0]}, {"game": gid, "key": keys[1]}, {"game": ai["game"], "key": ai["key"]},
             {"game": gid, "key": ai["key"]}]
    states = client.post("/api/lobby", json={"games": asked}).json()["games"]
    assert [s["status"] for s in states] == ["their_turn", "your_turn", "your_turn", "gone"]
    r = client.post(f"/api/games/{gid}/abandon", json={}, headers={"x-forge-key": keys[0]})
    assert r.status_code == 200 and r.json()["over"]["text"] == "Player 1 (You) abandoned the game."
    states = client.post("/api/lobby", json={"games": asked[:2]}).json()["games"]
    assert [s["status"] for s in states] == ["abandoned", "abandoned"]
    view = client.get(f"/api/games/{gid}", headers={"x-forge-key": keys[1]}).json()
    r = client.post(f"/api/games/{gid}/decide", headers={"x-forge-key": keys[1]},
                    json={"decision": view["decision_no"], "action": ["end", -1, -1]})
    assert r.status_code == 409 and view["over"]["abandoned"] == 0
    assert client.post("/api/lobby", json={"games": [{"game": "1"}]}).status_code == 400


def test_the_record_is_appended_after_each_move_with_fsync_not_rewritten(client, monkeypatch):
    from .conftest import decide, new_game

    gid, view = new_game(client, seed=8)
    path = client.folder / "games" / f"game-{int(gid):06d}.jsonl"
    inode, synced = path.stat().st_ino, []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    rng = random.Random(8)
    for n in range(1, 21):
        before = path.read_bytes()
        view = decide(client, gid, view, choose(view, rng))
        after = path.read_bytes()
        head = before[:before.rindex(b'{"t":"result"')]
        assert after.startswith(head) and len(synced) == n  # the lines before stay as they were: appended
        assert path.stat().st_ino == inode  # the same file, not a new one renamed over it
        assert digest(replay(client.store.game, after)) == digest(client.store.sessions[gid].state)


def test_the_server_s_socket_sets_tcp_nodelay_on_every_connection():
    from forge.play import serving

    sock = serving.bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY only on such sockets
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        peer = socket.create_connection(sock.getsockname())
        conn, _ = sock.accept()
        assert conn.proto == socket.IPPROTO_TCP and conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        conn.close()
        peer.close()
    finally:
        sock.close()


def test_a_game_kept_before_games_had_keys_is_adopted_with_a_new_key_and_opens_again(client, playable):
    """No game is lost to the upgrade that brought keys: `forge play` gives a game with no key file a key for
    its people's seats (printed to the terminal of whoever runs it), and that key opens the game."""
    from forge.play.seats import keys_path
    from forge.play.store import GameStore

    from .conftest import new_game

    gid, view = new_game(client, seed=8)
    record = client.folder / "games" / f"game-{int(gid):06d}.jsonl"
    keys_path(record).unlink()  # as a game from before keys is kept
    store = GameStore(client.folder / "games", playable.game)
    [(adopted, key)] = store.adopt()
    assert adopted == gid and keys_path(record).is_file() and store.adopt() == []  # once, not at every start
    again = GameStore(client.folder / "games", playable.game)
    assert again.authorize(gid, key).seats == (0,) and again.get(gid).state.decisions == view["decision_no"]
