"""The byte-exact YAML editor: a value in its old quoting when it can hold it, a key added at its table's end."""
from __future__ import annotations

import pytest

from forge.carddb import yamlsrc
from forge.carddb import yamledit


def write(text: str, path: tuple, value: str) -> str:
    root = yamledit.compose(text)
    return yamledit.apply(text, [yamledit.replace(text, root, path, value)])


def add(text: str, parent: tuple, key: str, value: str) -> str:
    root = yamledit.compose(text)
    return yamledit.apply(text, [yamledit.insert(text, root, parent, key, value)])


@pytest.mark.parametrize("text, value, expected", [
    ("a: plain  # note\n", "autre", "a: autre  # note\n"),
    ("a: plain\n", "deux: points", 'a: "deux: points"\n'),
    ("a: 'single'\n", "l'apostrophe", "a: 'l''apostrophe'\n"),
    ('a: "double"\n', 'un "mot"\n', 'a: "un \\"mot\\"\\n"\n'),
    ("a: {en: x, fr: y}\n", "p, q", 'a: {en: x, fr: "p, q"}\n'),
    ("a: x\n", "\u2028sep", 'a: "\\u2028sep"\n'),
])
def test_a_value_keeps_its_style_when_it_can(text, value, expected):
    path = ("a", "fr") if "{" in text else ("a",)
    out = write(text, path, value)
    assert out == expected
    data, _ = yamlsrc.load(out)
    assert (data["a"]["fr"] if "{" in text else data["a"]) == value


def test_a_key_is_added_to_a_flow_or_a_block_mapping():
    assert add('name: {en: "Kindle"}\n', ("name",), "fr", "Étincelle") == 'name: {en: "Kindle", fr: Étincelle}\n'
    text = "keywords:\n  wound: Blessures  # the keyword\n  rush: Ruée\nnext: 1\n"
    out = add(text, ("keywords",), "demise", "Trépas")
    assert out == "keywords:\n  wound: Blessures  # the keyword\n  rush: Ruée\n  demise: Trépas\nnext: 1\n"


def test_no_table_is_an_edit_error():
    with pytest.raises(yamledit.EditError):
        add("a: 1\n", ("missing",), "fr", "x")
