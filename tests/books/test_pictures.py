"""`forge check` composes the books without their card pictures (the card renderer's work), and only it."""
from __future__ import annotations

from forge.books.anatomy import render_back, render_card, without_pictures
from forge.carddb.database import load_database
from forge.text.cardtext import load_phrasebooks
from tests.conftest import REPO


def test_without_pictures_draws_nothing_inside_and_everything_after():
    db = load_database(REPO).db
    books = load_phrasebooks(REPO)
    card = db.cards[0]
    with without_pictures():
        image, marks, tpl = render_card(card, db, books["en"], "en", REPO, 60)
        assert (image, marks) == (b"", [])
        assert render_back("deck", "en", REPO, 60) == b""
    image, marks, _ = render_card(card, db, books["en"], "en", REPO, 60)
    assert image[:3] == b"\xff\xd8\xff" and marks  # a JPEG, and the marks the face was drawn with
    assert render_back("deck", "en", REPO, 60)[:3] == b"\xff\xd8\xff"
