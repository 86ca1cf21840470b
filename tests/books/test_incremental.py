"""`forge render books` and `forge build` lay a book out again only when one of its inputs changed (issue 9 §3)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from forge.books.build import BOOK_RECORD, build_books, output_path, print_path
from forge.books.printing import PRINT_FILES

from .miniproject import mini_project

LANGS = ("en", "fr")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The rulebook in both languages, built once into the project's output/: the small project's
    (tests/books/miniproject.py), four pages a book; what is laid out again does not depend on the prose's length."""
    root = mini_project(tmp_path_factory.mktemp("inc") / "game")
    outcomes = build_books(root, ("rulebook",), LANGS, root / "output", workers=2)
    assert all(o.written for o in outcomes)
    return root


@pytest.fixture
def game(built, tmp_path) -> Path:
    """A copy of the built project, output and record included."""
    root = tmp_path / "game"
    shutil.copytree(built, root)
    return root


def _again(root: Path) -> dict:
    return {o.lang: o for o in build_books(root, ("rulebook",), LANGS, root / "output", workers=2)}


def _state(root: Path, lang: str) -> tuple[bytes, int]:
    path = output_path(root / "output", "rulebook", lang)
    return path.read_bytes(), path.stat().st_mtime_ns


@pytest.mark.slow
def test_nothing_changed_nothing_is_laid_out_or_written(game):
    before = {lang: _state(game, lang) for lang in LANGS}
    again = _again(game)
    assert all(o.unchanged and not o.written for o in again.values())
    assert {lang: _state(game, lang) for lang in LANGS} == before  # same bytes, not even rewritten
    assert all(o.pages > 0 and o.size == len(before[o.lang][0]) for o in again.values())


@pytest.mark.slow
def test_the_layout_libraries_are_loaded_before_the_workers_only_for_a_book_never_built(game, monkeypatch):
    """A book without a record is laid out: WeasyPrint and the rest are imported once, before the
    workers are forked (they inherit them), not in each worker; a build that may change nothing does not."""
    from forge.books import build

    preloads = []
    monkeypatch.setattr(build, "_preload", lambda: preloads.append(True))
    assert all(o.unchanged for o in _again(game).values()) and preloads == []
    (game / "output" / BOOK_RECORD).unlink()  # no record: both books are laid out again
    assert all(o.written for o in _again(game).values()) and preloads == [True]


def test_the_preload_imports_the_layout_and_starts_nothing():
    """What the workers inherit: the layout, drawing and read-back libraries, in a process still running a
    single thread (forking a threaded process is unsafe), PDFium not yet started (each worker starts its own)."""
    import subprocess
    import sys

    probe = ("import sys, threading; from forge.books import build; build._preload(); "
             "print(sorted(m for m in ('weasyprint', 'pypdf', 'reportlab.pdfgen.canvas', 'jinja2', 'pypdfium2') "
             "if m in sys.modules), threading.active_count())")
    seen = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split("\n")[0]
    assert seen == "['jinja2', 'pypdf', 'reportlab.pdfgen.canvas', 'weasyprint'] 1"


@pytest.mark.slow
def test_a_prose_change_lays_out_only_its_own_book(game):
    prose = game / "templates" / "books" / "rulebook.fr.md"
    prose.write_text(prose.read_text(encoding="utf-8") + "\nUne phrase de plus.\n", encoding="utf-8")
    again = _again(game)
    assert again["fr"].written and not again["en"].written and again["en"].unchanged


def _rename(root: Path, file: str, name: str) -> None:
    cards = root / "cards" / file
    text = cards.read_text(encoding="utf-8")
    assert f'name: {{en: "{name}"' in text
    cards.write_text(text.replace(f'name: {{en: "{name}"', f'name: {{en: "{name} Prime"', 1), encoding="utf-8")


