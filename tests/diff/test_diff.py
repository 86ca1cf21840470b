"""forge diff: the card database between two commits of a temporary git repository."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from ..conftest import invoke


IMP = """\
  - id: ember-imp
    type: creature
    factions: [red]
    cost: {cost}
    allegiance: {{red: 1}}
    copies: 3
    name: {{en: Ember Imp, fr: Diablotin des Braises}}
    activate:
      - wound: {wound}
"""
SPARK = """\
  - id: spark
    type: spell
    factions: [red]
    cost: 1
    allegiance: {red: 1}
    copies: 2
    name: {en: Spark, fr: Étincelle}
    effects:
      - wound: 1
"""
WARD = """\
  - id: ward
    type: spell
    factions: [white]
    cost: 3
    allegiance: {white: 1}
    copies: 1
    name: {en: Ward, fr: Protection}
    effects:
      - essence: 2
"""


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                   capture_output=True)


def run(root: Path, *args: str):
    result = invoke(["diff", *args, "--root", str(root)])
    return result.exit_code, result.stdout, result.stderr


def test_two_commits(repo):
    code, out, _ = run(repo, "HEAD~1", "HEAD")
    assert code == 0
    assert out.splitlines() == [
        "cards from HEAD~1 to HEAD: 1 added, 1 removed, 1 changed",
        "+ ward",
        "- spark",
        "~ ember-imp: cost 2 → 3, activate",
        "    en: ⟳ Wound 2 → ⟳ Wound 3",
        "    fr: ⟳ Blessures 2 → ⟳ Blessures 3",
        "counts: recruitment cards 5 → 4 (-1); by faction: red 5 → 3, white 0 → 1; "
        "cost curve: 1 2 → 0, 2 3 → 0, 3 0 → 4",
    ]


def test_the_working_tree_is_the_default(repo):
    (repo / "locales/fr.yaml").write_text(
        (repo / "locales/fr.yaml").read_text(encoding="utf-8").replace("wound: Blessures\n", "wound: Plaies\n"),
        encoding="utf-8")
    (repo / "locales/fr.yaml").write_text(
        (repo / "locales/fr.yaml").read_text(encoding="utf-8").replace('wound: "**Blessures** {n}"',
                                                                        'wound: "**Plaies** {n}"'),
        encoding="utf-8")
    code, out, _ = run(repo, "HEAD")
    assert code == 0
    assert out.splitlines()[:3] == [
        "cards from HEAD to the working tree: 0 added, 0 removed, 1 changed",
        "~ ember-imp: printed text",
        "    fr: ⟳ Blessures 3 → ⟳ Plaies 3",
    ]
    assert out.splitlines()[-1] == "counts: unchanged"


def test_json(repo):
    code, out, _ = run(repo, "HEAD~1", "HEAD", "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert report["added"] == ["ward"] and report["removed"] == ["spark"]
    change = report["changed"][0]
    assert change["id"] == "ember-imp" and change["fields"] == ["cost", "activate"]
    assert change["values"]["cost"] == {"before": 2, "after": 3}
    assert change["text"]["en"] == {"before": ["⟳ Wound 2"], "after": ["⟳ Wound 3"]}
    assert report["summary"]["traps"] == {"before": 0, "after": 0}


def test_a_bad_revision(repo):
    code, out, err = run(repo, "no-such-rev")
    assert code == 2 and out == ""
    assert err == "forge: error: unknown revision `no-such-rev`\n"


def test_not_a_git_repository(project):
    project("red.yaml", "cards:\n" + SPARK)
    code, _, err = run(project.root, "HEAD")
    assert code == 2
    assert err == f"forge: error: {project.root} is not in a git repository\n"
