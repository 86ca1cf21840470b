"""A card's text cannot inject a command into a CI log (GitHub's workflow commands).

GitHub reads any line of a step's log that starts with ``::`` (after its leading spaces) as a
command: ``::error file=…::`` annotates any file, ``::stop-commands::`` silences forge's real
annotations, ``::add-mask::`` hides text. A card id holding a line break was quoted as written in
the findings of ``forge check`` and ``forge parity`` (text, the format of ``forge build`` in the
Action and of a workflow that asks for it): its second line was such a command. A finding now
renders on its own lines whatever it quotes (``forge.core.escape.one_line``).

``--format github`` already escaped ``%``, CR and LF in a command's message and ``:`` and ``,`` in
its properties as GitHub documents: its test below is a regression, not a fix.
"""
from __future__ import annotations

import re

import pytest


CARD = """\
  - id: "ember-imp\\n::error file=README.md,line=1::pwned\\r\\n  ::stop-commands::token"
    type: creature
    factions: [red]
    cost: 2
    allegiance: {red: 1}
    copies: 3
    name: {en: "Ember\\n::warning::a name", fr: "Diablotin\\n::notice::un nom"}
    flavor: {en: "x\\n::error::a flavour"}
    activate:
      - wound: 1
"""
#: A command forge itself writes: one finding's annotation, on the card file.
OWN = re.compile(r"::(error|warning) file=(cards/red\.yaml|schema/cards\.schema\.json)(,line=\d+(,col=\d+)?)?"
                 r",title=forge \[[\w-]+\]::[^\n]*")


def commands(output: str) -> list[str]:
    return [line.lstrip() for line in output.splitlines() if line.lstrip().startswith("::")]


@pytest.mark.parametrize("command", ["check", "parity", "validate"])
def test_a_card_cannot_write_a_command_into_the_text_report(project, command, cli):
    project("red.yaml", "cards:\n" + CARD)
    result = cli([command, "--root", str(project.root)])
    assert result.exit_code == 1, result.output
    assert commands(result.output) == []
    assert "pwned" in result.output  # the id is quoted all the same, on the finding's line


def test_the_github_format_writes_forge_s_commands_only(project, cli):
    """Regression (held before): each finding is one command, on the file it is about."""
    project("red.yaml", "cards:\n" + CARD)
    result = cli(["check", "--root", str(project.root), "--format", "github"])
    found = commands(result.output)
    assert found and all(OWN.fullmatch(line) for line in found), [c for c in found if not OWN.fullmatch(c)]
    assert "%0A::error file=README.md" in result.output
