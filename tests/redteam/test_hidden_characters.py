"""Control and direction-override characters in a card's text are findings.

A raw NUL byte in a card file was already refused, but the same NUL written as a YAML escape
("\\0"), a bell, an ANSI escape or a right-to-left override (text that reads differently from how
it is stored) went through validate into the rendered cards, the CSV and the logs.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest


@pytest.mark.parametrize("escape, code", [("\\0", "0000"), ("\\a", "0007"), ("\\e[31m", "001B"),
                                          ("\\u202e", "202E"), ("\\u2066", "2066"), ("\\x85", "0085")])
@pytest.mark.parametrize("field", ["name", "flavor"])
def test_a_hidden_character_is_a_finding_at_its_line(shipped: Path, escape, code, field, cli):
    path = shipped / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    old = 'name: {en: "Kindle"' if field == "name" else 'flavor: {en: "Every'
    path.write_text(text.replace(old, old[:-1] + escape + old[-1], 1), encoding="utf-8")
    result = cli(["validate", "--root", str(shipped)])
    assert result.exit_code == 1, result.output
    assert re.search(rf"cards/red\.yaml:\d+:\d+: \[text-character\] .*U\+{code}", result.output), result.output


def test_ordinary_text_passes(shipped: Path, cli):
    """Accents and a no-break space are ordinary text: no control-character finding and no identity one."""
    path = shipped / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name: {en: "Kindle"', 'name: {en: "Kíndlé\\u00a0Ñ"', 1), encoding="utf-8")
    result = cli(["validate", "--root", str(shipped)])
    for rule in ("[text-character]", "[name-character]", "[mixed-script]", "[confusable]"):
        assert rule not in result.output, result.output


@pytest.mark.parametrize("name, rule", [("Kín\\u200bdle", "[name-character]"), ("Kindle漢", "[mixed-script]")])
def test_a_zero_width_space_or_a_foreign_script_in_a_name_is_a_finding(shipped: Path, name: str, rule: str, cli):
    """What the test above once passed as ordinary (a zero-width space, Latin beside Han) is refused now."""
    path = shipped / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name: {en: "Kindle"', f'name: {{en: "{name}"', 1), encoding="utf-8")
    result = cli(["validate", "--root", str(shipped)])
    assert result.exit_code == 1
    assert rule in result.output, result.output
