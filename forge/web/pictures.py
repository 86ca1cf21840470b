"""Card pictures for the web pages: each printed face drawn once, small, as a WebP ``data:`` URI.

The card renderer draws the face as printed (text at its class's size, in the
page's language); a picture is kept between runs in ``<out>/.cache/web-cards.json``
(sealed like forge's other records), keyed by the face's own cache key, so a card
redrawn only when its printed face changes. The gallery and every replay page
share the record: it keeps the pictures of the database's current faces.
"""
from __future__ import annotations

from pathlib import Path

from ..books.webassets import AssetCache, data_uri
from ..carddb.model import Card, CardDatabase
from ..books.anatomy import classed_face, render_card
from ..render.template import load_template

#: Width in pixels (a card is shown 150 to 240 CSS pixels wide) and WebP quality: about 10 KB a card.
PICTURE_PX = 300
PICTURE_QUALITY = 70


class _Record(AssetCache):
    """The picture record: what this run drew or used, plus what it knows of the other current faces."""

    RECORD, KIND = Path(".cache") / "web-cards.json", "web card pictures"

    def __init__(self, out: Path | None, current: set[str]):
        super().__init__(out)
        self.used.update({k: v for k, v in self.known.items() if k in current and isinstance(v, str)})


class CardPictures:
    """The printed faces of one database as small pictures, in any of the project's languages."""

    def __init__(self, root: Path, db: CardDatabase, books: dict, out: Path | None = None):
        self.root, self.db, self.books = Path(root), db, books
        self.digest = load_template(self.root).digest
        self.faces = {(c.id, lang): classed_face(c, db, books, lang, self.root) for c in db.cards for lang in books}
        self.record = _Record(out, {self._key(face) for face in self.faces.values()})

    def _key(self, face) -> str:
        return f"card-{face.key(self.digest)}-{PICTURE_PX}-webp{PICTURE_QUALITY}"

    def uri(self, card: Card, lang: str) -> str:
        """``card`` as printed in ``lang``, as a ``data:image/webp`` URI."""
        face = self.faces[(card.id, lang)]

        def draw() -> str:
            image = render_card(card, self.db, self.books[lang], lang, self.root, PICTURE_PX, books=self.books,
                                face=face, quality=PICTURE_QUALITY, image_format="WEBP")[0]
            return data_uri("image/webp", image)

        return self.record.get(self._key(face), draw)

    def save(self) -> None:
        """Keep the pictures for the next run (a record that cannot be written is no loss)."""
        self.record.save()
