"""Forge's plain option values are coerced without pydantic (``forge.commands.plainparams``, issue 9, Fast to
start), to exactly what Typer's own pydantic adapter makes of them; anything else is left to that adapter."""
from __future__ import annotations

from enum import Enum
from pathlib import Path

import pytest
import typer.main
from typer._click import Context
from typer._coercion import build_runtime_param

from forge.cli import app
from forge.commands import plainparams

from ..conftest import REPO

TEXTS = ["", "x", "text", "JSON", "Json", " json", "fr", "EN", "a4", "letter", "007", "12", "0", "-3", "+4", " 5",
         "5 ", "1_000", "1e3", "٣", "２", "3.0", "cards", ".", "./cards/red.yaml", "no/such/dir", "output/x.pdf",
         "-", "é/ü", "true", "no"]


def every_parameter():
    found = []

    def walk(command, path):
        for param in command.params:
            if hasattr(param, "type_descriptor"):
                found.append((" ".join(path) or "forge", command, param))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, path + [name])

    walk(typer.main.get_command(app), [])
    return found


def candidates(annotation) -> list:
    values = list(TEXTS)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        values += [m.value for m in annotation] + [m.value.upper() for m in annotation] + list(annotation)
    values += [7, True, False, Path("cards"), Path("no/such"), 2.5]
    return values


def typers_own(descriptor, value, param, ctx):
    try:
        return ("ok", build_runtime_param(descriptor)._coerce_value(value, param=param, ctx=ctx))
    except Exception as exc:  # compared, not hidden
        return ("error", type(exc).__name__, str(exc))


def test_the_plain_coercion_is_installed_for_forges_app():
    from typer import core

    assert getattr(core._TyperParameter, "_forge_plain", False), "Typer's internals changed: see plainparams.install"


def test_every_option_of_every_command_coerces_as_typers_adapter_does(monkeypatch):
    monkeypatch.chdir(REPO)  # so that some paths exist and some do not
    params = every_parameter()
    assert len(params) > 100
    decided = left = 0
    for where, command, param in params:
        descriptor = param.type_descriptor
        ctx = Context(command, info_name=where)
        for value in candidates(descriptor.annotation):
            mine = plainparams.plain_value(descriptor.annotation, descriptor.parameter_info, value, param, ctx)
            theirs = typers_own(descriptor, value, param, ctx)
            if mine is plainparams.UNSURE:
                left += 1
                continue
            decided += 1
            assert theirs == ("ok", mine) and type(theirs[1]) is type(mine), (where, param.name, value, theirs, mine)
    assert decided > 1000 and left > 500  # both ways are exercised


@pytest.mark.parametrize("args, message", [
    (["validate", "--format", "nope"],
     "Invalid value for '--format': 'nope' is not one of 'text', 'json', 'github', 'junit', 'sarif'."),
    (["simulate", "--games", "1e3"], "Input should be a valid integer, unable to parse string as an integer"),
    (["simulate", "--games", "12x"], "Input should be a valid integer"),
    (["validate", "--format", "JSON"], "'--format': 'JSON' is not one of"),  # enums are case-sensitive
])
def test_a_bad_value_gets_typers_own_message(args, message):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "forge.cli", *args, "--root", str(REPO)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr and "Value error" not in done.stderr, done.stderr


def test_good_values_reach_the_command(tmp_path, cli):
    result = cli(["validate", "--quick", "--root", str(REPO), "--format", "json"])
    assert result.exit_code == 0 and result.output.lstrip().startswith("{")  # an enum and a Path root
