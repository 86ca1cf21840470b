"""A game survives a server restart: its record is the state, replayed on load, the AI as it was."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import urllib.request

from forge.engine.record import digest, replay
from forge.play.project import make_app

from .conftest import Keyed, choose, decide, new_game, play_out, same


def _restarted(playable, client) -> Keyed:
    return Keyed(make_app(playable, client.folder), client.keys, raise_server_exceptions=False)


def test_a_game_goes_on_after_a_restart_exactly_as_without_one(playable, client, tmp_path):
    # one game played straight through...
    gid, view = new_game(client, seed=21, factions=["blue", "white"])
    straight = play_out(client, gid, view, random.Random(21))
    straight_record = (client.folder / "games" / f"game-{int(gid):06d}.jsonl").read_text("utf-8")
    # ...and the same game (same deal, same choices) with the server restarted twice on the way
    other = tmp_path / "other"
    first = Keyed(make_app(playable, other))
    gid2, view = new_game(first, seed=21, factions=["blue", "white"])
    rng = random.Random(21)
    for _ in range(40):
        view = decide(first, gid2, view, choose(view, rng))
    first.folder = other
    for _ in range(2):
        before = view
        with _restarted(playable, first) as again:
            view = again.get(f"/api/games/{gid2}").json()
            assert same(view, before)
            assert not view["over"]
            for _ in range(12):
                view = decide(again, gid2, view, choose(view, rng))
    with _restarted(playable, first) as last:
        view = play_out(last, gid2, last.get(f"/api/games/{gid2}").json(), rng)
    record = (other / "games" / f"game-{int(gid2):06d}.jsonl").read_text("utf-8")
    assert record == straight_record  # the AI remembered what it had seen: the same game, move for move
    assert view["over"] == straight["over"]
    assert json.loads(record.splitlines()[-2])["digest"] == digest(replay(playable.game, record))


def test_forge_play_serves_until_stopped_and_keeps_its_games(shipped):
    """The command itself: port 0 on loopback, a game started, the server stopped and started again."""

    def start():
        proc = subprocess.Popen([sys.executable, "-m", "forge.cli", "play", "--root", str(shipped), "--port", "0",
                                 "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        url = json.loads(line)["url"]
        assert url.startswith("http://127.0.0.1:")
        return proc, url

    def call(url, path, body=None, key=""):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url + path.lstrip("/"), data=data,
                                     headers={"content-type": "application/json", "x-forge-key": key})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())

    proc, url = start()
    try:
        made = call(url, "/api/games", {"seed": 4})
        gid, key = made["game"], made["key"]
        view = call(url, f"/api/games/{gid}", key=key)
        end = next(o for o in view["decision"]["options"] if o["kind"] == "end")
        view = call(url, f"/api/games/{gid}/decide", {"decision": view["decision_no"], "action": end["action"]}, key)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert (shipped / "output" / "play" / "games" / "game-000001.jsonl").is_file()
    proc, url = start()
    try:
        again = call(url, f"/api/games/{gid}", key=key)
        assert again["decision_no"] == view["decision_no"] and again["log"] == view["log"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_forge_play_refuses_a_project_whose_cards_do_not_load(project):
    project("red.yaml", "- id: [broken\n")
    result = subprocess.run([sys.executable, "-m", "forge.cli", "play", "--root", str(project.root), "--port", "0"],
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                            timeout=120)
    assert result.returncode in (1, 2) and "red.yaml" in result.stderr and "Traceback" not in result.stderr


def test_a_game_let_go_from_memory_is_read_back_as_it_was(client, monkeypatch):
    from forge.play import store

    monkeypatch.setattr(store, "MAX_SESSIONS", 2)
    gid, view = new_game(client, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        view = decide(client, gid, view, choose(view, rng))
    new_game(client, seed=4)
    new_game(client, seed=5)
    assert gid not in client.store.sessions and len(client.store.sessions) == 2
    again = client.get(f"/api/games/{gid}").json()
    assert same(again, view)
    assert list(client.store.sessions)[-1] == gid


def test_forge_play_says_when_its_port_is_taken(shipped, cli):
    
    from forge.play import serving

    taken = serving.bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        result = cli(["play", "--root", str(shipped), "--port", str(port)])
    finally:
        taken.close()
    assert result.exit_code == 2, result.output
    assert f"cannot serve on 127.0.0.1:{port}" in result.stderr and "--port" in result.stderr
