"""`forge --help` and `forge validate --quick` start without loading what they do not use (issue 9 §7)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: What the help and the quick validation never need: the rules engine, the renderers, the books, the sheets.
HEAVY = ("forge.engine", "forge.render", "forge.books", "forge.sim.simulate", "forge.spreadsheet", "forge.preview",
         "reportlab", "weasyprint", "PIL", "pypdf", "pypdfium2", "openpyxl")

PROBE = """
import contextlib, io, json, sys
sys.argv = ["forge", *json.loads(sys.argv[1])]
from forge.cli import main
try:
    with contextlib.redirect_stdout(io.StringIO()):
        main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def _loaded(*args: str, cwd=None) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args))], capture_output=True, text=True,
                          timeout=120, cwd=cwd)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["render", "--help"], ["--version"]])
def test_help_loads_none_of_the_heavy_parts(args):
    assert _heavy(_loaded(*args)) == []


def test_help_does_not_even_load_yaml_or_jsonschema():
    loaded = _loaded("--help")
    assert not {m for m in loaded if m.split(".")[0] in ("yaml", "jsonschema", "jinja2")}


def test_validate_quick_loads_no_engine_and_no_renderer(shipped):
    assert _heavy(_loaded("validate", "--quick", "--root", str(shipped))) == []


def test_the_probe_would_see_a_heavy_import():
    """Not vacuous: the full validation does load the rules engine."""
    assert "forge.engine" in _loaded("validate", "--root", str(Path(__file__).resolve().parents[2]))


@pytest.mark.parametrize("args", [["validate"], ["validate", "--quick", "--format", "json"]])
def test_validate_parses_its_options_without_pydantic(args):
    """Typer coerces forge's plain option values without pydantic (``forge.commands.plainparams``)."""
    root = str(Path(__file__).resolve().parents[2])
    loaded = _loaded(*args, "--root", root)
    assert "forge.checks.validate" in loaded
    assert not {m for m in loaded if m.split(".")[0] in ("pydantic", "pydantic_core")}


def test_a_value_typer_must_judge_still_goes_through_its_adapter(shipped):
    """Not vacuous: an int option given as "1e3" is left to Typer's pydantic adapter (and refused there)."""
    assert "pydantic" in _loaded("simulate", "--games", "1e3", "--root", str(shipped))
