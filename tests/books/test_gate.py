"""One gate (issue 9 §2): the books are not rendered from a database `forge validate` refuses, unless
--force, and then every page says DRAFT."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
from forge.core import atomic
from forge.render.pdftext import page_texts

from .miniproject import mini_project

from ..conftest import invoke


def _duplicate(root):
    """A project whose cards pass the loader but not validate: two cards share an id."""
    red = root / "cards" / "red.yaml"
    text = red.read_text(encoding="utf-8")
    red.write_text(text.replace("  - id: ash-runner\n", "  - id: kindle\n", 1), encoding="utf-8")
    return root


@pytest.fixture
def duplicated(tmp_path):
    return _duplicate(mini_project(tmp_path / "game"))


@pytest.fixture(scope="module")
def forced(tmp_path_factory):
    """``duplicated`` rendered once with --force --print, read by the draft tests (one book laid out, not
    three; the small books project's, every page of it marked as a shipped book's would be): (project,
    result). A test that changes it works on its own copy."""
    root = _duplicate(mini_project(tmp_path_factory.mktemp("forced") / "game"))
    result = _render(root, "--force", "--print")
    atomic.release()  # the command confined writes to its output folder; the tests write elsewhere
    return root, result


def _render(root, *extra):
    return invoke(["render", "rulebook", "--root", str(root), "--lang", "en", *extra])


def test_a_database_validate_refuses_renders_no_book(duplicated):
    result = _render(duplicated)
    assert result.exit_code == 1
    assert "[duplicate-id]" in result.output and "--force" in result.output
    assert not (duplicated / "output" / "books" / "rulebook-en.pdf").exists()


@pytest.mark.slow
def test_force_renders_a_draft_marked_on_every_page(forced):
    root, result = forced
    assert result.exit_code == 1  # the findings still fail CI: a draft is not a pass
    assert "DRAFT" in result.stderr
    reader = pypdf.PdfReader(root / "output" / "books" / "rulebook-en.pdf")
    assert reader.metadata.title.startswith("DRAFT")
    for text in page_texts(root / "output" / "books" / "rulebook-en.pdf"):
        assert "DRAFT, not for print:" in text and "in the card database" in text


@pytest.mark.slow
def test_the_fixed_database_renders_the_book_without_the_mark(forced, tmp_path):
    duplicated = tmp_path / "game"  # a copy of the forced project, its output and layout records included
    shutil.copytree(forced[0], duplicated)
    assert (duplicated / "output" / "books" / "rulebook-en.pdf").is_file() and forced[1].exit_code == 1
    red = duplicated / "cards" / "red.yaml"
    text = red.read_text(encoding="utf-8")
    red.write_text(text.replace("  - id: kindle\n", "  - id: ash-runner\n", 2).replace(
        "  - id: ash-runner\n", "  - id: kindle\n", 1), encoding="utf-8")
    result = _render(duplicated)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(duplicated / "output" / "books" / "rulebook-en.pdf")
    assert "DRAFT" not in page_texts(duplicated / "output" / "books" / "rulebook-en.pdf")[0] and not reader.metadata.title.startswith("DRAFT")


def test_jobs_is_the_option_s_name_and_workers_still_works():
    help_text = invoke(["render", "books", "--help"], terminal_width=200).output
    assert "--jobs" in help_text and "-j" in help_text


def test_the_books_show_cards_at_their_printed_text_size():
    """The rulebook's card figures and cover use the printed face (its text class's size), not a size of
    their own."""
    from pathlib import Path

    from forge.books.anatomy import classed_face
    from forge.carddb.database import load_database
    from forge.render.face import build_faces
    from forge.text.cardtext import load_phrasebooks

    root = Path(__file__).resolve().parents[2]
    load = load_database(root)
    books = load_phrasebooks(root)
    printed = {f.id: f for f in build_faces(load.db, books, ["fr"], root)["fr"]}
    for card in load.db.cards[:12]:
        assert classed_face(card, load.db, books, "fr", root).text_size == printed[card.id].text_size


@pytest.mark.slow
def test_a_draft_s_print_files_say_draft_too(forced):
    """A forced render's press file and booklets carry the mark: none goes to a printer as the game."""
    root, result = forced
    assert result.exit_code == 1
    books = root / "output" / "books"
    for path in (books / "press/rulebook-en.pdf", books / "booklet/rulebook-en-a4.pdf",
                 books / "booklet/rulebook-en-letter.pdf"):
        reader = pypdf.PdfReader(path)
        assert reader.metadata.title.startswith("DRAFT"), path
        assert all("DRAFT, not for print:" in text for text in _cut(path)), path


def _cut(path: Path) -> list[str]:
    """Each page's text inside its trim box: what is left of it once the sheet is cut (a press file's page box
    starts in its bleed; the mark once drew its line from that corner, off the top of the page)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_bounded(*doc[i].get_trimbox()) for i in range(len(doc))]
    finally:
        doc.close()
