"""forge diff reads the working tree through safeio: what validate refuses, diff refuses too.

It used to copy cards/ and locales/ with shutil.copytree, which raised on a FIFO (a
traceback) and copied /dev/zero until the disk was full (issue 7, section 2). A
refused file is now exit 2 with one line naming it and why.
"""
from __future__ import annotations

import subprocess

import pytest

from ..validate.special_files import KINDS
from .test_diff import IMP, git, run


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("rel", ["cards/red.yaml", "locales/fr.yaml"])
def test_a_working_tree_file_that_is_not_an_ordinary_file_is_refused(repo, no_hang, kind, rel):
    make, _, words = KINDS[kind]
    make(repo / rel)
    code, out, err = run(repo, "HEAD")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"forge: error: {rel}: ") and words in line


def test_files_that_diff_does_not_read_are_not_refused(repo, no_hang):
    """Only cards/*.yaml and locales/*.yaml are read: a FIFO elsewhere changes nothing."""
    import os

    os.mkfifo(repo / "cards" / "notes.txt")
    (repo / "cards" / "drafts").mkdir()
    os.mkfifo(repo / "cards" / "drafts" / "red.yaml")
    code, out, _ = run(repo, "HEAD")
    assert code == 0 and out.startswith("cards from HEAD to the working tree: 0 added, 0 removed, 0 changed")


def test_a_link_inside_the_project_is_followed(repo):
    (repo / "drafts").mkdir()
    (repo / "cards" / "red.yaml").rename(repo / "drafts" / "red.yaml")
    (repo / "cards" / "red.yaml").symlink_to("../drafts/red.yaml")
    code, out, _ = run(repo, "HEAD")
    assert code == 0 and "0 added, 0 removed, 0 changed" in out


def test_a_committed_file_over_the_limit_is_refused(repo, no_hang):
    from forge.core import safeio

    big = repo / "cards" / "big.yaml"
    with open(big, "wb") as f:
        f.write(b"cards: []\n")
        f.truncate(safeio.MAX_INPUT_BYTES + 1)
    git(repo, "add", "cards/big.yaml")
    git(repo, "commit", "-qm", "big")
    big.unlink()
    code, _, err = run(repo, "HEAD", "HEAD")
    assert code == 2 and "cards/big.yaml at HEAD: 10,485,761 bytes, more than the limit" in err


def test_a_card_file_name_git_would_quote_is_read(repo):
    """ls-tree -z: a non-ASCII file name is not quoted, so its card is found in the revision."""
    (repo / "cards" / "rouge-été.yaml").write_text("cards:\n" + IMP.format(cost=1, wound=1).replace(
        "ember-imp", "summer-imp"), encoding="utf-8")
    git(repo, "add", "cards")
    git(repo, "commit", "-qm", "summer")
    code, out, _ = run(repo, "HEAD~1", "HEAD")
    assert code == 0 and "+ summer-imp" in out.splitlines()
    assert subprocess.run(["git", "ls-tree", "-r", "--name-only", "HEAD"], cwd=repo, capture_output=True,
                          text=True).stdout.count('"') >= 2  # git would have quoted it
