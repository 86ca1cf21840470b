"""forge parity reads locales, card files, book prose and strings.yaml through safeio.

A FIFO used to hang it, a link to /dev/zero to fill the memory; each is now one
finding at the file, with safeio's rule and hint (issue 7, section 2).
"""
from __future__ import annotations

import json
import shutil

import pytest

from ..conftest import REPO
from ..validate.special_files import KINDS
from .test_parity import card, run


def findings_at(root, rel: str) -> tuple[int, list[dict]]:
    code, out = run(root, "json")
    return code, [f for f in json.loads(out)["findings"] if f["file"] == rel]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_locale_that_is_not_an_ordinary_file(project, no_hang, kind):
    make, rule, words = KINDS[kind]
    project("red.yaml", card())
    make(project.root / "locales" / "fr.yaml")
    code, found = findings_at(project.root, "locales/fr.yaml")
    assert [f["rule"] for f in found] == [rule] and words in found[0]["message"] and found[0]["hint"]
    assert code == 1


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_card_file_that_is_not_an_ordinary_file(project, no_hang, kind):
    make, rule, words = KINDS[kind]
    make(project("red.yaml", card()))
    code, found = findings_at(project.root, "cards/red.yaml")
    assert [f["rule"] for f in found] == [rule] and words in found[0]["message"]
    assert code == 1


@pytest.mark.parametrize("rel", ["templates/books/rulebook.fr.md", "templates/books/reference.en.md",
                                 "templates/books/strings.yaml"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "huge", "link-out"])
def test_book_sources_that_are_not_ordinary_files(project, no_hang, kind, rel):
    """The books with one card: what is read is the mechanism, not the game (a third cheaper than the whole game)."""
    project("red.yaml", card())
    shutil.copytree(REPO / "templates/books", project.root / "templates/books")
    make, rule, words = KINDS[kind]
    make(project.root / rel)
    code, found = findings_at(project.root, rel)
    assert [f["rule"] for f in found] == [rule] and words in found[0]["message"]
    assert code == 1


def test_an_unreadable_locale_is_an_io_error(project, monkeypatch):
    """A file that cannot be opened (chmod 000, for anyone but root) still exits 2."""
    import errno
    import os

    from forge.core import safeio

    project("red.yaml", card())
    target = os.fspath((project.root / "locales" / "fr.yaml").resolve())
    real_open = os.open

    def refuse(name, *args, **kwargs):
        if os.fspath(name) == target:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(safeio.os, "open", refuse)
    code, found = findings_at(project.root, "locales/fr.yaml")
    assert [f["rule"] for f in found] == ["io"] and "Permission denied" in found[0]["message"]
    assert code == 2
