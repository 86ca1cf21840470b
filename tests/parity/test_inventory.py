"""The string inventory (forge.i18n.inventory): every translated string once, with a stable id and its place."""
from __future__ import annotations

from collections import Counter

from forge.i18n import inventory


def test_every_string_has_one_id_and_points_at_its_text(shipped):
    inv = inventory.build(shipped)
    ids = Counter(p.id for p in inv.pairs)
    assert [i for i, n in ids.items() if n > 1] == []
    kinds = Counter(p.kind for p in inv.pairs)
    assert {"locale", "card-name", "card-flavor", "faction-name", "faction-identity", "label",
            "prose-heading", "prose-paragraph", "prose-item", "prose-meta"} <= set(kinds)
    verbatim = 0
    for pair in inv.pairs:
        assert pair.context
        for entry in (pair.en, pair.fr):
            assert entry is not None, pair.id
            line = entry.doc.text.split("\n")[entry.line - 1]
            if entry.offset is not None:
                verbatim += 1
                assert entry.doc.text[entry.offset:entry.offset + len(entry.text)] == entry.text, pair.id
                assert entry.position().line == entry.line
            else:
                assert line.strip(), pair.id
    assert verbatim > 0.9 * 2 * len(inv.pairs)


def test_ids_do_not_move_when_a_text_changes(shipped):
    before = {p.id: p.fr.line for p in inventory.build(shipped).pairs}
    path = shipped / "templates/books/rulebook.fr.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Chaque tour comporte trois phases",
                                                             "Chaque tour se compose de trois phases"), encoding="utf-8")
    path = shipped / "cards/red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Coureur des Cendres", "Coureur de Cendre"),
                    encoding="utf-8")
    after = {p.id: p.fr.line for p in inventory.build(shipped).pairs}
    assert after == before


def test_a_card_string_carries_its_card_and_where_it_prints(shipped):
    pair = next(p for p in inventory.build(shipped).pairs if p.id == "cards/ash-runner/name")
    assert pair.meta["card"] == "ash-runner" and pair.meta["type"] == "creature"
    assert pair.en.text == "Ash Runner" and pair.fr.text == "Coureur des Cendres"
    assert pair.fr.file == "cards/red.yaml" and "name" in pair.context
