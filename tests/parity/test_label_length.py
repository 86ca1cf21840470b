"""The books' labels in bounded places (table headers, the setup diagram, the anatomy legend, the quick
reference) have a room measured from book.css; parity's ``label-length`` finds a translation past it.

A label's mistake is found in memory (tests/parity/memory.py: strings.yaml is given to parity's
``booklabels`` family); book.css is read from the disk, so the stylesheet's edit runs ``forge parity``.
"""
from __future__ import annotations

import re
from pathlib import Path

import polib

from forge.i18n import booklabels, inventory
from .memory import Game

STRINGS = "templates/books/strings.yaml"


def edit(game: Game, old: str, new: str) -> tuple[int, int]:
    """Replace ``old`` by ``new`` (once) in strings.yaml; the line and column where ``new``'s value starts."""
    assert game.text(STRINGS).count(old) == 1, old
    line = game.edit(STRINGS, old, new)
    key = new.split(":")[0] + ": "
    return line, game.text(STRINGS).split("\n")[line - 1].index(key) + len(key) + 1


def labels(game: Game) -> list[tuple[str, int, int]]:
    return [(f.position.file, f.position.line, f.position.col) for f in game.of("label-length")]


def test_every_bounded_label_of_the_shipped_books_has_its_room():
    inv = inventory.build(Path(__file__).parents[2])
    room = {pid: limit for pid, limit in booklabels.label_limits(inv.sources.root, inv).items()}
    # the traps table's kind column is 15 % of the 120 mm A5 column; the header font is 8.5 pt
    assert round(room["strings/kind"].width * 25.4 / 72, 1) == 18.0 and room["strings/kind"].size == 8.5
    assert round(room["strings/trap"].width * 25.4 / 72, 1) == 36.0  # td.name: 30 %
    assert {"strings/setup.exile", "strings/anatomy.demise.label", "strings/quick.title",
            "strings/faction", "strings/colour", "strings/other_language.en"} <= set(room)
    assert "strings/setup.caption" not in room  # a caption flows: no room is claimed


def test_a_table_header_too_long_for_its_column(tmp_path):
    game = Game(tmp_path)
    assert labels(game) == []  # the shipped books fit
    position = edit(game, "  kind: Type\n", "  kind: Type de déclenchement\n")
    assert labels(game) == [(STRINGS, *position)]


def test_the_room_follows_the_stylesheet(tmp_path):
    """The same header fits once book.css gives its column twice the share: the limit is measured, not typed
    (end to end: the command fails on the header, then passes)."""
    game = Game(tmp_path)
    position = edit(game, "  kind: Type\n", "  kind: Type de déclenchement\n")
    code, found = game.report()
    assert code == 1 and [(f["file"], f["line"], f["column"]) for f in found if f["rule"] == "label-length"] == \
        [(STRINGS, *position)]
    game.edit("templates/books/book.css", "td.kind { width: 15%;", "td.kind { width: 30%;")
    code, found = game.report()
    assert [f for f in found if f["rule"] == "label-length"] == []


def test_a_diagram_slot_label_that_needs_too_many_lines(tmp_path):
    game = Game(tmp_path)
    position = edit(game, "    exile: pile d’exil\n",
                    "    exile: pile d’exil des cartes bannies à jamais hors du jeu, que nul effet ne rappelle, "
                    "ni pendant la partie ni après elle, ni jamais\n")
    assert labels(game) == [(STRINGS, *position)]
    needs, room = (int(n) for n in re.findall(r"(\d+) lines", game.of("label-length")[0].message)[:2])
    assert needs > room >= 4  # a slot of the diagram (17 mm cards) holds at least 4 lines


def test_a_joined_header_is_reported_at_its_widest_part(tmp_path):
    """« Faction · Couleur » spans two columns: a long « Couleur » makes it overflow, reported at colour."""
    game = Game(tmp_path)
    position = edit(game, "  colour: Couleur\n", "  colour: Couleur héraldique de la bannière\n")
    assert labels(game) == [(STRINGS, *position)]


def test_an_english_label_is_held_to_the_same_room(tmp_path):
    game = Game(tmp_path)
    position = edit(game, "    title: Quick reference\n",
                    "    title: Quick reference for the whole table, every turn, every phase\n")
    assert labels(game) == [(STRINGS, *position)]


def test_a_keyword_placeholder_is_measured_as_the_keyword_it_prints():
    locale = {"fr": {"keywords": {"demise": "Trépas"}, "types": {"trap": "Piège"}}}
    assert booklabels.printed("{kw:demise} et {type:trap}", "fr", locale) == "Trépas et Piège"
    assert booklabels.printed("zone : {n:row} cartes", "fr", locale) == "zone : 88 cartes"


def test_wrapping_counts_lines_and_refuses_a_word_wider_than_a_line():
    from forge.render.assets import register_fonts

    register_fonts()
    assert booklabels.lines_needed("pile d’exil", "Lato", 6.0, 36.0) == 1
    assert booklabels.lines_needed("pile d’exil", "Lato", 6.0, 20.0) == 2
    assert booklabels.lines_needed("anticonstitutionnellement", "Lato", 6.0, 20.0) == float("inf")


def test_the_export_carries_the_label_s_room(tmp_path, exports):
    entry = next(e for e in polib.pofile(str(exports.to("po", tmp_path / "fr.po"))) if e.msgctxt == "strings/kind")
    assert "max-length:13" in entry.flags
    assert "the traps table's kind column header" in entry.comment
