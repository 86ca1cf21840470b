"""Shared fixtures of the play server's tests: the shipped project read once, a fresh play folder per test."""
from __future__ import annotations

import random

import pytest

from ..conftest import REPO

#: The order a test player prefers options in: act first, then spend, then stop (games end in ~20 turns).
PREFERENCE = ("play", "summon", "activate", "trap", "guard", "buy", "raise", "pick", "faction", "yes", "order",
              "end", "pass", "stop", "no")


@pytest.fixture(scope="session")
def playable():
    from forge.play.project import read

    project = read(REPO)
    assert project.game is not None, project.findings
    return project


@pytest.fixture
def client(playable, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app

    with TestClient(make_app(playable, tmp_path / "play"), base_url="http://127.0.0.1",
                    raise_server_exceptions=False) as c:
        c.folder = tmp_path / "play"
        c.store = c.app.state.play.store
        yield c


def choose(view: dict, rng: random.Random) -> dict:
    """A sensible option of a view's decision: the most preferred kind, the dearest purchase, else at random."""
    options = view["decision"]["options"]
    for kind in PREFERENCE:
        mine = [o for o in options if o["kind"] == kind]
        if mine:
            if kind == "buy":
                return max(mine, key=lambda o: (o["card"]["cost"], -o["i"]))
            return rng.choice(mine)
    return options[0]


def new_game(client, **settings) -> tuple[str, dict]:
    r = client.post("/api/games", json={"factions": ["red", "blue"], **settings})
    assert r.status_code == 201, r.text
    gid = r.json()["game"]
    view = client.get(f"/api/games/{gid}").json()
    return gid, view


def decide(client, gid: str, view: dict, option: dict, lang: str = "en") -> dict:
    body = {"decision": view["decision_no"], "action": option["action"], "seat": view["seat"]}
    r = client.post(f"/api/games/{gid}/decide?lang={lang}", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play_out(client, gid: str, view: dict, rng: random.Random, moves: int = 5000, lang: str = "en") -> dict:
    """Decide with ``choose`` until the game ends (or ``moves`` decisions); the last view."""
    for _ in range(moves):
        if view["over"]:
            break
        view = decide(client, gid, view, choose(view, rng), lang)
    return view
