"""The print shops' aid labels (Rite slot, track markers, poison counters, soul essence) have the room of
the box they print in, measured from forge.render.aids; a translation past it is a ``length`` finding
at its line of templates/cards/card.yaml, and the translators' files carry the room.

A label's mistake is found in memory (tests/parity/memory.py: card.yaml is given to parity, its boxes
read from the given text too); one runs ``forge parity`` end to end.
"""
from __future__ import annotations

import polib
import pytest

from forge.i18n import inventory, limits, templatelabels
from forge.render import aids
from forge.render.template import load_template

from ..conftest import REPO
from .memory import Game

CARD = "templates/cards/card.yaml"
MM = 72 / 25.4


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


def lengths(game: Game) -> list[tuple[str, int, str]]:
    return [(f.position.file, f.position.line, f.message) for f in game.of("length")]


@pytest.fixture(scope="module")
def shipped_limits():
    return limits.compute(REPO, inventory.build(REPO)), load_template(REPO)


def test_each_aid_label_has_the_room_of_its_box(shipped_limits):
    room, tpl = shipped_limits
    x, y, w, h = aids._content_box(tpl)
    tx, ty, tw, th = aids._token_box(tpl)
    assert room["template/aids.rite"].width == pytest.approx(w) and room["template/aids.rite"].one_line
    assert room["template/aids.rite"].font == tpl.font("title") and room["template/aids.rite"].size == aids.AID_MIN_TEXT
    for key in ("markers", "poison", "essence"):
        assert room[f"template/aids.{key}"].width == pytest.approx(tw) and room[f"template/aids.{key}"].one_line
    assert room["template/aids.cut_note"].font == tpl.font("text") and room["template/aids.cut_note"].one_line
    # the boxes that wrap: the lines they hold at 7 pt, shared by their paragraphs
    note = room["template/aids.markers_note"]
    assert not note.one_line and note.width == pytest.approx(5 * tw)  # 16 mm: 5 lines of 7 pt at 1.18
    steps = {room[f"template/aids.rite_steps.{i}"] for i in range(3)}
    assert len(steps) == 1 and not next(iter(steps)).one_line and "Rite slot" in next(iter(steps)).where
    # left unlimited: the mat's notes (a whole page)
    assert "template/aids.rite_note" not in room and "template/aids.essence_note" not in room


def test_the_rooms_follow_the_card_template(game):
    before = limits.compute(REPO, inventory.build(REPO, game.sources()))
    # 5.5 mm narrower: every box of the template still lies on the card (a narrower card is a template finding)
    game.edit(CARD, "  width: 63.5\n", "  width: 58.0\n")
    after = limits.compute(REPO, inventory.build(REPO, game.sources()))
    for key in ("rite", "markers", "poison", "essence", "cut_note", "markers_note", "rite_steps.0"):
        assert after[f"template/aids.{key}"].width < before[f"template/aids.{key}"].width - 5.5 * MM * 0.9, key


@pytest.mark.parametrize(("old", "new"), [
    ("rite: Emplacement Rite", "rite: Emplacement réservé au Rite de la faction que vous servez"),
    ("markers: Marqueurs de piste", "markers: Marqueurs de piste de vie et d’allégeance de chaque joueur"),
    ("poison: Marqueurs de poison", "poison: Marqueurs de poison à découper soigneusement aux ciseaux"),
    ("essence: Essence d’âme", "essence: Essence d’âme de chaque commandant présent à la table de jeu"),
    ('cut_note: "Découpez le long des traits gris."',
     'cut_note: "Découpez soigneusement le long des traits gris, aux ciseaux."'),
])
def test_a_french_title_or_note_too_long_for_its_line(game, old, new):
    line = game.edit(CARD, old, new)
    found = lengths(game)
    assert [(f, n) for f, n, _ in found] == [(CARD, line)], found
    assert "mm wide at 7 pt" in found[0][2]


def test_an_english_token_title_is_held_to_the_same_room(game):
    """End to end: the command fails, and reports the title's line only."""
    line = game.edit(CARD, "poison: Poison counters", "poison: Poison counters for every commander sitting at the table")
    code, rows = game.report()
    assert code == 1, rows
    assert [(f["file"], f["line"]) for f in rows if f["rule"] == "length"] == [(CARD, line)]


RITE_RULE = "Un Rite n’est jamais perdu, et aucun effet ne peut le viser."