@pytest.mark.slow
def test_a_card_change_lays_out_the_books_that_show_it(game):
    before = _state(game, "en")[0]
    _rename(game, "black.yaml", "Carrion Crow")  # the rulebook names it
    again = _again(game)
    assert again["en"].written
    assert _state(game, "en")[0] != before


def _not_shown(root: Path) -> str:
    """A Red recruitment card the rulebook does not show: neither in its example game's record nor on that
    game's opening row, nor named by any of its generated lists (the soul sources, the back cover's traps),
    in either language; derived from the books, which change with the cards."""
    from forge.books.compose import compose
    from forge.books.example import EXAMPLE_FILE, read
    from forge.carddb.database import load_database

    from .conftest import project_of

    db = load_database(root).db
    text = (root / "templates" / "books" / EXAMPLE_FILE).read_text(encoding="utf-8")
    shown = {json.loads(line).get("card") for line in text.splitlines()} | set(read(db, text).row)
    project = project_of(root)
    pages = [compose(project, "rulebook", lang).html for lang in ("en", "fr")]
    return next(c.name["en"] for c in db.cards
                if c.set == "recruit" and c.factions[:1] == ("red",) and c.id not in shown
                and not any(c.name[lang] in page for lang, page in zip(("en", "fr"), pages)))


@pytest.mark.slow
def test_a_card_the_rulebook_does_not_show_changes_nothing_in_it(game):
    _rename(game, "red.yaml", _not_shown(game))  # named by neither rulebook, nor in the example game
    again = _again(game)
    assert again["en"].unchanged and again["fr"].unchanged


@pytest.mark.slow
def test_a_book_edited_behind_forge_s_back_is_laid_out_again(game):
    path = output_path(game / "output", "rulebook", "en")
    path.write_bytes(path.read_bytes()[:-10] + b"0123456789")  # same size, other bytes
    again = _again(game)
    assert again["en"].written and again["fr"].unchanged
    assert not path.read_bytes().endswith(b"0123456789")  # rewritten whole
    assert again["en"].sha256 and again["en"].size == path.stat().st_size


@pytest.mark.slow
def test_a_deleted_book_is_laid_out_again(game):
    output_path(game / "output", "rulebook", "fr").unlink()
    assert _again(game)["fr"].written


@pytest.mark.slow
def test_a_record_not_sealed_here_is_no_record(game):
    """A pull request that commits output/ with its own record cannot make forge skip a book."""
    record = game / "output" / BOOK_RECORD
    data = json.loads(record.read_text(encoding="utf-8"))
    data["seal"] = "0" * 64
    record.write_text(json.dumps(data), encoding="utf-8")
    again = _again(game)
    assert all(o.written for o in again.values())


@pytest.mark.slow
def test_a_template_asset_change_counts_too(game):
    """A stylesheet is fetched by the layout, not composed into the HTML: it is in the key all the same."""
    css = sorted((game / "templates" / "books").glob("*.css"))
    assert css, "the books have a stylesheet in templates/books"
    css[0].write_text(css[0].read_text(encoding="utf-8") + "\n/* changed */\n", encoding="utf-8")
    again = _again(game)
    assert all(o.written for o in again.values())


# -- the print files (issue 10 §1) -------------------------------------------------------------------
def _print_again(root: Path, press: bool = True) -> dict:
    return {o.lang: o for o in build_books(root, ("rulebook",), ("en",), root / "output", workers=1, press=press)}


def _print_state(root: Path) -> dict:
    return {name: (path.read_bytes(), path.stat().st_mtime_ns)
            for name in PRINT_FILES for path in [print_path(root / "output", "rulebook", "en", name)]}


@pytest.mark.slow
def test_print_files_are_made_once_then_left_alone_until_an_input_changes(game):
    first = _print_again(game)["en"]
    assert first.written and set(first.files) == set(PRINT_FILES)  # the record had no print files: laid out
    before = _print_state(game)
    again = _print_again(game)["en"]
    assert again.unchanged and not again.written and again.files == first.files
    assert _print_state(game) == before  # not even rewritten
    assert _print_again(game, press=False)["en"].unchanged  # a screen-only build needs nothing more


