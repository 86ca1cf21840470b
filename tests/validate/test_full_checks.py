"""`forge validate` without --quick: the engine's card proofs and the text-fit check report at file:line."""
from __future__ import annotations

import json

import yaml

from forge.engine import state as engine_state

from ..conftest import REPO, invoke


def full(root):
    result = invoke(["validate", "--root", str(root), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def test_shipped_game_passes_the_full_validation():
    code, report = full(REPO)
    assert [f for f in report["findings"] if f["severity"] == "error"] == []
    assert code == 0


def test_a_line_the_engine_cannot_execute_fails_at_its_line(monkeypatch, shipped):
    def broken(*args, **kwargs):
        raise RuntimeError("poison handler exploded")

    monkeypatch.setitem(engine_state._VERBS, "poison", broken)
    code, report = full(shipped)
    engine = [f for f in report["findings"] if f["rule"] == "engine"]
    assert engine and code == 1
    first = engine[0]
    lines = (shipped / first["file"]).read_text(encoding="utf-8").splitlines()
    assert "poison" in lines[first["line"] - 1], (first, lines[first["line"] - 1])
    assert "does not resolve" in first["message"]


def test_text_that_cannot_fit_is_a_finding_naming_the_language(shipped):
    path = shipped / "cards" / "red.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    card = data["cards"][0]
    card["flavor"] = {"en": card["flavor"]["en"] if "flavor" in card else "Short.",
                      "fr": " ".join(["Une phrase interminable qui ne tiendra jamais sur une carte."] * 12)}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, report = full(shipped)
    fit = [f for f in report["findings"] if f["rule"] == "text-overflow"]
    assert fit and code == 1
    assert fit[0]["message"].startswith("fr:")
    assert fit[0]["file"] == "cards/red.yaml" and fit[0]["line"] > 1
