"""``forge render rulebook|reference|books``: reports, exit codes, no traceback on bad input."""
from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest

from forge.core import atomic

from .miniproject import mini_project

from ..conftest import invoke


def run(*args):
    return invoke(["render", *args])


@pytest.fixture
def project(tmp_path):
    """The small books project (tests/books/miniproject.py): the command's reports, exit codes and I/O do not
    depend on the prose's length, and its books lay out in a fraction of the shipped ones' time."""
    return mini_project(tmp_path / "game")


def test_the_commands_are_registered():
    result = run("--help")
    assert result.exit_code == 0
    assert all(name in result.output for name in ("rulebook", "reference", "books"))


@pytest.mark.slow
def test_renders_one_language_reports_json_and_writes_no_print_file_unasked(project):
    """One rulebook laid out (the costly part) for both checks: the report, and no print file without --print."""
    result = run("rulebook", "--root", str(project), "--lang", "en", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and [b["lang"] for b in report["books"]] == ["en"]
    book = report["books"][0]
    assert book["pages"] > 0 and book["preflight"] == []
    assert (project / "output/books/rulebook-en.pdf").is_file()
    assert not (project / "output/books/rulebook-fr.pdf").exists()
    assert not (project / "output" / "books" / "press").exists()
    assert not (project / "output" / "books" / "booklet").exists()


@pytest.mark.slow
def test_print_writes_the_print_files_and_says_where(project):
    result = run("rulebook", "--root", str(project), "--lang", "fr", "--print", "--format", "json")
    assert result.exit_code == 0, result.output
    (book,) = json.loads(result.output)["books"]
    assert book["preflight"] == []
    out = project / "output" / "books"
    assert book["print"] == {"press": (out / "press/rulebook-fr.pdf").as_posix(),
                             "booklet-a4": (out / "booklet/rulebook-fr-a4.pdf").as_posix(),
                             "booklet-letter": (out / "booklet/rulebook-fr-letter.pdf").as_posix()}
    assert all(Path(p).is_file() for p in book["print"].values())
    text = run("rulebook", "--root", str(project), "--lang", "fr", "--print")
    assert text.exit_code == 0 and "unchanged" in text.output and "press/rulebook-fr.pdf" in text.output


def test_a_missing_root_or_cards_folder_is_an_io_error(tmp_path):
    assert run("rulebook", "--root", str(tmp_path / "nowhere")).exit_code == 2
    (tmp_path / "empty").mkdir()
    result = run("reference", "--root", str(tmp_path / "empty"))
    assert result.exit_code == 2 and "no `cards/` folder" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_broken_database_renders_nothing(project):
    path = project / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("cost: 1\n", "cost: -1\n", 1), encoding="utf-8")
    result = run("rulebook", "--root", str(project), "--lang", "fr")
    assert result.exit_code == 1
    assert "cards/red.yaml" in result.output and "fix them (forge validate)" in result.output
    assert not (project / "output").exists()


def test_an_unknown_card_in_the_prose_is_a_finding_at_its_line(project):
    path = project / "templates/books/rulebook.en.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("## Spells"))
    lines.insert(at + 1, "\nSee {card:no-such-card}.")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("rulebook", "--root", str(project), "--lang", "en")
    assert result.exit_code == 1
    assert f"templates/books/rulebook.en.md:{at + 3}:5: [book] no card has the id `no-such-card`" in result.output
    assert "not written" in result.output
    assert not (project / "output/books/rulebook-en.pdf").exists()


def test_template_code_in_prose_is_a_finding_at_its_line_and_column(project):
    path = project / "templates/books/reference.fr.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("## Glossaire", "## Glossaire {{ oops(", 1), encoding="utf-8")
    line = text[:text.find("## Glossaire")].count("\n") + 1
    result = run("reference", "--root", str(project), "--lang", "fr", "--format", "json")
    assert result.exit_code == 1
    finding = json.loads(result.output)["findings"][0]
    assert (finding["file"], finding["rule"], finding["line"]) == ("templates/books/reference.fr.md", "book", line)
    assert "template code" in finding["message"]


def test_an_unknown_number_is_a_finding_not_a_traceback(project):
    path = project / "templates/books/rulebook.fr.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n{n:dragons}\n", encoding="utf-8")
    result = run("rulebook", "--root", str(project), "--lang", "fr")
    assert result.exit_code == 1 and "[book] no number `dragons`" in result.output and "max_allegiance" in result.output


def test_an_unreadable_template_is_an_io_error(project):
    (project / "templates/books/reference.fr.md").write_bytes(b"\xff\xfe not UTF-8")
    result = run("reference", "--root", str(project), "--lang", "fr")
    assert result.exit_code == 2 and "reference.fr.md: cannot read" in result.output


def test_rulings_or_strings_that_are_not_utf8_are_an_io_error(project):
    (project / "docs").mkdir(exist_ok=True)
    (project / "docs/rulings.md").write_bytes(b"\xff\xfe not UTF-8")
    result = run("rulebook", "--root", str(project), "--lang", "en")
    assert result.exit_code == 2 and "docs/rulings.md: cannot read (the file is not UTF-8" in result.output
    (project / "docs/rulings.md").unlink()
    (project / "templates/books/strings.yaml").write_bytes(b"\xff\xfe not UTF-8")
    result = run("rulebook", "--root", str(project), "--lang", "en")
    assert result.exit_code == 2 and "strings.yaml: cannot read" in result.output

def test_a_project_without_book_templates_uses_forges_own(project):
    shutil.rmtree(project / "templates/books")
    from forge.books.compose import compose

    from .conftest import project_of

    result = compose(project_of(project), "rulebook", "en")
    assert result.ok and "Rules of play" in result.html


@pytest.mark.slow
def test_an_unwritable_output_folder_is_an_io_error(project):
    blocker = project / "blocker"
    blocker.write_text("a file, not a folder")
    result = run("rulebook", "--root", str(project), "--lang", "en", "--out", str(blocker))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"forge: error: {blocker}/books/rulebook-en.pdf: cannot write "
                                          f"({blocker} is not a folder)"]
    assert "Traceback" not in result.output and "internal error" not in result.output


@pytest.mark.slow
def test_a_full_disk_is_one_line_and_keeps_the_previous_books(project, monkeypatch):
    assert run("books", "--root", str(project), "--lang", "en").exit_code == 0
    folder = project / "output/books"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == ["reference-en.pdf", "rulebook-en.pdf"]

    def no_space(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write_all", no_space)  # the forked workers inherit it
    for kind in ("rulebook", "reference"):  # a change, so that the books are written again (not left unchanged)
        prose = project / "templates" / "books" / f"{kind}.en.md"
        prose.write_text(prose.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    result = run("books", "--root", str(project), "--lang", "en")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0] in [f"forge: error: {folder / name}: cannot write (No space left on device)"
                                            for name in before]
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # kept, and no temporary file left
