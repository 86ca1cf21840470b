"""The pre-commit hooks, the GitHub Action and the documented workflow run what they say (issue 9 §2)."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml


REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def game(shipped: Path) -> Path:
    shutil.copytree(REPO / "docs", shipped / "docs")
    return shipped


def _hooks() -> list[dict]:
    return yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_the_two_hooks_exist_and_watch_the_card_database():
    hooks = {h["id"]: h for h in _hooks()}
    assert set(hooks) == {"forge-validate", "forge-check"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        assert re.search(hook["files"], "cards/red.yaml") and re.search(hook["files"], "locales/fr.yaml")
        assert not re.search(hook["files"], "README.md")


@pytest.mark.parametrize("hook", ["forge-validate", "forge-check"])
def test_each_hook_entry_passes_on_the_shipped_game_and_fails_on_a_broken_one(game, hook, monkeypatch, cli):
    entry = next(h["entry"] for h in _hooks() if h["id"] == hook)
    words = shlex.split(entry)
    assert words[0] == "forge"
    monkeypatch.chdir(game)  # pre-commit runs the entry at the repository's root
    extra = ["--games", "2"] if words[1] == "check" else []
    assert cli(words[1:] + extra).exit_code == 0
    red = game / "cards" / "red.yaml"
    red.write_text(red.read_text(encoding="utf-8") + "\n\tbroken: [\n", encoding="utf-8")
    assert cli(words[1:] + extra).exit_code == 1


def _action() -> dict:
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def test_the_action_uses_only_inputs_it_declares():
    action = _action()
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used and used <= set(action["inputs"])
    assert action["runs"]["using"] == "composite"
    assert all("shell" in step for step in action["runs"]["steps"] if "run" in step)


def test_the_action_installs_with_the_pinned_constraints():
    steps = _action()["runs"]["steps"]
    install = next(s["run"] for s in steps if "pip install" in s.get("run", ""))
    assert '-c "$GITHUB_ACTION_PATH/constraints.txt"' in install
    assert (REPO / "constraints.txt").is_file()


def test_the_action_s_forge_commands_run_with_its_default_inputs(game, monkeypatch, cli):
    action = _action()
    defaults = {"FORGE_ROOT": str(game), "FORGE_FORMAT": action["inputs"]["format"]["default"]}
    commands = []
    for step in action["runs"]["steps"]:
        for line in step.get("run", "").splitlines():
            line = line.strip().rstrip(";").split(" > ")[0]
            if line.startswith("forge "):
                for name, value in defaults.items():
                    line = line.replace(f'"${name}"', shlex.quote(value))
                commands.append(shlex.split(line))
    assert {c[1] for c in commands} == {"check", "build"}
    check = next(c for c in commands if c[1] == "check")
    result = cli(check[1:] + ["--games", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("✓ all checks passed")


def test_the_documented_workflow_uses_the_action_s_real_inputs():
    doc = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(# \.github/workflows/.*?)```", doc, re.S).group(1)
    workflow = yaml.safe_load(block)
    steps = workflow["jobs"]["check"]["steps"]
    ours = next(s for s in steps if "forge" in s.get("uses", ""))
    assert set(ours["with"]) <= set(_action()["inputs"])
