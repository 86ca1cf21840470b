"""Issue 24 §4: the setup diagram's face-up cards read in print, drawn as simplified faces.

At 17 mm a miniature of the full card printed its name at 3.5 pt and its rules at 2 pt: recognisable,
not readable. The diagram now draws each card of the recruitment row and each Rite as its name, cost
and type, laid out here by WeasyPrint with the book's own style sheet, every word at 6 pt or more, each
name whole inside the part of its card that shows (a Rite overlapped by the next one shows its top).
"""
from __future__ import annotations

import re

import pytest

from forge.books import example, table
from forge.books.anatomy import without_pictures
from forge.books.compose import Book

from .conftest import LANGS, REPO, project_of

#: The smallest print a player reads across the table (pt); WeasyPrint measures in CSS px (96 per inch).
SMALLEST_PT = 6.0
PX_PER_PT = 96 / 72


def _figures(composed, root, lang: str) -> tuple[str, list[str]]:
    """The rulebook's setup diagram and worked example laid out alone, with the book's head (its CSS)
    (``composed``: the session's books, composed from the copy of the shipped project at ``root``)."""
    import weasyprint

    composed = composed[("rulebook", lang)].html
    start = composed.index('<figure class="setup-table">')
    figure = composed[start:composed.index("</figure>", start) + len("</figure>")]
    start = composed.index('<section class="play-turn">')  # the example's first turn, its cards pictured
    turn = composed[start:composed.index("</section>", start) + len("</section>")]
    html = composed[:composed.index("<body")] + f'<body><main>{figure}<div class="worked-example">{turn}</div></main></body></html>'

    return html, weasyprint.HTML(string=html, base_url=root.resolve().as_uri() + "/").render().pages


def _boxes(pages):
    """Every box of the layout with its own classes and its ancestors', in document order."""
    todo = [(p._page_box, ()) for p in reversed(pages)]
    while todo:
        box, classes = todo.pop()
        element = getattr(box, "element", None)
        own = tuple((element.get("class") or "").split()) if element is not None and hasattr(element, "get") else ()
        yield box, own, classes
        todo += [(child, own + classes) for child in reversed(getattr(box, "children", None) or [])]


def _text(block) -> str:
    """A block's text, its lines joined by a space (a line break takes the space it breaks at)."""
    def inside(box):
        return getattr(box, "text", "") + "".join(inside(c) for c in getattr(box, "children", None) or [])

    return " ".join(inside(line).strip() for line in block.children)


def _view(lang: str) -> dict:
    book = Book(project_of(REPO), "rulebook", lang)
    with without_pictures():
        return table.setup_view(book, book.example_game())


@pytest.mark.parametrize("lang", LANGS)
def test_the_face_up_cards_are_faces_with_name_cost_and_type(lang):
    view = _view(lang)
    book = Book(project_of(REPO), "rulebook", lang)
    game = example.read(book.project.db, table.record_path(book.project).read_text(encoding="utf-8"))
    faces = [p for p in view["placed"] if p.kind == "face"]
    cards = book.project.db.by_id()
    assert [p.text for p in faces] == [book.L.name(cards[c]) for c in game.row + game.rites]
    for p, card_id in zip(faces, game.row + game.rites):
        card = cards[card_id]
        assert p.face.kind == book.L.type_word(card.type) and p.face.cost == ("" if card.cost is None else str(card.cost))
        assert p.face.soft.replace("\u00ad", "") == p.text and re.fullmatch(r"#[0-9a-fA-F]{6}", p.face.color)
        assert p.w >= 17.0  # as wide as before: the table keeps its proportions
    # the piles stay card backs: nothing to read on them
    assert all(p.uri.startswith("data:image/") or not p.uri for p in view["placed"] if p.kind == "card")


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_the_setup_diagram_and_the_example_s_names_prints_at_6_pt_or_more(composed, shipped_root, lang):
    _, pages = _figures(composed, shipped_root, lang)
    sizes, faces = [], []
    for box, own, classes in _boxes(pages):
        text = getattr(box, "text", None)
        if text and text.strip() and ("setup-table" in classes or "play-name" in classes):
            sizes.append((round(box.style["font_size"] / PX_PER_PT, 2), text))
        if "table-face" in own:
            faces.append(box)
    assert sizes and min(sizes)[0] >= SMALLEST_PT - 0.01, sorted(sizes)[:5]
    view = _view(lang)
    expected = [p.text for p in view["placed"] if p.kind == "face"]
    parts = [{c: b for b in face.children for c in (b.element.get("class") or "").split()} for face in faces]
    # each card's name is text now (it was pixels of a picture), whole, never cut by a hyphen
    assert [re.sub(r"\s+", " ", _text(p["face-name"])).strip() for p in parts] == expected
    for i, (face, part) in enumerate(zip(faces, parts)):
        name = part["face-name"]
        bottom = name.position_y + name.height
        # above its card's cost and type, and above the next card laid over it (the Rites overlap)
        limit = min([part["face-foot"].position_y] + [f.position_y for f in faces[i + 1:]
                                                       if abs(f.position_x - face.position_x) < 0.1
                                                       and f.position_y > face.position_y])
        assert bottom <= limit + 0.1, (lang, expected[i], bottom, limit)
        assert name.width <= face.width and all(len(line.children) for line in name.children)
