"""docs/cli.md, the full command reference, is what the commands' help says (issue 26 §5)."""
from __future__ import annotations

import importlib.util
import re

from ..conftest import REPO


def _script():
    spec = importlib.util.spec_from_file_location("cli_reference", REPO / "scripts" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_cli_md_is_fresh():
    script = _script()
    assert (REPO / "docs" / "cli.md").read_text(encoding="utf-8") == script.reference(), \
        "docs/cli.md is stale: run python scripts/cli_reference.py"


def test_a_changed_help_makes_it_stale(monkeypatch):
    from forge.commands.app import app

    script = _script()
    before = script.reference()
    info = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == "validate")
    monkeypatch.setattr(info, "help", "Check the cards, differently.")
    after = script.reference()
    assert after != before and "Check the cards, differently." in after
    assert script.main(["--check"]) == 1


def test_every_command_is_in_the_reference():
    text = _script().reference()
    for command in ("build", "check", "validate", "simulate", "replay", "render cards", "render books", "parity",
                    "i18n export", "diff", "cards import", "watch", "play", "docs", "schema", "sync"):
        assert f"## `forge {command}`" in text, command


def test_a_flag_shows_no_bool_and_long_choices_break_at_a_bar(cli):
    from forge.commands.helptext import fold

    assert fold("<text|json|github|junit|sarif>") == "<text|json|github|\njunit|sarif>"
    assert fold("<int>") == "<int>"
    

    out = cli(["simulate", "--help"], env={"COLUMNS": "80"}).output
    assert "<bool>" not in out and "--save-replays" in out
    out = cli(["check", "--help"], env={"COLUMNS": "80"}).output
    assert "sarif>" in out and not re.search(r"sari(?!f)", out)  # not "sari" / "f>" on the next line
