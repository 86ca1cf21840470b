"""Hostile input files: refused with a finding at their place, never read blindly, never an internal error.

Two families (issue 7, sections 2 and 3):

- files that are not ordinary files (a FIFO, a device, a folder, a link to
  /dev/zero or out of the project, a file over 10 MB), refused by ``forge.core.safeio``
  before a byte is read, for card files, locales and the card template;
- YAML that PyYAML cannot turn into data (a bare ``=``, unknown tags, a number of
  thousands of digits, a NUL byte), each a ``yaml-*`` finding at its line and column.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from forge.carddb import yamlsrc
from forge.checks.validate import validate

from .helpers import CREATURE, only, run, run_text
from .special_files import KINDS, fifo, symlink

COST_LINE, COST_COL = 6, 11  # where CREATURE's `cost: 2` value starts, after the schema line


def _error_at(report: dict, line: int, col: int, words: str = "") -> dict:
    """The one finding at cards/red.yaml:line:col (whose message holds ``words``)."""
    found = [f for f in report["findings"] if (f["file"], f["line"], f["column"]) == ("cards/red.yaml", line, col)
             and words in f["message"]]
    assert len(found) == 1, report["findings"]
    return found[0]


# -- YAML that PyYAML cannot build -------------------------------------------------------
@pytest.mark.parametrize("value, rule, words", [
    ("=", "schema", "'=' is not a whole number"),  # YAML 1.1's "value" type: text, as in YAML 1.2
    ("!$ 2", "yaml-tag", "the tag `!$` is not supported"),
    ("!foo 2", "yaml-tag", "the tag `!foo` is not supported"),
    ("!!python/object/apply:os.system [id]", "yaml-tag", "`!!python/object/apply:os.system`"),
    ("!!binary AAAA", "yaml-tag", "`!!binary`"),
    ("!!set {a}", "yaml-tag", "`!!set`"),
    ("!!int two", "yaml-value", "cannot read 'two' as a YAML int"),
    ("!!float x", "yaml-value", "cannot read 'x' as a YAML float"),
    ("9" * 5000, "yaml-number", "a number of 5,000 characters"),
    ("0x" + "f" * 5000, "yaml-number", "a number of 5,002 characters"),
    ("1:" * 3000 + "1", "yaml-number", "a number of 6,001 characters"),
    ("1" + "0" * 200 + ".5", "yaml-number", "a number of 203 characters"),
    (".nan", "schema", "nan is not a whole number"),
    (".inf", "schema", "inf is not a whole number"),
    ("1.0e999", "schema", "is not a whole number"),
    ("2.0", "schema", "2.0 is not a whole number"),
    ("2001-13-45", "schema", "'2001-13-45' is not a whole number"),  # not a date: text, as in YAML 1.2
])
def test_a_value_pyyaml_cannot_build_is_a_finding_at_its_place(project, value, rule, words):
    project("red.yaml", CREATURE.replace("cost: 2", f"cost: {value}"))
    code, report = run(project.root)
    found = _error_at(report, COST_LINE, COST_COL, words)
    assert found["rule"] == rule and found["hint"]
    assert code == 1


def test_a_bare_equals_sign_is_text_as_in_yaml_1_2(project):
    """`=` is YAML 1.1's "value" type, which PyYAML cannot build (the crash the fuzz tests found)."""
    project("red.yaml", "=\n", header=False)
    code, report = run(project.root)
    f = only(report, "shape")
    assert (f["file"], f["line"], f["column"]) == ("cards/red.yaml", 1, 1) and code == 1
    project("red.yaml", CREATURE.replace("fr: Diablotin des Braises", "fr: ="))
    _, report = run(project.root)
    # the one-card project's counts are reported at its file too: only the card's own findings matter
    assert [f for f in report["findings"] if f["file"] == "cards/red.yaml"
            and f["rule"] not in ("count", "starter", "faction")] == []
    assert yamlsrc.load("a: =\nb: [=, x]\n")[0] == {"a": "=", "b": ["=", "x"]}


def test_a_tag_on_a_mapping_or_a_list_is_refused_too(project):
    project("red.yaml", CREATURE.replace("allegiance: {red: 1}", "allegiance: !!omap [{red: 1}]"))
    _, report = run(project.root)
    f = _error_at(report, 7, 17)
    assert f["rule"] == "yaml-tag" and "`!!omap`" in f["message"]


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\ufffe"])
def test_a_control_character_is_a_finding_with_its_line_and_column(project, char):
    # after an accented letter: the C reader counts bytes, the finding counts characters
    project("red.yaml", CREATURE.replace("Diablotin des Braises", f"Diablotin dé{char}s Braises"))
    code, report = run(project.root)
    f = only(report, "yaml-character")
    assert (f["file"], f["line"], f["column"]) == ("cards/red.yaml", 9, 43)
    assert f"U+{ord(char):04X}" in f["message"] and f["hint"]
    assert code == 1


