"""Shared by the prose red-team tests: a copy of the shipped game and its books composed in memory."""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOOKS = [(kind, lang) for kind in ("rulebook", "reference") for lang in ("en", "fr")]


def game(target: Path) -> Path:
    """The shipped game project (cards, locales, templates, docs), safe to modify."""
    for part in ("cards", "locales", "templates", "docs"):
        shutil.copytree(REPO / part, target / part)
    return target


def compose_book(root: Path, kind: str, lang: str):
    from forge.books.compose import compose, load_project
    from forge.carddb.database import load_database
    from forge.text.cardtext import load_phrasebooks

    load = load_database(root)
    return compose(load_project(root, load.db, load_phrasebooks(root)), kind, lang)


def append(root: Path, kind: str, lang: str, text: str) -> int:
    """Add ``text`` as the last paragraph of a book's prose; the line it starts on."""
    path = root / f"templates/books/{kind}.{lang}.md"
    body = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    path.write_text(body + text + "\n", encoding="utf-8")
    return body.count("\n") + 1


def shorten(root: Path, kind: str, sections: int = 1) -> None:
    """Keep the first ``sections`` parts of the book's prose (the title's, then each `## ` section), in both
    languages: a test of what the grammar makes of a paragraph composes a page, not the whole book (a fifth of
    its time)."""
    for lang in ("en", "fr"):
        path = root / f"templates/books/{kind}.{lang}.md"
        _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
        kept = "\n## ".join(body.split("\n## ")[:sections]).rstrip("\n")
        path.write_text(f"---\n{front}---\n{kept}\n", encoding="utf-8")
