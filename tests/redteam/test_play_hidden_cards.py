"""Two machines, one game: the opponent's hand and the decks' order never leave the server for the other seat.

Before, a game between two people was hot-seat only, and any request could ask for either
seat's view (``?seat=1``): the page of one player could read the other's hand. Now each seat
and each spectator has its own key, and what is sent to a key is built from the engine's
``Observation`` of its seat (a spectator: the public part only). A whole game is played
over the API with both keys and a spectator's, and every byte each of them receives (the
answers to their requests, and their live streams) is searched for the cards they may not
see: the instance of any card in the other hand, in a deck or in the recruit deck, and the
id and name of every design that is only there.
"""
from __future__ import annotations

import asyncio
import json
import random

import httpx2
import pytest

from forge.engine import Observation

from ..play.conftest import Stream, choose


def _seen(state, who) -> tuple[set[int], set[int]]:
    """(hidden instances, visible instances) for seat ``who`` (None: a spectator) at this moment."""
    every = set(range(len(state.defs)))
    hidden = set(state.deck[0]) | set(state.deck[1]) | set(state.recruit)
    for p in (0, 1):
        if p != who:
            hidden |= set(state.hand[p])
    return hidden, every - hidden


def _forbidden(state, hidden: set[int], ever: set[str], names: dict[str, str]) -> list[bytes]:
    """The byte strings that would show a hidden card: its design's id and name, when nothing public shows them."""
    out = []
    for cid in hidden:
        design = state.defs[cid].id
        if design not in ever:
            out += [json.dumps(design).encode(), json.dumps(names[design], ensure_ascii=False).encode()]
    return out


def _card_instances(x) -> set[int]:
    """Every ``cid`` a view names (in any card object, at any depth)."""
    found = set()
    if isinstance(x, dict):
        if isinstance(x.get("cid"), int) and x["cid"] >= 0:
            found.add(x["cid"])
        for v in x.values():
            found |= _card_instances(v)
    elif isinstance(x, list):
        for v in x:
            found |= _card_instances(v)
    return found


@pytest.mark.slow
def test_no_seat_and_no_spectator_receives_a_card_it_may_not_see(playable, tmp_path):
    from forge.play.project import make_app

    app = make_app(playable, tmp_path / "play")
    play = app.state.play
    names = {c.id: c.name["en"] for c in playable.db.cards}

    async def game():
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            made = (await c.post("/api/games", json={"mode": "remote", "spectator": True,
                                                     "factions": ["black", "white"]})).json()
            gid = made["game"]
            keys = {0: made["key"], 1: made["invite"].split("#")[1], None: made["spectate"].split("#")[1]}
            session = play.store.sessions[gid]
            streams = {who: Stream(app, gid, k) for who, k in keys.items()}
            tasks = [asyncio.create_task(s.run()) for s in streams.values()]
            received = {who: [] for who in keys}  # (decision_no, bytes) of every answer and every streamed view
            moments = {}  # decision_no -> the state's hidden and visible instances for each viewer
            ever = {who: set() for who in keys}  # designs each viewer has seen face up (a later copy is no secret)

            def snapshot():
                s = session.state
                moments[s.decisions] = {}
                for who in keys:
                    hidden, visible = _seen(s, who)
                    ever[who] |= {s.defs[c].id for c in visible if c in _public_or_own(s, who)}
                    moments[s.decisions][who] = (hidden, _forbidden(s, hidden, ever[who], names))

            snapshot()
            rng = random.Random(7)
            for _ in range(3000):
                views = {}
                for who, k in keys.items():
                    r = await c.get(f"/api/games/{gid}", headers={"x-forge-key": k})
                    assert r.status_code == 200, r.text
                    views[who] = r.json()
                    received[who].append((views[who]["decision_no"], r.content))
                    for path in ("log", "record") if len(moments) % 10 == 1 else ():
                        r = await c.get(f"/api/games/{gid}/{path}", headers={"x-forge-key": k})
                        if not session.over:
                            received[who].append((views[who]["decision_no"], r.content))
                if views[0]["over"]:
                    break
                p = views[0]["pending"]
                body = {"decision": views[p]["decision_no"], "action": choose(views[p], rng)["action"]}
                r = await c.post(f"/api/games/{gid}/decide", json=body, headers={"x-forge-key": keys[p]})
                assert r.status_code == 200, r.text
                received[p].append((r.json()["decision_no"], r.content))
                snapshot()
            assert session.state.terminal, "the game did not end"
            await asyncio.gather(*(s.until(lambda vs: vs and vs[-1]["over"]) for s in streams.values()))
            for s in streams.values():
                s.closed.set()
            await asyncio.gather(*tasks)
            for who, s in streams.items():
                text = b"".join(s.chunks).decode("utf-8")
                for block in text.split("\n\n"):
                    if "event: view" in block:
                        data = block.split("data: ", 1)[1]
                        received[who].append((json.loads(data)["decision_no"], data.encode("utf-8")))
            return received, moments

    received, moments = asyncio.run(game())
    for who, answers in received.items():
        assert len(answers) > 100
        for decision, raw in answers:
            hidden, forbidden = moments[decision][who]
            try:
                named = _card_instances(json.loads(raw))
            except ValueError:
                named = set()  # a record's lines: refused until the game is over (checked below)
                assert b"other hand" in raw, raw[:200]
            assert not named & hidden, (who, decision, sorted(named & hidden))
            leaks = [f for f in forbidden if f in raw]
            assert not leaks, (who, decision, leaks)
            assert b'"seed"' not in raw  # the deal's seed would give every deck's order


def _public_or_own(s, who) -> set[int]:
    """The instances face up for everyone, and the viewer's own hand (as the engine's Observation reads them)."""
    obs = Observation(s, 0 if who is None else who)
    out = set(obs.recruitment_row()) | set(obs.exile_pile())
    for p in (0, 1):
        out |= set(obs.battlefield(p)) | set(obs.discard_pile(p)) | set(obs.played(p))
    if who is not None:
        out |= set(obs.hand())
    return out - {-1}