def test_no_internal_error_in_the_text_report(project):
    project("red.yaml", CREATURE.replace("cost: 2", "cost: !!python/name:os.system"))
    code, text = run_text(project.root)
    assert "cards/red.yaml:6:11: [yaml-tag]" in text
    assert "internal error" not in text.lower() and "Traceback" not in text and code == 1


def test_a_locale_with_hostile_yaml_is_a_finding_at_its_place(project):
    project("red.yaml", CREATURE)
    path = project.root / "locales" / "fr.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(1, "evil: !!python/object/apply:os.system [id]\n")
    path.write_text("".join(lines), encoding="utf-8")
    code, report = run(project.root)
    f = only(report, "yaml-tag")
    assert (f["file"], f["line"], f["column"]) == ("locales/fr.yaml", 2, 7)
    assert code == 1


def test_a_locale_with_a_huge_number_is_a_finding(project):
    project("red.yaml", CREATURE)
    with open(project.root / "locales" / "en.yaml", "a", encoding="utf-8") as f:
        f.write("huge: " + "7" * 10_000 + "\n")
    _, report = run(project.root)
    assert only(report, "yaml-number")["file"] == "locales/en.yaml"


def test_a_card_template_with_hostile_yaml_is_a_finding_at_its_place(shipped):
    template = shipped / "templates" / "cards" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("  bleed: 3.175", "  bleed: !!python/object/apply:os.system [id]"),
                        encoding="utf-8")
    line = next(i for i, ln in enumerate(template.read_text(encoding="utf-8").splitlines(), 1) if "bleed:" in ln)
    found = [f for f in validate(shipped).findings if f.position.file == "templates/cards/card.yaml"]
    assert [(f.rule, f.position.line, f.position.col) for f in found] == [("yaml-tag", line, 10)]


# -- files that are not ordinary files ------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_card_file_that_is_not_an_ordinary_file_is_refused(project, no_hang, kind):
    make, rule, words = KINDS[kind]
    project("black.yaml", CREATURE.replace("ember-imp", "ash-imp"))
    make(project("red.yaml", CREATURE))
    code, report = run(project.root)
    f = only(report, rule)
    assert f["file"] == "cards/red.yaml" and words in f["message"] and f["hint"]
    assert report["summary"]["card_designs"] == 1  # the other file is still checked
    assert code == 1


def test_a_link_to_a_card_file_inside_the_project_is_read(project):
    (project.root / "drafts").mkdir()
    project("red.yaml", CREATURE).rename(project.root / "drafts" / "red.yaml")
    symlink(project.root / "cards" / "red.yaml", "../drafts/red.yaml")
    _, report = run(project.root)
    assert report["summary"]["card_designs"] == 1


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_locale_that_is_not_an_ordinary_file_is_refused(project, no_hang, kind):
    make, rule, words = KINDS[kind]
    project("red.yaml", CREATURE)
    make(project.root / "locales" / "fr.yaml")
    code, report = run(project.root)
    f = only(report, rule)
    assert f["file"] == "locales/fr.yaml" and words in f["message"] and f["hint"]
    assert code == 1


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "huge", "link-out"])
def test_a_card_template_that_is_not_an_ordinary_file_is_refused(shipped, no_hang, kind):
    make, rule, words = KINDS[kind]
    make(shipped / "templates" / "cards" / "card.yaml")
    found = [f for f in validate(shipped).findings if f.position.file == "templates/cards/card.yaml"]
    assert [f.rule for f in found] == [rule] and words in found[0].message and found[0].hint


def test_an_unreadable_cards_folder_exits_2_with_one_message(project, monkeypatch):
    """chmod 000 does not stop root, who runs the tests: the listing is made to fail instead."""
    project("red.yaml", CREATURE)
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self.name == "cards":
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    code, text = run_text(project.root)
    assert code == 2
    assert text.splitlines()[0] == "cards: [io] cannot list the `cards/` folder: Permission denied"


def test_a_chmod_000_cards_folder_exits_2(project):
    """A real permission refusal, through the CLI. Root reads any folder whatever its mode, so as root
    (CI) the command runs without the capabilities that let it (util-linux's setpriv drops them)."""
    import shutil
    import subprocess

    project("red.yaml", CREATURE)
    command = [sys.executable, "-c", "from forge.cli import main; main()", "validate", "--root", str(project.root)]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.fail("util-linux's setpriv is needed to run this test as root")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]
    (project.root / "cards").chmod(0)
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    finally:
        (project.root / "cards").chmod(0o755)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot list the `cards/` folder: Permission denied" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_the_cli_never_hangs_on_a_fifo(project, no_hang, cli):
    """The whole command, text report, on a FIFO: one finding, exit 1, well within the guard."""
    fifo(project("red.yaml", CREATURE))
    result = cli(["validate", "--root", str(project.root)])
    assert result.exit_code == 1
    assert "cards/red.yaml: [special-file] is a named pipe (FIFO), not an ordinary file" in result.stdout
