"""The prose's front matter and strings.yaml are read by forge's hardened YAML loader: an alias bomb is a finding.

Before: both went through `yaml.safe_load`, which expands aliases without a budget.
"""
from __future__ import annotations

from ._prose import compose_book, game

BOMB = "\n".join(["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)])


def test_an_alias_bomb_in_the_front_matter_is_a_finding(tmp_path, no_hang):
    root = game(tmp_path / "game")
    path = root / "templates/books/rulebook.fr.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", "---\n" + BOMB + "\n", 1), encoding="utf-8")
    result = compose_book(root, "rulebook", "fr")
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and errors[0].position.file == "templates/books/rulebook.fr.md" and errors[0].position.line >= 2
    assert "front matter" in errors[0].message and result.html == ""


def test_an_alias_bomb_in_strings_yaml_is_a_finding(tmp_path, no_hang):
    root = game(tmp_path / "game")
    path = root / "templates/books/strings.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "bomb:\n" + "\n".join("  " + l for l in BOMB.split("\n")) + "\n",
                    encoding="utf-8")
    result = compose_book(root, "rulebook", "en")
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors and errors[0].position.file == "templates/books/strings.yaml" and errors[0].position.line > 1
    assert not result.ok
