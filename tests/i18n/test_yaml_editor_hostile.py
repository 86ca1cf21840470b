"""The one YAML editor never writes outside the value it edits (issue 26 §3).

Every hostile value (line breaks, `#`, quotes, indicators, tabs, a BOM, separators) written over every
kind of scalar (plain, quoted, flow, block, CRLF, commented), or added to every kind of table, either
reads back as exactly that value with every other value unchanged, or is refused (EditError). As
``forge i18n import`` does, a value that does not read back in the old quoting style is written again
double-quoted (``quoted_only``).
"""
from __future__ import annotations

import pytest

from forge.carddb import yamledit, yamlsrc

VALUES = ["a\nb", "a\r\nb", "x # y", "#x", "'", '"', "''", "a: b", "a:", "&x", "*x", "!tag", "|", ">", "{a}", "[a]",
          "a, b", "tab\tx", "\ufeffbom", "\u2028", "---", "...", " ", "", "- x", "? x", "%x", "@x", "`x", "null", "~",
          "true", "1e3", "0x10", "\\", "\\n", "é « ! »", "\x7f", "multi\n\n", "end\n"]
TEXTS = [
    ("a: plain  # note\nb: 1\n", ("a",)),
    ("a: 'single'\nb: 1\n", ("a",)),
    ('a: "double" # c\nb: 1\n', ("a",)),
    ("a: {en: x, fr: y}  # c\nb: 1\n", ("a", "fr")),
    ("a: [x, y, z]\n", ("a", 1)),
    ("a:\n  fr: >-\n    folded\n    text\n  b: 1\n", ("a", "fr")),
    ("a:\n  fr: |\n    literal\nb: 1\n", ("a", "fr")),
    ("a:\r\n  en: x\r\n  fr: y\r\nb: 1\r\n", ("a", "fr")),
    ("a: {en: x,\n    fr: y}  # wrapped\n", ("a", "fr")),
    ("a: !!str tagged\nb: 1\n", ("a",)),
]


def _edit(text: str, make) -> tuple[str, str] | None:
    """The edited text, in the old style when it reads back right, else double-quoted; None if refused."""
    tree = yamledit.compose(text)
    try:
        first = yamledit.apply(text, [make(tree, False)])
        return first, yamledit.apply(text, [make(tree, True)])
    except yamledit.EditError:
        return None


def _set(data, path, value):
    if len(path) == 1:
        data[path[0]] = value
    else:
        _set(data[path[0]], path[1:], value)


@pytest.mark.parametrize("text, path", TEXTS)
def test_a_replaced_value_reads_back_and_nothing_else_changes(text, path):
    before, _ = yamlsrc.load(text)
    for value in VALUES:
        got = _edit(text, lambda tree, quoted, value=value: yamledit.replace(text, tree, path, value, quoted))
        assert got is not None, value
        expected, _ = yamlsrc.load(text)
        _set(expected, path, value)
        styled, quoted = got
        assert yamlsrc.load(quoted)[0] == expected, (value, quoted)
        try:
            kept = yamlsrc.load(styled)[0]
        except yamlsrc.YamlError:
            continue  # the importer falls back to the double-quoted text
        if kept != expected:  # a plain `true` or `12` reads as another type there: only that value differs
            _set(kept, path, value)
            assert kept == expected, (value, styled)
        assert ("\r\n" not in text) or styled.count("\n") == styled.count("\r\n")
    assert before == yamlsrc.load(text)[0]


@pytest.mark.parametrize("text, parent", [(t, p[:-1]) for t, p in TEXTS if isinstance(p[-1], str) and len(p) > 1]
                         + [("a: 1\nb: 2  # c\n", ()), ("a: {}\n", ("a",))])
def test_an_added_key_reads_back_and_nothing_else_changes(text, parent):
    for value in VALUES:
        got = _edit(text, lambda tree, quoted, value=value: yamledit.insert(text, tree, parent, "zz", value, quoted))
        assert got is not None, value
        expected, _ = yamlsrc.load(text)
        table = expected
        for key in parent:
            table = table[key]
        table["zz"] = value
        assert yamlsrc.load(got[1])[0] == expected, (value, got[1])
        assert ("\r\n" not in text) or got[1].count("\n") == got[1].count("\r\n")


@pytest.mark.parametrize("text, path", [
    ("a: &x v\nb: *x\n", ("b",)),
    ("a: &x v\nb: *x\n", ("a",)),
    ("a: &m {en: x, fr: y}\nb: *m\n", ("b", "fr")),
    ("a: &m {en: x, fr: y}\nb: *m\n", ("a", "fr")),
])
def test_a_value_an_alias_shares_is_refused(text, path):
    tree = yamledit.compose(text)
    with pytest.raises(yamledit.EditError, match="alias"):
        yamledit.replace(text, tree, path, "new")
    if len(path) > 1:  # a key added to a table an alias shares
        with pytest.raises(yamledit.EditError, match="alias"):
            yamledit.insert(text, tree, path[:-1], "zz", "new")
    else:  # a key added after a table's last value, an alias
        with pytest.raises(yamledit.EditError, match="alias"):
            yamledit.insert(text, tree, (), "zz", "new")


def test_a_file_beyond_the_budget_is_refused_before_any_edit():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6))
    with pytest.raises(yamledit.EditError, match="does not parse"):
        yamledit.compose(bomb)


class _Fix:
    def __init__(self, file, start, end, text):
        self.file, self.start, self.end, self.text = file, start, end, text


@pytest.mark.parametrize("text, needle, replacement, applied", [
    ("a: l'eau\n", "'", "’", True),
    ("a: \"l'eau\"\nb: 1\n", "'", "’", True),
    ("a: >- # l'eau\n  >- # l'eau\n", "'", "’", False),  # the header's comment, not the value
    ("a: &x l'eau\nb: *x\n", "'", "’", False),  # shared by an alias
    ("a: l'eau # l'x\n", "# l'", "# l’", False),  # a comment
    ("a: \"x\"\n", '"x', "’x", False),  # the quote itself
    ("a: x y\n", " ", ": ", False),  # makes the value a mapping
])
def test_a_typography_fix_applies_only_inside_one_string(tmp_path, text, needle, replacement, applied):
    (tmp_path / "f.yaml").write_text(text, encoding="utf-8")
    at = text.rindex(needle) if needle.startswith("#") else text.index(needle)
    done = yamledit.fix_files(tmp_path, [_Fix("f.yaml", at, at + len(needle), replacement)])
    after = (tmp_path / "f.yaml").read_text(encoding="utf-8")
    assert (done == {"f.yaml": 1}) is applied and (after != text) is applied
