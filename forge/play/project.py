"""A project folder made ready to play: its cards, phrasebooks and engine, then the app over a play folder."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.findings import ERROR, Finding

#: Where ``forge play`` keeps its games and pictures, under the output folder.
PLAY_DIR = Path("output") / "play"


@dataclass
class Playable:
    """What a project gives the play server; ``findings`` (and no ``game``) when its cards do not load."""

    root: Path
    db: object = None
    books: dict = field(default_factory=dict)
    game: object = None
    findings: list[Finding] = field(default_factory=list)
    io_error: bool = False
    words: object = None  # the page's words (``forge.play.words.Words``), from the locales


def read(root: Path) -> Playable:
    """Read the project's cards and phrasebooks; the page's words are the locales' ``play:`` tables.

    A locale that cannot be read is a finding: the page would have no words to show.
    """
    from ..carddb.database import load_database  # lazy: loads yaml, forge.carddb only when needed
    from ..engine import Game  # lazy: loads forge.carddb, forge.engine only when needed
    from ..carddb.model import Position  # lazy: loads forge.carddb only when needed
    from ..text.cardtext import PhraseError, load_phrasebooks  # lazy: loads forge.carddb, forge.text only when needed
    from .words import from_books  # lazy: loads forge.carddb, forge.engine ... only when needed

    root = Path(root)
    loaded = load_database(root)
    errors = [f for f in loaded.findings if f.severity == ERROR]
    if loaded.io_error or errors:
        return Playable(root, findings=errors or loaded.findings, io_error=loaded.io_error)
    try:
        books = load_phrasebooks(root)
    except PhraseError as exc:
        where = Position(exc.file or "locales", exc.line or 1, exc.col or 1)
        return Playable(root, findings=[Finding(where, exc.rule or "locale", exc.reason, exc.hint)],
                        io_error=exc.rule == "io")
    words, problems = from_books(books)
    if problems:
        return Playable(root, findings=problems)
    return Playable(root, loaded.db, books, Game(loaded.db), words=words)


def make_app(project: Playable, folder: Path | None = None, hosts: tuple[str, ...] | None = None,
             csrf: bool = False, secure: bool = False):
    """The play server's app over ``folder`` (default ROOT/output/play): games in games/, pictures in cards/
    (``hosts``, ``csrf``, ``secure``: as ``forge.play.server.create_app`` has them)."""
    from .images import CardImages  # lazy: loads forge.carddb, forge.engine ... only when needed
    from .server import LOOPBACK, create_app  # lazy: loads starlette, forge.carddb ... only when needed
    from .store import GameStore  # lazy: loads forge.carddb, forge.engine ... only when needed
    from .views import Viewer  # lazy: loads forge.carddb, forge.engine ... only when needed

    folder = Path(folder) if folder is not None else project.root / PLAY_DIR
    store = GameStore(folder / "games", project.game)
    images = CardImages(project.root, project.db, project.books, folder / "cards")
    return create_app(store, Viewer(project.db, project.books, project.words), images, hosts or LOOPBACK, csrf, secure)
