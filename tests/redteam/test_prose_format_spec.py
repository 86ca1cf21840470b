"""strings.yaml phrases have named placeholders only: a format spec, an index or an attribute is a finding.

Before: `game_example.title` went through `str.format`, so `{turn:>900000000}` built a
900 MB string while composing the rulebook. Now every phrase is checked when strings.yaml
is loaded, and forge fills `{name}` itself.

The bomb is composed in the whole rulebook, whose worked example uses the title; the other attacks, found when
strings.yaml is loaded, in the rulebook cut to its first section (``shorten``).
"""
from __future__ import annotations

import pytest

from ._prose import compose_book, game, shorten

BOMB = "{turn:>900000000}"
ATTACKS = [BOMB, "{player.__class__.__mro__}", "{0}", "{player!r}"]


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_format_string_in_strings_yaml_is_a_finding_at_its_line(tmp_path, attack, no_hang):
    root = game(tmp_path / "game")
    if attack != BOMB:
        shorten(root, "rulebook")
    path = root / "templates/books/strings.yaml"
    text = path.read_text(encoding="utf-8")
    old = '    title: "Turn {turn}: {player}"'
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, f'    title: "Turn {attack}: {{player}}"', 1), encoding="utf-8")
    result = compose_book(root, "rulebook", "en")
    found = [f for f in result.findings if f.position.file == "templates/books/strings.yaml"]
    assert [(f.position.line, f.rule) for f in found] == [(line, "book")], [f.render() for f in result.findings]
    assert attack in found[0].message and "not a placeholder" in found[0].message
    assert not result.ok and len(result.html) < 10_000_000
