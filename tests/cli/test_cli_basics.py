"""The command line people expect (issue 9 §3): --version, shell completion, did-you-mean."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from typer.testing import CliRunner

from forge.cli import app

runner = CliRunner()


def test_version_names_the_installed_package_and_python():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip().startswith(f"forge {version('forge')} (Python ")
    assert re.fullmatch(r"forge \S+ \(Python \d+\.\d+\.\d+\)", result.output.strip())


def test_version_wins_over_a_command_and_runs_nothing(tmp_path):
    result = runner.invoke(app, ["--version", "validate", "--root", str(tmp_path / "missing")])
    assert result.exit_code == 0
    assert result.output.startswith("forge ")


def _complete(words: str, cword: int) -> list[str]:
    env = dict(os.environ, _FORGE_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    script = Path(sys.executable).with_name("forge")  # the variable's name comes from the program's name
    done = subprocess.run([str(script)], env=env,
                          capture_output=True, text=True, timeout=60)
    return done.stdout.split()


def test_completion_offers_commands_and_subcommands():
    assert _complete("forge val", 1) == ["validate"]
    assert set(_complete("forge render ", 2)) >= {"cards", "rulebook", "reference", "books"}


def test_show_completion_prints_a_bash_script():
    result = runner.invoke(app, ["--show-completion", "bash"])
    assert result.exit_code == 0
    assert "_FORGE_COMPLETE=complete_bash" in result.output


def test_a_mistyped_command_suggests_the_right_one():
    result = runner.invoke(app, ["valdate"])
    assert result.exit_code == 2
    assert "Did you mean 'validate'?" in result.output
    nested = runner.invoke(app, ["render", "crds"])
    assert nested.exit_code == 2 and "Did you mean 'cards'?" in nested.output
