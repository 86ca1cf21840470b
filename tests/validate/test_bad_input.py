"""Bad input is refused with a message, its position and the right exit status; never a traceback."""
from __future__ import annotations

import os
import time
import tracemalloc

from forge.carddb import yamlsrc

from .helpers import CREATURE, only, run, run_text


def test_yaml_syntax_error_has_position(project):
    project("red.yaml", "cards:\n  - id: a\n    name: {en: x, fr: y\n")
    code, report = run(project.root)
    f = only(report, "yaml-syntax")
    assert (f["file"], f["line"]) == ("cards/red.yaml", 5)
    assert "flow mapping" in f["message"]
    assert code == 1


def test_duplicate_key_is_refused(project):
    project("red.yaml", CREATURE.replace("    copies: 3\n", "    copies: 3\n    copies: 2\n"))
    code, report = run(project.root)
    f = only(report, "duplicate-key")
    assert f["line"] == 9 and f["column"] == 5
    assert f["message"] == "duplicate key 'copies' (first written at line 8)"
    assert code == 1


def test_unknown_field_suggests_the_right_one(project):
    project("red.yaml", CREATURE.replace("cost: 2", "cots: 2"))
    code, report = run(project.root)
    f = [f for f in report["findings"] if "unknown field" in f["message"]][0]
    assert f["message"] == "cots: unknown field `cots`"
    assert f["hint"] == "did you mean `cost`?"
    assert (f["line"], f["column"]) == (6, 5)
    assert code == 1


def test_unknown_verb_suggests_a_verb(project):
    project("red.yaml", CREATURE.replace("- wound: 2", "- wond: 2"))
    _, report = run(project.root)
    f = [f for f in report["findings"] if "`wond`" in f["message"]][0]
    assert f["hint"] == "did you mean `wound`?"
    assert f["line"] == 11


def test_wrong_type_names_the_expected_type(project):
    project("red.yaml", CREATURE.replace("copies: 3", "copies: three"))
    code, report = run(project.root)
    f = [f for f in report["findings"] if f["rule"] == "schema"][0]
    assert f["message"] == "copies: 'three' is not a whole number"
    assert code == 1


def test_out_of_range_value_matches_the_issue_example(project):
    project("black.yaml", CREATURE.replace("cost: 2", "cost: -1"))
    _, text = run_text(project.root)
    assert "cards/black.yaml:6:11: [schema] cost: -1 is less than the minimum of 0" in text


def test_threshold_above_six_is_refused(project):
    project("red.yaml", CREATURE.replace("      - wound: 2", "      - if: {red: 7}\n        wound: 2"))
    _, report = run(project.root)
    assert any("7 is greater than the maximum of 6" in f["message"] for f in report["findings"])


def test_empty_file(project):
    project("red.yaml", "", header=False)
    code, report = run(project.root)
    f = only(report, "empty-file")
    assert f["message"] == "the file is empty"
    assert code == 1


def test_comment_only_file_is_empty_too(project):
    project("red.yaml", "")
    _, report = run(project.root)
    only(report, "empty-file")


def test_not_utf8(project):
    project("red.yaml", "cards:\n  - id: caf\xe9\n".encode("latin-1"))
    code, report = run(project.root)
    f = only(report, "encoding")
    assert (f["line"], f["column"]) == (2, 12)
    assert f["message"] == "the file is not UTF-8 (byte 0xe9)"
    assert code == 1


def test_wrong_top_level_shape(project):
    project("red.yaml", "- id: ember-imp\n")
    code, report = run(project.root)
    f = only(report, "shape")
    assert "the top level is a list" in f["message"]
    assert code == 1


def test_top_level_unknown_key(project):
    project("red.yaml", "card:\n  - id: x\n")
    _, report = run(project.root)
    assert any(f["hint"] == "did you mean `cards`?" for f in report["findings"])


def _bomb(levels: int = 9) -> str:
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    prev = "a"
    for i in range(levels):
        name = chr(ord("b") + i)
        text += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
        prev = name
    return text


def test_alias_bomb_is_refused_quickly_with_bounded_memory(project):
    project("red.yaml", _bomb())
    tracemalloc.start()
    started = time.process_time()
    code, report = run(project.root)
    elapsed = time.process_time() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    f = only(report, "yaml-aliases")
    assert "alias bomb" in f["message"]
    assert code == 1
    # generous bounds: the expanded document would be 9**10 values
    assert peak < 20 * 2**20 and elapsed < 2


