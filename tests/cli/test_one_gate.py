"""One gate (issue 9 §2): every command that makes something from the cards refuses what `forge validate` refuses.

`render cards`, `render books` and `render gallery` have their own tests; here the simulation (and its
report), the play server and the replay viewer. A duplicate card id loads, and only validate refuses it."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from ..balance.blank import blank_charts
from ..conftest import invoke


REPO = Path(__file__).resolve().parents[2]
DUPLICATE = re.compile(r"cards/starter\.yaml:\d+:\d+: \[duplicate-id\] card id `lost-soul`")


def project(tmp_path: Path, parts=("cards", "locales", "templates"), duplicate: bool = True) -> Path:
    for part in parts:
        shutil.copytree(REPO / part, tmp_path / part)
    if duplicate:
        path = tmp_path / "cards" / "starter.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("id: essence-collector", "id: lost-soul", 1),
                        encoding="utf-8")
    return tmp_path


def run(*args: str):
    return invoke(list(args))


def test_simulate_refuses_a_database_validate_refuses(tmp_path):
    root = project(tmp_path)
    res = run("simulate", "--root", str(root), "-n", "2", "--report", "--no-proofs")
    assert res.exit_code == 1, res.output
    assert DUPLICATE.search(res.output), res.output
    assert "forge validate" in res.output and "--force" in res.output and "Traceback" not in res.output
    assert not (root / "output").exists()  # no report, no replay: nothing made from a refused database


@pytest.mark.slow
def test_simulate_force_marks_every_output_draft(tmp_path, monkeypatch):
    """The text, the JSON, the page and the saved figures say DRAFT (the charts carry no words: blank here)."""
    blank_charts(monkeypatch)
    root = project(tmp_path)
    res = run("simulate", "--root", str(root), "-n", "2", "--force")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("warning: simulating a DRAFT: 2 errors in the card database")
    assert "\nDRAFT: 2 errors in the card database (forge validate): these figures are not the game's\n" in res.output

    res = run("simulate", "--root", str(root), "-n", "2", "--force", "--report", "--no-proofs", "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output[res.output.index("{"):])
    assert data["draft"] == "2 errors in the card database (forge validate)"
    page = (root / "output" / "balance" / "report.html").read_text(encoding="utf-8")
    assert re.search(r'<p class="draft" role="note"><strong>DRAFT</strong> — 2 errors in the card database', page)
    saved = json.loads((root / "output" / "balance" / "balance.json").read_text(encoding="utf-8"))
    assert saved["draft"] == data["draft"]


def test_a_clean_simulation_carries_no_draft_mark(tmp_path, monkeypatch):
    """Cards without locales or templates simulate: the simulation prints no card text, so they do not refuse it.
    (The charts are blank: they carry no draft mark.)"""
    blank_charts(monkeypatch)
    root = project(tmp_path, parts=("cards",), duplicate=False)
    res = run("simulate", "--root", str(root), "-n", "2", "--report", "--no-proofs", "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert "draft" not in data and "DRAFT" not in res.output
    assert 'class="draft"' not in (root / "output" / "balance" / "report.html").read_text(encoding="utf-8")


def test_a_file_that_does_not_load_is_refused_even_with_force(tmp_path):
    root = project(tmp_path, duplicate=False)
    path = root / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n\tbroken: [\n", encoding="utf-8")
    res = run("simulate", "--root", str(root), "-n", "2", "--force")
    assert res.exit_code == 1, res.output
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[", res.output) and "Traceback" not in res.output
    assert "simulating a DRAFT" not in res.output


def test_play_refuses_a_database_validate_refuses(tmp_path):
    root = project(tmp_path)
    res = run("play", "--root", str(root), "--port", "0")  # refused before it binds: the call returns
    assert res.exit_code == 1, res.output
    assert DUPLICATE.search(res.output) and "forge validate" in res.output, res.output
    assert "Play at" not in res.output and "Traceback" not in res.output and "forge: error:" in res.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_replay_page_refuses_a_database_validate_refuses(tmp_path, fmt):
    root = project(tmp_path, duplicate=False)
    res = run("simulate", "--root", str(root), "-n", "1", "--save-replays")
    assert res.exit_code == 0, res.output
    record = next((root / "output" / "replays").glob("game-*.jsonl"))
    path = root / "cards" / "starter.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: essence-collector", "id: lost-soul", 1),
                    encoding="utf-8")
    res = run("replay", str(record), "--root", str(root), "--html", "--format", fmt)
    assert res.exit_code == 1, res.output
    if fmt == "json":
        data = json.loads(res.output)
        assert not data["ok"] and any(f["rule"] == "duplicate-id" for f in data["findings"])
    else:
        assert DUPLICATE.search(res.output), res.output
    assert not list((root / "output" / "replays").glob("*.html"))
