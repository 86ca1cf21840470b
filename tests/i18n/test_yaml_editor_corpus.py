"""The one YAML editor writes the bytes the three it replaced wrote (issue 26 §3).

``yaml_editor_corpus.json`` holds the digests of what ``forge.i18n.yamledit`` (translations
imported), ``forge.spreadsheet.merge`` (sheets imported), ``forge.i18n.fix`` (``forge parity
--fix``) and ``forge sync`` produced on the corpus of ``yaml_editor_corpus.py``, recorded on
main before they were merged into ``forge.carddb.yamledit``.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path


from forge.carddb import yamledit
from forge.i18n import inventory
from forge.i18n.checks import typography

from . import yaml_editor_corpus as corpus
from .helpers import forge

RECORDED = json.loads((Path(__file__).with_name("yaml_editor_corpus.json")).read_text(encoding="utf-8"))


def _scalar(text: str, tree, ops) -> str | None:
    try:
        edits = [yamledit.replace(text, tree, op[1], op[2], op[3]) if op[0] == "replace"
                 else yamledit.insert(text, tree, *op[1:]) for op in ops]
    except yamledit.EditError:
        return None
    return yamledit.apply(text, edits)


def test_translations_are_written_as_before():
    trees: dict[str, object] = {}
    got, crlf = {}, {}
    for name, text, ops in corpus.scalar_cases():
        if text not in trees:
            trees[text] = yamledit.compose(text)
        out = _scalar(text, trees[text], ops)
        got[name] = "EditError" if out is None else corpus.digest(out)
        if out is not None and out != text and "\r\n" in text and ops[0][0] == "insert":
            crlf[name] = out
    assert len(got) == len(RECORDED["scalar"]) > 1000
    # the one change on purpose: a key added to a CRLF file ends with CRLF (the old editor wrote LF)
    assert {n for n in got if got[n] != RECORDED["scalar"][n]} == set(crlf) == {"small13:+()", "small13:+('a',)"}
    assert all(text.count("\r\n") == text.count("\n") == 4 for text in crlf.values())
    assert {n: v for n, v in got.items() if n not in crlf} == {n: v for n, v in RECORDED["scalar"].items() if n not in crlf}


def test_sheets_are_merged_as_before():
    got = {}
    for name, text, changes, additions in corpus.merge_cases():
        try:
            got[name] = corpus.digest(yamledit.merge_file(text, changes, additions))
        except yamledit.EditError:
            got[name] = "MergeError"
    assert len(got) == len(RECORDED["merge"]) > 90
    assert got == RECORDED["merge"]


def _damaged(tmp_path: Path) -> Path:
    """The project with the corpus's recorded cards, locales and template strings, French typography damaged."""
    for part in ("schema", "templates"):
        shutil.copytree(corpus.REPO / part, tmp_path / part)
    shutil.copytree(corpus.INPUTS, tmp_path, dirs_exist_ok=True)
    corpus.damage(tmp_path)
    return tmp_path


def test_typography_fixes_are_applied_as_before(tmp_path):
    root = _damaged(tmp_path)
    got = {}
    for n in range(2):
        _, fixes = typography.check(inventory.build(root))
        got[f"pass{n}:count"] = str(sorted(yamledit.fix_files(root, fixes).items()))
        for rel in corpus.SHIPPED:
            got[f"pass{n}:{rel}"] = corpus.digest((root / rel).read_text(encoding="utf-8"))
    assert got["pass0:count"] != "[]"
    assert got == RECORDED["fix"]


def _digests(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): corpus.digest(p.read_bytes().decode("utf-8", "surrogateescape"))
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_forge_sync_writes_the_files_it_wrote_before(tmp_path):
    """The files `forge sync` changes or makes, byte for byte (the templates it only reads are not its output)."""
    root = _damaged(tmp_path)
    before = _digests(root)
    result = forge("sync", "--root", str(root))
    got = {rel: digest for rel, digest in _digests(root).items() if before.get(rel) != digest}
    got["exit"] = str(result.exit_code)
    assert len(got) > 5
    assert got == {rel: RECORDED["sync"][rel] for rel in got}, result.output