def test_recursive_alias_is_refused():
    try:
        yamlsrc.load("a: &x [*x]\n")
    except yamlsrc.YamlError as exc:
        assert exc.rule == "yaml-aliases"
    else:
        raise AssertionError("a recursive alias was accepted")


def test_yaml_1_1_booleans_stay_text():
    data, _ = yamlsrc.load("on: no\nyes: off\nreal: true\n")
    assert data == {"on": "no", "yes": "off", "real": True}


def test_art_path_leaving_the_project(project):
    (project.root / "outside.png").write_bytes(b"x")
    text = CREATURE.replace("    activate:", "    art: ../outside.png\n    activate:")
    project("red.yaml", text)
    code, report = run(project.root)
    f = only(report, "asset")
    assert f["message"] == "art `../outside.png`: the path leaves the project folder"
    assert code == 1


def test_absolute_art_path(project):
    project("red.yaml", CREATURE.replace("    activate:", "    art: /etc/hostname\n    activate:"))
    _, report = run(project.root)
    assert only(report, "asset")["message"] == "art `/etc/hostname`: absolute paths are not allowed"


def test_art_link_leading_outside(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "secret.png"
    outside.write_bytes(b"x")
    (project.root / "art").mkdir()
    os.symlink(outside, project.root / "art" / "linked.png")
    project("red.yaml", CREATURE.replace("    activate:", "    art: art/linked.png\n    activate:"))
    _, report = run(project.root)
    assert "through a link" in only(report, "asset")["message"]


def test_unreadable_card_file_exits_2(project, monkeypatch):
    """A file that cannot be opened (chmod 000 for anyone but root) is an I/O error."""
    import errno

    from forge.core import safeio

    path = project("red.yaml", CREATURE)
    real_open = os.open

    def refuse(name, *args, **kwargs):
        if os.fspath(name) == os.fspath(path.resolve()):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(safeio.os, "open", refuse)
    code, report = run(project.root)
    f = only(report, "io")
    assert f["file"] == "cards/red.yaml" and "Permission denied" in f["message"]
    assert code == 2


def test_a_folder_named_like_a_card_file_is_a_finding(project):
    (project.root / "cards" / "red.yaml").mkdir()
    code, report = run(project.root)
    f = only(report, "special-file")
    assert f["file"] == "cards/red.yaml" and "a folder" in f["message"] and f["hint"]
    assert code == 1


def test_missing_root_exits_2(tmp_path):
    code, text = run_text(tmp_path / "nope")
    assert code == 2


def test_missing_cards_folder_exits_2(tmp_path):
    code, report = run(tmp_path)
    assert code == 2
    assert "no `cards/` folder" in only(report, "io")["message"]


def test_every_file_is_reported_in_one_run(project):
    project("a.yaml", "cards: [\n")
    project("b.yaml", "")
    project("c.yaml", "- x\n")
    _, report = run(project.root)
    assert {f["file"] for f in report["findings"] if f["rule"] in ("yaml-syntax", "empty-file", "shape")} == {
        "cards/a.yaml", "cards/b.yaml", "cards/c.yaml"}


def test_validate_writes_nothing(project):
    project("red.yaml", CREATURE)
    before = sorted((p, p.stat().st_mtime_ns) for p in project.root.rglob("*"))
    run(project.root)
    after = sorted((p, p.stat().st_mtime_ns) for p in project.root.rglob("*"))
    assert before == after


def test_locale_that_is_not_utf8_is_a_finding(project):
    project("red.yaml", CREATURE)
    (project.root / "locales" / "fr.yaml").write_bytes(b"factions: {red: \xe9}\n")
    code, report = run(project.root)
    f = only(report, "encoding")
    assert (f["file"], f["message"]) == ("locales/fr.yaml", "the file is not UTF-8")
    assert code == 1


def test_a_broken_card_template_is_a_finding(project):
    from forge.checks.validate import validate

    project("red.yaml", CREATURE)
    (project.root / "templates/cards").mkdir(parents=True)
    (project.root / "templates/cards/card.yaml").write_text("card: {}\n", encoding="utf-8")
    found = [f for f in validate(project.root).findings if f.rule == "template"]
    assert len(found) == 1 and found[0].position.file == "templates/cards/card.yaml"
    assert "the `colors:` section is missing" in found[0].message