def test_a_rite_step_that_overflows_the_rite_slot_card(game):
    line = game.edit(CARD, RITE_RULE,
                     "Un Rite n’est jamais perdu, et aucun effet ne peut le viser, ni le détruire, ni l’exiler, "
                     "ni le renvoyer dans la main de son propriétaire, ni le faire changer de camp, ni le copier, "
                     "ni l’épuiser, ni l’échanger contre un autre Rite, ni le remettre dans la réserve commune, "
                     "ni même le retourner face cachée : il reste posé ici jusqu’à la fin de la partie.")
    found = lengths(game)
    assert [(f, n) for f, n, _ in found] == [(CARD, line)]
    assert "the Rite slot card's rules" in found[0][2] and "at 7 pt" in found[0][2]


def test_the_fit_check_agrees_with_the_renderer(game):
    """The box parity measures is the one the renderer draws: both say the long French Rite rules do not fit."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from forge.carddb.database import load_database
    from forge.render.assets import register_fonts
    from forge.render.paint import Painter
    from forge.text.cardtext import load_phrasebooks

    line = game.edit(CARD, RITE_RULE, "Un Rite n’est jamais perdu. " * 12)
    register_fonts()
    sources = game.sources()
    tpl = templatelabels.template(REPO, sources)  # the edited text, given: the file is the shipped one
    sets = templatelabels.aid_sets(tpl, load_phrasebooks(REPO), load_database(REPO).db.factions)
    problems = aids.draw_aid(Painter(Canvas(io.BytesIO())), tpl, aids.Aid("rite", sets["fr"]))
    assert problems and "does not fit" in problems[0]
    assert not aids.draw_aid(Painter(Canvas(io.BytesIO())), tpl, aids.Aid("rite", sets["en"]))
    found = templatelabels.check(inventory.build(REPO, sources), tpl, sets)
    assert [(f.position.file, f.position.line, f.rule) for f in found] == [(CARD, line, "length")]


def test_a_markers_note_that_overflows_its_16_mm(game):
    line = game.edit(CARD, "{health}, un marqueur par faction ({start_allegiance} dans la vôtre",
                     "{health} de sa piste de vie, puis pose un marqueur par faction sur sa piste d’allégeance, au "
                     "début de la partie, avant la première pioche, en commençant par le premier joueur et en "
                     "suivant le sens des aiguilles d’une montre, un marqueur par faction ({start_allegiance} dans "
                     "la vôtre")
    found = lengths(game)
    assert [(f, n) for f, n, _ in found] == [(CARD, line)]
    assert "the track markers card's note" in found[0][2]


def test_the_export_carries_each_aid_label_s_room(tmp_path, exports, shipped_limits):
    po = {e.msgctxt: e for e in polib.pofile(str(exports.to("po", tmp_path / "fr.po")))}
    room, _tpl = shipped_limits
    for key in ("rite", "markers", "poison", "essence", "cut_note", "markers_note", "rite_steps.0", "rite_steps.1",
                "rite_steps.2"):
        pid = f"template/aids.{key}"
        assert f"max-length:{room[pid].chars}" in po[pid].flags, pid
        assert room[pid].chars > 0


def test_the_xliff_export_carries_each_aid_label_s_room(tmp_path, exports, shipped_limits):
    from lxml import etree

    out = exports.to("xliff", tmp_path / "fr.xlf")
    ns, slr = {"x": "urn:oasis:names:tc:xliff:document:2.0"}, "urn:oasis:names:tc:xliff:sizerestriction:2.0"
    units = {u.get("name"): u for u in etree.parse(str(out)).iterfind(".//x:unit", ns)}
    room, _tpl = shipped_limits
    for key in ("rite", "markers", "poison", "essence", "cut_note", "markers_note", "rite_steps.1"):
        pid = f"template/aids.{key}"
        assert int(units[pid].get(f"{{{slr}}}sizeRestriction")) == room[pid].chars > 0, pid


def test_a_given_template_that_does_not_parse_leaves_the_boxes_out_and_is_reported(game):
    """The given card.yaml, not the shipped file, is what parity reads: broken, it has no boxes to measure,
    and its fault is a finding of the run, never a traceback."""
    game.replace(CARD, "labels: [unclosed\n")
    assert templatelabels.template(REPO, game.sources()) is None and templatelabels.template(REPO) is not None
    found = game.family("limits", "templatelabels")
    assert [(f.position.file, f.rule) for f in found if f.position.file == CARD] == [(CARD, "yaml-syntax")]
