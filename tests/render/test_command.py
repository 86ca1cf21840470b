"""``forge render cards`` end to end on a throw-away project: options, reports, exit codes."""
from __future__ import annotations

import json

import pytest

from forge.commands.render import parse_offset, parse_profiles

from .helpers import aid_ids

from ..conftest import invoke

pytest.importorskip("pypdfium2")

CARDS = """
factions:
  - id: red
    name: {en: The Ember Host, fr: L'Ost des Braises}
    color: "#b3261e"
    icon: burning-embers
    identity: {en: Fire., fr: Feu.}
cards:
  - id: spark
    type: spell
    factions: [red]
    cost: 1
    allegiance: {red: 1}
    copies: 2
    name: {en: Spark, fr: Étincelle}
    effects:
      - wound: 1
  - id: lost-soul
    type: soul
    set: starter
    factions: []
    copies: 5
    name: {en: Lost Soul, fr: Âme Perdue}
    effects:
      - essence: 1
"""


def run(*args):
    return invoke(["render", "cards", *args])


def test_renders_the_asked_profile_and_reports_json(project):
    project("game.yaml", CARDS)
    root = project.root
    result = run("--root", str(root), "--profile", "pnp,proof", "--lang", "fr", "--paper", "a4", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and sorted(report["preflight"]) == ["pnp", "proof"]
    assert (root / "output/pnp/rift-commanders-fr-a4.pdf").exists()
    assert not (root / "output/pnp/rift-commanders-en-a4.pdf").exists()
    again = run("--root", str(root), "--profile", "pnp,proof", "--lang", "fr", "--paper", "a4")
    assert again.exit_code == 0 and "0 files written" in again.output


def test_out_folder_and_text_report(project, tmp_path):
    project("game.yaml", CARDS)
    out = tmp_path / "elsewhere"
    result = run("--root", str(project.root), "--profile", "gamecrafter", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    files = 2 + 2 + len(aid_ids())  # 2 cards, 2 backs (the decks' and the Rites'), both sides of the aids
    assert files == 14 and f"✓ gamecrafter: {files} files, preflight passed" in result.output
    assert (out / "gamecrafter/en/spark.png").exists()


def test_a_broken_database_is_not_rendered(project):
    project("game.yaml", CARDS.replace("type: spell", "type: spel"))
    result = run("--root", str(project.root), "--profile", "proof")
    assert result.exit_code == 1
    assert "fix them" in result.output and not (project.root / "output").exists()


def test_bad_options_are_usage_errors(project):
    project("game.yaml", CARDS)
    assert run("--root", str(project.root), "--profile", "poster").exit_code == 2
    assert run("--root", str(project.root), "--back-offset", "1").exit_code == 2
    assert run("--root", str(project.root / "missing")).exit_code == 2


def test_option_parsers():
    assert parse_profiles("all") == ("pnp", "gamecrafter", "mpc", "pod", "tts", "proof")
    assert parse_profiles("tts, pnp") == ("pnp", "tts")
    assert parse_offset("-1.5,0.5") == (-1.5, 0.5)


def test_a_broken_card_template_is_an_error_not_a_crash(project):
    project("game.yaml", CARDS)
    (project.root / "templates/cards").mkdir(parents=True)
    (project.root / "templates/cards/card.yaml").write_text("card: [\n", encoding="utf-8")
    result = run("--root", str(project.root), "--profile", "proof", "--lang", "en")
    assert result.exit_code == 2
    assert "card.yaml:2:1: " in result.output and "expected node content" in result.output  # PyYAML's words
    assert not (project.root / "output").exists()