@pytest.mark.slow
def test_a_deleted_or_edited_print_file_is_made_again(game):
    _print_again(game)
    press = print_path(game / "output", "rulebook", "en", "press")
    press.write_bytes(press.read_bytes()[:-10] + b"0123456789")
    assert _print_again(game)["en"].written
    print_path(game / "output", "rulebook", "en", "booklet-letter").unlink()
    assert _print_again(game)["en"].written and print_path(game / "output", "rulebook", "en", "booklet-letter").is_file()


@pytest.mark.slow
def test_a_book_laid_out_anew_without_print_files_removes_its_old_ones(game):
    _print_again(game)
    prose = game / "templates" / "books" / "rulebook.en.md"
    prose.write_text(prose.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    assert _print_again(game, press=False)["en"].written
    assert not any(print_path(game / "output", "rulebook", "en", name).exists() for name in PRINT_FILES)


def _with_forge_at(book, home: Path):
    """``book`` as composed by the same forge installed at ``home`` (its shipped files there): forge's
    file: URLs point there, and the fetch policy reads its assets there."""
    import dataclasses

    from forge.core import safeio
    from forge.books.fetch import UrlPolicy

    here, there = safeio.FORGE_HOME.as_uri(), home.as_uri()
    tail = book.tail_html
    return dataclasses.replace(
        book, html=book.html.replace(here, there), tail_html=lambda fillers: tail(fillers).replace(here, there),
        policy=UrlPolicy(book.policy.root, (*book.policy.folders, home / "forge" / "assets")))


def _install_forge_assets(home: Path) -> None:
    from forge.core import safeio

    shutil.copytree(safeio.FORGE_HOME / "forge" / "assets", home / "forge" / "assets")


def test_the_key_and_so_the_press_file_do_not_depend_on_where_forge_and_the_project_lie(tmp_path, monkeypatch):
    """The build key names the press file (its document ID): the same project and the same forge, in
    other folders, give the same key; a change to a file the book is made of still moves it."""
    from forge.core import safeio
    from forge.books import build
    from forge.books.compose import compose

    from .conftest import project_of

    root = mini_project(tmp_path / "one")
    composed = compose(project_of(root), "reference", "en")
    key = build.book_key(composed, root)
    assert safeio.FORGE_HOME.as_uri() in composed.html  # the fonts' file: URLs, what made the keys differ

    other = mini_project(tmp_path / "elsewhere" / "two")
    home = tmp_path / "site-packages"  # forge installed elsewhere: its shipped files there
    _install_forge_assets(home)

    def composed_there():
        return _with_forge_at(compose(project_of(other), "reference", "en"), home)

    moved = composed_there()
    monkeypatch.setattr(safeio, "FORGE_HOME", home)
    assert build.book_key(moved, other) == key

    (home / "forge" / "assets" / "fonts" / "Lato-Bold.ttf").write_bytes(b"another font")
    assert build.book_key(moved, other) != key
    css = next((other / "templates").rglob("*.css"))
    css.write_text(css.read_text(encoding="utf-8") + "\n/* edited */\n", encoding="utf-8")
    assert build.book_key(composed_there(), other) not in (key, build.book_key(moved, other))


def test_the_key_is_the_same_when_forge_runs_in_its_own_checkout(tmp_path, monkeypatch):
    """``forge build`` in forge's checkout (the project folder is also forge's home, its package inside)
    and the same forge on a copy of the project elsewhere give one key: forge's fonts are named by
    forge's package in both, not by the project that happens to hold it."""
    from forge.core import safeio
    from forge.books import build
    from forge.books.compose import compose

    from .conftest import project_of

    elsewhere = mini_project(tmp_path / "elsewhere")
    key = build.book_key(compose(project_of(elsewhere), "reference", "en"), elsewhere)

    checkout = mini_project(tmp_path / "checkout")
    _install_forge_assets(checkout)
    inside = _with_forge_at(compose(project_of(checkout), "reference", "en"), checkout)
    monkeypatch.setattr(safeio, "FORGE_HOME", checkout)
    assert build.book_key(inside, checkout) == key


# -- a rebuild where nothing changed composes nothing and lays out nothing (issue 24 §6) ------------------
def _counted(monkeypatch) -> dict:
    """Count WeasyPrint's layouts and forge's composing, in this process (the builds below run one worker)."""
    import weasyprint

    from forge.books import compose

    counts = {"layouts": 0, "composed": 0}
    render, composing = weasyprint.HTML.render, compose.compose

    def counted_render(self, *args, **kwargs):
        counts["layouts"] += 1
        return render(self, *args, **kwargs)

    def counted_compose(*args, **kwargs):
        counts["composed"] += 1
        return composing(*args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "render", counted_render)
    monkeypatch.setattr(compose, "compose", counted_compose)
    return counts


def _alone(root: Path) -> dict:
    return {o.lang: o for o in build_books(root, ("rulebook",), LANGS, root / "output", workers=1)}


def test_a_rebuild_with_nothing_changed_composes_and_lays_out_nothing(game, monkeypatch):
    counts = _counted(monkeypatch)
    before = {lang: _state(game, lang) for lang in LANGS}
    again = _alone(game)
    assert all(o.unchanged and not o.written for o in again.values())
    assert counts == {"layouts": 0, "composed": 0}
    assert {lang: _state(game, lang) for lang in LANGS} == before  # same bytes, not even rewritten


def test_a_prose_change_composes_and_lays_out_its_book_again(game, monkeypatch):
    counts = _counted(monkeypatch)
    prose = game / "templates" / "books" / "rulebook.en.md"
    prose.write_text(prose.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    again = _alone(game)
    assert again["en"].written and again["fr"].unchanged  # the French one composed, its key the same
    assert counts["composed"] == 2 and counts["layouts"] >= 2  # the English text, and its back cover


def test_a_card_change_lays_out_again_the_book_showing_it(game, monkeypatch):
    counts = _counted(monkeypatch)
    _rename(game, "black.yaml", "Carrion Crow")
    again = _alone(game)
    assert again["en"].written and counts["layouts"] >= 2


def test_the_record_keeps_what_composing_found(game, monkeypatch):
    """A book left as it is, not composed, still reports the warnings composing it found."""
    from forge.books.build import book_record

    record = book_record(game / "output")
    books = record.load()
    warning = ["templates/books/rulebook.en.md", 3, 1, "prose", "a warning", "a hint", "warning"]
    books["rulebook-en"]["findings"] = [warning]
    record.save(books)
    counts = _counted(monkeypatch)
    again = _alone(game)
    assert again["en"].unchanged and counts["composed"] == 0
    [found] = again["en"].findings
    assert (found.position.file, found.position.line, found.rule, found.severity) == (
        "templates/books/rulebook.en.md", 3, "prose", "warning")


def test_the_sources_key_sees_every_file_and_vouches_for_no_link(tmp_path):
    from forge.books.build import sources_key

    root = tmp_path / "game"
    (root / "templates" / "books").mkdir(parents=True)
    prose = root / "templates" / "books" / "rulebook.en.md"
    prose.write_text("one", encoding="utf-8")
    first = sources_key(root, "rulebook", "en")
    assert first and first == sources_key(root, "rulebook", "en")
    assert first != sources_key(root, "rulebook", "fr") and first != sources_key(root, "rulebook", "en", "draft")
    prose.write_text("two", encoding="utf-8")
    assert sources_key(root, "rulebook", "en") not in ("", first)
    (root / "cards").mkdir()
    (root / "cards" / "link.yaml").symlink_to(tmp_path / "elsewhere.yaml")  # its target may change unseen
    assert sources_key(root, "rulebook", "en") == ""
