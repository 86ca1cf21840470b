"""The cards' pictures for the page: drawn by the card renderer as printed, kept in the play folder.

A picture is drawn the first time the page asks for it (about 50 ms) and kept as
``<play folder>/cards/<lang>/<card id>-<key>.jpg``, where the key is the printed
face's own (``forge.render.face``): an edited card gets a new file, an unchanged
one is never drawn again, even after a restart. Only a card of the database in a
language of the page is looked up, so a request names no path; the file is read
only when it is an ordinary file inside the play folder (a link or a FIFO put in
its place is drawn over, never followed).
"""
from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path

from ..core import atomic, safeio
from .session import PlayError
from .words import LANGS

#: Pixels across a trimmed card: sharp at the 150-CSS-pixel size the board shows, ~20 KB a JPEG.
WIDTH = 300
QUALITY = 80
MAX_IMAGE_BYTES = 4 << 20


class CardImages:
    """Card pictures of one project, drawn once and kept on disk."""

    def __init__(self, root: Path, db, books: dict, folder: Path) -> None:
        self.root, self.db, self.books, self.folder = Path(root), db, books, Path(folder)
        self.cards = {c.id: c for c in db.cards}
        self.base = self.folder.parent.resolve()  # the play folder: a picture is read and written only inside it
        self.lock = threading.Lock()
        self._keys: dict[tuple[str, str], str] = {}

    def path(self, card_id: str, lang: str) -> Path:
        return self.folder / lang / f"{card_id}-{self._key(card_id, lang)[:16]}.jpg"

    def _key(self, card_id: str, lang: str) -> str:
        key = self._keys.get((card_id, lang))
        if key is None:
            from ..books.anatomy import classed_face  # lazy: loads forge.books only when needed
            from ..render.template import load_template  # lazy: loads reportlab, yaml ... only when needed

            face = classed_face(self.cards[card_id], self.db, self.books, lang, self.root)
            made = f"{face.key(load_template(self.root).digest)}-{WIDTH}-{QUALITY}"
            key = self._keys[(card_id, lang)] = hashlib.sha256(made.encode()).hexdigest()
        return key

    def get(self, card_id: str, lang: str) -> bytes:
        """The JPEG of a card in ``lang``; PlayError 404 for an unknown card or language."""
        if lang not in LANGS or card_id not in self.cards:
            raise PlayError(404, f"no card {card_id[:60]!r} in {lang[:8]!r}: the picture of a card of the game "
                            f"is /card/<en|fr>/<card id>.jpg")
        if lang not in self.books:
            raise PlayError(404, f"no picture in {lang}: the phrasebook locales/{lang}.yaml did not load")
        with self.lock:  # one drawing at a time: the renderer's caches are not shared between threads
            try:
                path = self.path(card_id, lang)
            except Exception as exc:  # a card that cannot be laid out has no picture, the page says why
                raise PlayError(404, f"cannot draw {card_id}: {type(exc).__name__}: {exc}") from None
            if not safeio.within(path.parent, self.base):
                raise PlayError(403, f"{self.folder} leads outside the play folder {self.base}: forge serves and "
                                "keeps no picture there (remove the link)")
            kept = self._read(path)
            if kept is not None:
                return kept
            data = self._draw(card_id, lang)
            try:
                atomic.write_bytes(path, data)
            except OSError:
                return data  # a picture that cannot be kept is drawn again next time
            self._forget_older(path, card_id)
            return data

    @staticmethod
    def _forget_older(path: Path, card_id: str) -> None:
        """Remove the card's pictures drawn from an older face (the card or the template was edited since)."""
        older = re.compile(re.escape(card_id) + r"-[0-9a-f]{16}\.jpg")
        for other in path.parent.iterdir():
            if other != path and older.fullmatch(other.name) and not other.is_symlink():
                try:
                    other.unlink()
                except OSError:
                    pass

    def _read(self, path: Path) -> bytes | None:
        try:
            with safeio.open_regular(path, MAX_IMAGE_BYTES) as fh:
                return fh.read()
        except (safeio.UnsafeInput, OSError):
            return None

    def _draw(self, card_id: str, lang: str) -> bytes:
        from ..books.anatomy import classed_face, render_card  # lazy: loads forge.books only when needed

        card = self.cards[card_id]
        try:
            face = classed_face(card, self.db, self.books, lang, self.root)
            return render_card(card, self.db, self.books[lang], lang, self.root, WIDTH, books=self.books,
                               face=face, quality=QUALITY)[0]
        except Exception as exc:  # the page shows the card's name and text instead
            raise PlayError(404, f"cannot draw {card_id}: {type(exc).__name__}: {exc}") from None
