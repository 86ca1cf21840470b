"""A project folder made ready to play: its cards, phrasebooks and engine, then the app over a play folder."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..findings import ERROR, Finding

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


def read(root: Path) -> Playable:
    """Read the project's cards and phrasebooks (without phrasebooks the game plays by names, with no pictures)."""
    from ..database import load_database
    from ..engine import Game
    from ..text import PhraseError, load_phrasebooks

    root = Path(root)
    loaded = load_database(root)
    errors = [f for f in loaded.findings if f.severity == ERROR]
    if loaded.io_error or errors:
        return Playable(root, findings=errors or loaded.findings, io_error=loaded.io_error)
    try:
        books = load_phrasebooks(root)
    except (PhraseError, OSError):
        books = {}
    return Playable(root, loaded.db, books, Game(loaded.db))


def make_app(project: Playable, folder: Path | None = None, hosts: tuple[str, ...] | None = None):
    """The play server's app over ``folder`` (default ROOT/output/play): games in games/, pictures in cards/."""
    from .images import CardImages
    from .server import LOOPBACK, create_app
    from .store import GameStore
    from .views import Viewer

    folder = Path(folder) if folder is not None else project.root / PLAY_DIR
    store = GameStore(folder / "games", project.game)
    images = CardImages(project.root, project.db, project.books, folder / "cards")
    return create_app(store, Viewer(project.db, project.books), images, hosts or LOOPBACK)
