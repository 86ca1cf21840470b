"""Before and after a change (issue 12 §2): paired statistics, common random numbers, `forge diff --simulate`."""
from __future__ import annotations

import dataclasses
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from forge.sim.compare import moved, render_markdown, simulate_both
from forge.sim.stats import difference, paired_difference, wilson
from forge.engine.sample import line, sample_database
from forge.sim.simulate import Settings

REPO = Path(__file__).resolve().parents[2]


# -- paired statistics ----------------------------------------------------------------------------------

def test_a_paired_difference_counts_the_discordant_pairs():
    d = paired_difference(both=40, lost=2, gained=12, neither=46)
    assert d.before.value == 0.42 and d.after.value == 0.52 and d.value == pytest.approx(0.10)
    assert 0 < d.low < 0.10 < d.high < 0.2
    assert d.p_value == pytest.approx(0.0075, abs=5e-4)  # McNemar: z = 10 / sqrt(14)
    same = paired_difference(30, 0, 0, 70)
    assert same.value == 0 and same.p_value == 1.0 and same.low <= 0 <= same.high
    assert paired_difference(0, 0, 0, 0).value is None


def test_pairs_that_agree_give_a_narrower_interval_than_two_independent_batches():
    paired = paired_difference(both=400, lost=20, gained=40, neither=540)
    independent = difference(wilson(440, 1000), wilson(420, 1000))
    assert paired.value == pytest.approx(independent.value)
    assert paired.high - paired.low < 0.5 * (independent.high - independent.low)
    assert paired.low > 0 and independent.low < 0


def test_the_paired_interval_covers_the_truth_about_95_percent_of_the_time():
    rng = random.Random(11)
    hits = 0
    for _ in range(1500):
        counts = [0, 0, 0, 0]
        for _ in range(80):  # before 0.5, after 0.55, strongly correlated
            u = rng.random()
            counts[0 if u < 0.45 else 1 if u < 0.5 else 2 if u < 0.6 else 3] += 1
        d = paired_difference(*counts)
        hits += d.low <= 0.05 <= d.high
    assert 0.93 <= hits / 1500 <= 0.98


# -- the same games before and after ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def db():
    return sample_database()


def _stronger_imp(db):
    """Red's starter creature hits for 5 instead of 1: a change whose direction is known."""
    cards = [dataclasses.replace(c, activate=(line("wound", 5),)) if c.id == "cinder-imp" else c for c in db.cards]
    return dataclasses.replace(db, cards=cards)


def test_no_change_means_the_very_same_games(db):
    settings = Settings(games=24, seed=5)
    result = moved(simulate_both(db, db, settings), db, db)
    assert result["compared"] == 24 - sum(result["capped"])
    for d in list(result["factions"].values()) + list(result["pairings"].values()):
        assert d["pairs"]["before_only"] == 0 and d["pairs"]["after_only"] == 0 and not d["significant"]
        assert d["value"] in (0, None)


def test_a_stronger_red_card_raises_red_and_nothing_without_red_moves(db):
    after = _stronger_imp(db)
    settings = Settings(games=72, seed=2)
    result = moved(simulate_both(db, after, settings), db, after, ["cinder-imp"])
    red = result["factions"]["red"]
    assert red["value"] > 0.1 and red["low"] > 0 and red["significant"]
    for other in ("white", "black", "blue"):
        assert result["factions"][other]["value"] <= 0
    # pairings without Red play the very same games: nothing moves there
    for key, d in result["pairings"].items():
        if "red" not in key:
            assert d["pairs"]["before_only"] == d["pairs"]["after_only"] == 0
    assert set(result["cards"]["cinder-imp"]) == {"in_hand"}  # a starter card is dealt, never bought
    md = render_markdown(result, {"agents": "heuristic", "seed": 2}, ["cinder-imp: activate"], {"red": "Red"})
    assert "| Red | " in md and md.count("**significant**") >= 1
    row = next(r for r in md.splitlines() if r.startswith("| Red | "))
    assert row.endswith("| **significant** |") and f"{100 * red['before']['value']:.1f} %" in row


# -- the command ------------------------------------------------------------------------------------

@pytest.fixture
def repo_with_change(tmp_path: Path) -> Path:
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=tmp_path, check=True)
    red = tmp_path / "cards" / "red.yaml"
    text = red.read_text()
    assert "    cost: 1\n" in text
    red.write_text(text.replace("    cost: 1\n", "    cost: 2\n", 1))  # Kindle cost 1 → 2
    return tmp_path


def test_forge_diff_simulate_in_markdown_and_json(repo_with_change, cli):
    md = cli(["diff", "HEAD", "--root", str(repo_with_change), "--simulate", "12",
              "--format", "markdown"])
    assert md.exit_code == 0, md.output
    assert "\n~ kindle: cost 1 → 2\n" in md.stdout and "### Simulated balance" in md.stdout
    assert "- kindle: cost 1 → 2" in md.stdout  # the simulation's list of changes
    assert "12 games a side (heuristic agents, seed 0), the same seeds before and after" in md.stdout
    table = [r for r in md.stdout.splitlines() if r.startswith("| ")]
    assert len(table) == 1 + 4 + 1 + 12 + 1 + 2  # header, factions, first seat, pairings; the card's header and 2 uses
    js = cli(["diff", "HEAD", "--root", str(repo_with_change), "--simulate", "12", "--format", "json"])
    sim = json.loads(js.stdout)["simulation"]
    assert sim["games"] == 12 and sim["changes"] == ["kindle: cost 1 → 2"]
    red = sim["factions"]["red"]
    assert sum(red["pairs"].values()) == red["before"]["n"] == red["after"]["n"]
    assert set(sim["cards"]["kindle"]) == {"bought", "in_hand"}
