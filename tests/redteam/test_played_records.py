"""Hostile game records given to ``forge simulate --played`` (issue 25 §4): testers' records are strangers'
files. A FIFO, a file past the budget, a header nested a million deep or with absurd caps, and a record
whose decision is not legal each become a finding at the file, never a hang, a traceback or a crash,
and the honest record beside them is still counted."""
from __future__ import annotations

import json
import os
import random
import shutil

import pytest

from .boxed import REPO, forge


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """One game played to the end against the AI through forge play's API: its record."""
    from forge.play.project import make_app, read

    from ..play.conftest import Keyed, new_game, play_out

    folder = tmp_path_factory.mktemp("play")
    with Keyed(make_app(read(REPO), folder)) as client:  # sends each game's key, as the page does
        gid, view = new_game(client, seed=9)
        assert play_out(client, gid, view, random.Random(9))["over"]
    return next((folder / "games").glob("*.jsonl"))


def test_hostile_records_are_findings_and_the_honest_one_counts(honest, tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(honest, folder / "game-000001.jsonl")
    os.mkfifo(folder / "game-000002.jsonl")  # a reader that opens it blocks forever
    with open(folder / "game-000003.jsonl", "wb") as fh:  # past the 64 MB budget (sparse: no disk used)
        fh.truncate(65 * 1024 * 1024)
    (folder / "game-000004.jsonl").write_text("[" * 1_000_000 + "\n", encoding="utf-8")
    head = json.loads(honest.read_text(encoding="utf-8").split("\n", 1)[0])
    lines = honest.read_text(encoding="utf-8").split("\n")
    (folder / "game-000005.jsonl").write_text("\n".join([json.dumps({**head, "turn_cap": 10**30})] + lines[1:]),
                                              encoding="utf-8")
    illegal = [ln.replace('"action":["end"', '"action":["buy"', 1) if '"decision"' in ln else ln for ln in lines]
    (folder / "game-000006.jsonl").write_text("\n".join(illegal), encoding="utf-8")
    status, output = forge("simulate", "--root", str(REPO), "--played", str(folder), "--format", "json")
    assert status == 1, output
    assert "Traceback" not in output
    data, _ = json.JSONDecoder().raw_decode(output)  # stdout's report first, then the findings
    for n in (2, 3, 4, 5, 6):
        assert f"game-00000{n}.jsonl:" in output, n
    assert data["games"] == 1 and data["humans"]["games"] == 1
