"""People's games feed the balance lab (issue 25 §4): ``forge simulate --played DIR`` reads forge play's
records through the simulate report's own figures (one code path), with the human seats against the AI's."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from forge.balance.humans import human_figures, read_played
from forge.carddb.database import load_database
from forge.sim.simulate import to_json

from ..play.conftest import Keyed, new_game, play_out
from .blank import blank_charts

REPO = Path(__file__).resolve().parents[2]
GAMES = 4


@pytest.fixture(scope="module")
def db():
    return load_database(REPO).db


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """GAMES games played to the end against the AI through forge play's API: their records' folder."""
    from forge.play.project import make_app, read

    folder = tmp_path_factory.mktemp("play")
    with Keyed(make_app(read(REPO), folder)) as client:  # sends each game's key, as the page does
        for i in range(GAMES):
            gid, view = new_game(client, seed=200 + i)
            assert play_out(client, gid, view, random.Random(i))["over"]
    return folder / "games"


def _buys(folder: Path) -> tuple[Counter, Counter]:
    """Per card, how many human and AI player-games bought it, counted from the records' own lines."""
    human, machine = Counter(), Counter()
    for path in sorted(folder.glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        seats = lines[0]["agents"]
        bought = {(x["player"], x["card"]) for x in lines if x.get("e") == "buy"}
        for player, card in bought:
            (human if seats[player] == "human" else machine)[card] += 1
    return human, machine


def test_the_people_s_games_are_counted_as_the_records_say(records, db):
    played = read_played(records, db, "games")
    assert played.findings == [] and played.unfinished == []
    assert played.report.games == GAMES and played.humans.player_games == GAMES == played.machines.player_games
    human, machine = _buys(records)
    assert +played.humans.used["bought"] == human and +played.machines.used["bought"] == machine
    figures = human_figures(played, db)
    assert figures["humans_only"] == sorted(set(human) - set(machine), key=figures["humans_only"].index)
    assert set(figures["humans_only"]) == {c for c in human if c not in machine}
    row = next(c for c in figures["cards"] if c["card"] in human)
    assert row["human_bought"]["k"] == human[row["card"]] and row["human_bought"]["n"] == GAMES
    assert row["human_bought"]["low"] <= row["human_bought"]["value"] <= row["human_bought"]["high"]
    assert figures["lengths"]["n"] == GAMES


def test_the_cli_reports_them_through_the_simulate_report(records, db, tmp_path, cli, monkeypatch):
    """The people's figures reach the JSON and the page (its charts blank: test_report.py proves them)."""
    blank_charts(monkeypatch)
    result = cli(["simulate", "--root", str(REPO), "--played", str(records), "--report",
                  "--no-proofs", "--out", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    same = json.loads(json.dumps(to_json(read_played(records, db, "games").report, db)))
    assert data["balance"] == same["balance"] and data["games"] == GAMES
    assert data["humans"]["human_player_games"] == GAMES
    page = (tmp_path / "balance" / "report.html").read_text(encoding="utf-8")
    assert "People against the AI" in page and f"{GAMES} games people played" in page


def test_a_damaged_record_is_a_finding_and_an_unfinished_one_is_left_out(records, db, tmp_path, cli):
    folder = tmp_path / "games"
    folder.mkdir()
    paths = sorted(records.glob("*.jsonl"))
    for p in paths:
        (folder / p.name).write_bytes(p.read_bytes())
    lines = paths[0].read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "game-900001.jsonl").write_text("".join(lines[:40]), encoding="utf-8")  # still being played
    broken = [ln.replace('"buy"', '"bye"', 1) if '"decision"' in ln and '"buy"' in ln else ln for ln in lines]
    (folder / "game-900002.jsonl").write_text("".join(broken), encoding="utf-8")
    played = read_played(folder, db, "games")
    assert played.report.games == GAMES and played.unfinished == ["game-900001.jsonl"]
    [finding] = played.findings
    assert finding.position.file == "games/game-900002.jsonl" and finding.position.line > 1
    assert finding.render().startswith(f"games/game-900002.jsonl:{finding.position.line}:1: [record]")
    result = cli(["simulate", "--root", str(REPO), "--played", str(folder)])
    assert result.exit_code == 1 and "game-900002.jsonl" in result.output
