"""Shared fixtures of the play server's tests: the shipped project read once, a fresh play folder per test."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from ..browser import launch
from ..conftest import REPO


#: The order a test player prefers options in: act first, then spend, then stop (games end in ~20 turns).
PREFERENCE = ("play", "summon", "activate", "trap", "guard", "buy", "raise", "pick", "faction", "yes", "order",
              "end", "pass", "stop", "no")


@pytest.fixture(scope="module")
def browser():
    """A Chromium for each browser test module of the play server (skipped without it)."""
    yield from launch()


class Keyed(TestClient):
    """A test client that keeps the key of each game it creates and sends it with that game's requests
    (as the page does), unless the request names its own ``x-forge-key``."""

    def __init__(self, app, keys: dict | None = None, **kw) -> None:
        from forge.play.guard import Bucket

        super().__init__(app, base_url="http://127.0.0.1", **kw)
        self.keys = {} if keys is None else keys
        app.state.play.moves = Bucket(float("inf"), float("inf"))  # the tests play faster than people (test_remote)

    def request(self, method, url, **kw):
        m = re.match(r"/api/games/([0-9]+)", str(url))
        headers = dict(kw.pop("headers", None) or {})
        if m and m.group(1) in self.keys and "x-forge-key" not in headers:
            headers["x-forge-key"] = self.keys[m.group(1)]
        r = super().request(method, url, headers=headers, **kw)
        if method == "POST" and str(url).startswith("/api/games") and r.status_code == 201 and "key" in r.json():
            self.keys[r.json()["game"]] = r.json()["key"]
        return r


@pytest.fixture
def client(playable, tmp_path):
    from forge.play.project import make_app

    with Keyed(make_app(playable, tmp_path / "play"), raise_server_exceptions=False) as c:
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


def same(a: dict, b: dict) -> bool:
    """Two views of the same moment (their timing and clocks aside: they are the server's, not the game's)."""
    return {k: v for k, v in a.items() if k not in ("timing", "clock_ms")} == \
        {k: v for k, v in b.items() if k not in ("timing", "clock_ms")}


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


class Stream:
    """A page's live stream (``/api/games/<n>/events``) read straight from the ASGI app, as bytes, until closed."""

    def __init__(self, app, gid: str, key: str, lang: str = "en") -> None:
        import asyncio

        self.app, self.path, self.key, self.lang = app, f"/api/games/{gid}/events", key, lang
        self.chunks: list[bytes] = []
        self.status: int | None = None
        self.closed = asyncio.Event()
        self.changed = asyncio.Event()

    async def run(self) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
                 "path": self.path, "raw_path": self.path.encode(), "query_string": f"lang={self.lang}".encode(),
                 "root_path": "", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80),
                 "headers": [(b"host", b"127.0.0.1"), (b"x-forge-key", self.key.encode())]}

        async def receive():
            await self.closed.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                self.status = message["status"]
            elif message.get("body"):
                self.chunks.append(message["body"])
                self.changed.set()

        await self.app(scope, receive, send)

    def views(self) -> list[dict]:
        """Every view streamed so far (parsed once each, as they come)."""
        import json

        if not hasattr(self, "_parsed"):
            self._parsed, self._buffer, self._taken = [], "", 0
        self._buffer += b"".join(self.chunks[self._taken:]).decode("utf-8")
        self._taken = len(self.chunks)
        *blocks, self._buffer = self._buffer.split("\n\n")
        self._parsed += [json.loads(line[6:]) for block in blocks if "event: view" in block
                         for line in block.split("\n") if line.startswith("data: ")]
        return self._parsed

    async def until(self, test, seconds: float = 30.0) -> list[dict]:
        """Wait until ``test(views)`` holds (AssertionError after ``seconds``)."""
        import asyncio

        deadline = asyncio.get_running_loop().time() + seconds
        while not test(self.views()):
            self.changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"the stream did not say it: {self.views()[-1:]!r}"
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass
        return self.views()


def serve_play(tmp_path_factory, *options: str, prepare=None):
    """``forge play --port 0 OPTIONS`` on a copy of the shipped project, in its own process, as a person runs
    it (a generator for a module fixture): yields its URL and the project's folder, stops it after.
    ``prepare(project)``, if given, changes the copy before the server reads it."""
    project = tmp_path_factory.mktemp("project")
    for part in ("cards", "locales", "templates"):
        shutil.copytree(REPO / part, project / part)
    if prepare is not None:
        prepare(project)
    proc = subprocess.Popen([sys.executable, "-m", "forge.cli", "play", "--root", str(project), *options,
                             "--port", "0", "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        yield json.loads(line)["url"].rstrip("/"), project
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
