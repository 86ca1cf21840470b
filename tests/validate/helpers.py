"""Running forge validate the way a user does, and reading its findings."""
from __future__ import annotations

import json
from pathlib import Path
from ..conftest import invoke


def run(root: Path, *args: str):
    """Run `forge validate --quick` on root; returns (exit code, parsed JSON report)."""
    result = invoke(["validate", "--root", str(root), "--format", "json", "--quick", *args])
    return result.exit_code, json.loads(result.stdout)


def run_text(root: Path, *args: str):
    result = invoke(["validate", "--root", str(root), "--quick", *args])
    return result.exit_code, result.stdout


def rules(report: dict) -> list[str]:
    return [f["rule"] for f in report["findings"]]


def only(report: dict, rule: str) -> dict:
    found = [f for f in report["findings"] if f["rule"] == rule]
    assert len(found) == 1, (rule, report["findings"])
    return found[0]


CREATURE = """\
cards:
  - id: ember-imp
    type: creature
    factions: [red]
    cost: 2
    allegiance: {red: 1}
    copies: 3
    name: {en: Ember Imp, fr: Diablotin des Braises}
    activate:
      - wound: 2
"""
