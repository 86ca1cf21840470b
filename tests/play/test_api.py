"""The play server over HTTP: a game against the AI or hot-seat, from the deal to the end, as the engine has it."""
from __future__ import annotations

import json
import random

from forge.engine.record import digest, from_jsonl, replay
from forge.text.narrate import render
from forge.text.cardtext import load_phrasebooks

from ..conftest import REPO, invoke
from .conftest import choose, decide, new_game, play_out


def test_the_board_shows_both_players_and_the_seat_s_own_hand_only(client):
    gid, view = new_game(client, factions=["white", "black"], seed=11)
    assert view["game"] == gid and view["seat"] == 0 and view["mode"] == "ai"
    me, ai = view["players"]
    assert (me["faction"], ai["faction"]) == ("white", "black")
    for p in (me, ai):
        assert p["health"] == 40 and {"essence", "poison", "deck", "discard", "field", "played", "rite"} <= set(p)
        assert [a["faction"] for a in p["allegiance"]] == ["red", "white", "black", "blue"]
    assert [a["n"] for a in me["allegiance"]] == [0, 1, 0, 0]
    assert len(me["hand"]) == me["hand_count"] == 3  # the first player draws 3 (Setup 7)
    assert ai["hand"] is None and ai["hand_count"] == 5  # the AI's hand is a count, never its cards
    assert len(view["row"]) == 8 and all(c["name"] for c in view["row"])
    assert [(r["faction"], r["owner"]) for r in view["rites"]] == [(f, None) for f in ("red", "white", "black", "blue")]
    assert view["decision"]["kind"] == "main" and view["decision"]["options"][-1]["kind"] == "end"
    assert view["log"][0] == "Setup: Player 1 plays White, Player 2 plays Black; Player 1 goes first."


def test_every_option_offered_is_one_of_the_engine_s_legal_options(client):
    gid, view = new_game(client, seed=3)
    rng = random.Random(3)
    kinds = set()
    session = client.store.sessions[gid]
    for _ in range(400):
        if view["over"]:
            break
        offered = [tuple(o["action"]) for o in view["decision"]["options"]]
        assert offered == [tuple(a) for a in session.state.options]
        assert all(o["label"] for o in view["decision"]["options"]) and view["decision"]["prompt"]
        kinds.add(view["decision"]["kind"])
        view = decide(client, gid, view, choose(view, rng))
    assert {"main", "pick:keep"} <= kinds


def test_a_game_against_the_ai_ends_with_the_digest_forge_replay_reaches(client, tmp_path):
    gid, view = new_game(client, seed=5, factions=["red", "black"])
    view = play_out(client, gid, view, random.Random(5))
    assert view["over"] and view["decision"] is None
    session = client.store.sessions[gid]
    text = (client.folder / "games" / f"game-{int(gid):06d}.jsonl").read_text("utf-8")
    lines = from_jsonl(text)
    assert lines[-1]["digest"] == digest(session.state)
    assert lines[0]["agents"] == ["human", "heuristic"]
    # the record as forge replay reads it: same final digest, and the same log in both languages
    state = replay(client.store.game, text)
    assert digest(state) == digest(session.state) and state.winner == session.state.winner
    path = tmp_path / "game.jsonl"
    path.write_text(text, "utf-8")
    for lang in ("en", "fr"):
        result = invoke(["replay", str(path), "--lang", lang, "--root", str(REPO), "--format", "json"])
        assert result.exit_code == 0, result.output
        printed = json.loads(result.stdout)["log"]
        assert printed == render(lines, client.store.game.db, load_phrasebooks(REPO), lang)
        assert client.get(f"/api/games/{gid}/log?lang={lang}").json()["log"] == printed
        assert client.get(f"/api/games/{gid}?lang={lang}").json()["log"] == printed[-60:]
    assert client.get(f"/api/games/{gid}/record").text == text


def test_the_record_on_disk_replays_at_every_move(client):
    gid, view = new_game(client, seed=8)
    rng = random.Random(8)
    path = client.folder / "games" / f"game-{int(gid):06d}.jsonl"
    for _ in range(25):
        view = decide(client, gid, view, choose(view, rng))
        state = replay(client.store.game, path.read_bytes())
        assert digest(state) == digest(client.store.sessions[gid].state)
        assert state.decisions == view["decision_no"]


def test_hot_seat_each_player_decides_their_own_decisions(client):
    """At each of the first 80 decisions (each player's several turns), the deciding seat sees its hand and
    the other seat waits, its opponent's hand hidden."""
    gid, view = new_game(client, mode="hotseat", seed=2)
    assert view["mode"] == "hotseat" and view["humans"] == [0, 1]
    rng, seats, turns = random.Random(2), set(), set()
    for _ in range(80):
        if view["over"]:
            break
        pending = client.store.sessions[gid].state.pending
        assert view["seat"] == pending and view["players"][pending]["hand"] is not None
        assert view["players"][1 - pending]["hand"] is None
        other = client.get(f"/api/games/{gid}?seat={1 - pending}").json()
        assert other["decision"] is None and other["waiting"] == f"Player {pending + 1} is deciding…"
        seats.add(pending)
        turns.add(client.store.sessions[gid].state.turn)
        view = decide(client, gid, view, choose(view, rng))
    assert seats == {0, 1} and len(turns) >= 4, turns


def test_the_page_speaks_french(client):
    gid, view = new_game(client, seed=4)
    fr = client.get(f"/api/games/{gid}?lang=fr").json()
    assert fr["decision"]["prompt"].startswith("Votre phase stratégique")
    assert fr["decision"]["options"][-1]["label"] == "Finir le tour"
    assert fr["log"][0].startswith("Mise en place\u00a0: Joueur 1 joue Rouge")  # French typography (locales' log:)
    assert fr["names"] == ["Joueur 1 (Vous)", "Joueur 2 (IA)"]
    page = client.get("/game/1?lang=fr")
    assert page.status_code == 200 and '<html lang="fr"' in page.text
    from forge.core.csp import integrity  # the page runs forge's app.js only: pinned by its hash

    script = client.get("/static/app.js").content
    assert f'<script src="/static/app.js" integrity="{integrity(script)}" defer></script>' in page.text
    cards = client.get("/api/cards?lang=fr").json()
    assert cards["lost-soul"]["name"] != client.get("/api/cards?lang=en").json()["lost-soul"]["name"]


def test_a_card_picture_is_drawn_once_and_kept(client, monkeypatch):
    from forge.play.images import CardImages

    r = client.get("/card/fr/lost-soul.jpg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and r.content[:3] == b"\xff\xd8\xff"
    kept = list((client.folder / "cards" / "fr").glob("lost-soul-*.jpg"))
    assert len(kept) == 1 and kept[0].read_bytes() == r.content

    def no_drawing(self, card_id, lang):
        raise AssertionError("drawn again")

    monkeypatch.setattr(CardImages, "_draw", no_drawing)
    assert client.get("/card/fr/lost-soul.jpg").content == r.content
    monkeypatch.undo()
    # a picture drawn from an older face (the card was edited since) is removed when the new one is kept
    older = kept[0].with_name("lost-soul-0123456789abcdef.jpg")
    kept[0].rename(older)
    client.get("/card/fr/lost-soul.jpg")
    assert [p.name for p in (client.folder / "cards" / "fr").glob("lost-soul-*.jpg")] == [kept[0].name]
    assert "default-src 'self'" in r.headers["content-security-policy"]
