"""The command line people expect (issue 9 §3): --version, shell completion, did-you-mean."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from forge.cli import app


def test_version_names_the_installed_package_and_python(cli):
    result = cli(["--version"])
    assert result.exit_code == 0
    assert result.output.strip().startswith(f"forge {version('forge')} (Python ")
    assert re.fullmatch(r"forge \S+ \(Python \d+\.\d+\.\d+\)", result.output.strip())


def test_version_wins_over_a_command_and_runs_nothing(tmp_path, cli):
    result = cli(["--version", "validate", "--root", str(tmp_path / "missing")])
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


def test_show_completion_prints_a_bash_script(cli, monkeypatch):
    """``--show-completion`` is a flag: Typer finds the shell by walking up the process tree (shellingham).
    Run detached (nohup, a CI runner without a shell above it) it found none and printed "Shell  not
    supported." (exit 1): the test failed by where it was started. The user's shell is given here."""
    import shellingham

    monkeypatch.setattr(shellingham, "detect_shell", lambda *args, **kwargs: ("bash", "/bin/bash"))
    result = cli(["--show-completion"])
    assert result.exit_code == 0, result.output
    assert "_FORGE_COMPLETE=complete_bash" in result.output


def test_a_mistyped_command_suggests_the_right_one(cli):
    result = cli(["valdate"])
    assert result.exit_code == 2
    assert "Did you mean 'validate'?" in result.output
    nested = cli(["render", "crds"])
    assert nested.exit_code == 2 and "Did you mean 'cards'?" in nested.output


def _commands(group, path=()):
    import typer.main

    command = typer.main.get_command(group) if not hasattr(group, "commands") else group
    for name, sub in sorted(command.commands.items()):
        if hasattr(sub, "commands"):
            yield from _commands(sub, path + (name,))
        else:
            yield path + (name,)


def test_every_command_s_help_shows_an_example(cli):
    commands = list(_commands(app))
    assert len(commands) >= 16
    for words in commands:
        result = cli([*words, "--help"], terminal_width=200)
        assert result.exit_code == 0, words
        example = [line for line in result.output.splitlines() if "Example: forge " in line]
        assert example, f"forge {' '.join(words)} --help shows no example"
        assert f"forge {' '.join(words)}" in example[0], (words, example[0])


def _forge(*args: str):
    script = Path(sys.executable).with_name("forge")
    return subprocess.run([str(script), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["validate", "--bogus"], "forge: error: No such option: --bogus"),
    (["simulate", "--games", "x"], "forge: error: Invalid value for '--games'"),
    (["valdate"], "forge: error: No such command 'valdate'. Did you mean 'validate'?"),
    (["validate", "--root", "/no/such/folder"], "forge: error: --root /no/such/folder: no such folder"),
])
def test_errors_come_in_one_style(args, message):
    done = _forge(*args)
    assert done.returncode == 2
    assert done.stderr.startswith(message), done.stderr
    assert "╭" not in done.stderr and "Traceback" not in done.stderr


def test_a_usage_error_hints_at_the_help():
    assert "hint: `forge validate --help` lists the options" in _forge("validate", "--bogus").stderr
    assert "hint: `forge --help` lists the commands" in _forge("valdate").stderr


def test_quiet_prints_nothing_on_a_clean_run_and_the_findings_on_a_broken_one(shipped, cli):
    assert cli(["-q", "validate", "--root", str(shipped)]).output == ""
    path = shipped / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    cost: 1\n", "    cost: -1\n", 1), encoding="utf-8")
    result = cli(["-q", "validate", "--root", str(shipped)])
    assert result.exit_code == 1 and "[schema] cost: -1" in result.output and "✗ 1 error" in result.output


def test_verbose_shows_each_check_and_its_time(shipped, cli):
    result = cli(["-v", "validate", "--quick", "--root", str(shipped)])
    assert result.exit_code == 0
    timed = [line.split() for line in result.stderr.splitlines() if line.strip().endswith(" ms")]
    assert {words[0] for words in timed} >= {"load", "ids", "counts", "text"}


def test_progress_is_a_spinner_on_a_terminal_and_lines_with_verbose(monkeypatch, capsys):
    from forge.commands import common

    common.set_verbosity(False, True)
    try:
        monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
        with common.progress() as say:
            say("rendering the cards")
        assert "… rendering the cards" in capsys.readouterr().err
        common.set_verbosity(True, False)
        with common.progress() as say:
            say("rendering the cards")
        assert capsys.readouterr().err == ""  # --quiet: no progress at all
    finally:
        common.set_verbosity(False, False)
