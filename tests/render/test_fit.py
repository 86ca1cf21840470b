"""Fitting text: wrapping, language-aware hyphenation and spacing, shrinking, and the overflow check."""
from __future__ import annotations

from pathlib import Path

from forge.carddb.model import Position
from forge.render.face import build_face, measure_face
from reportlab.pdfbase.pdfmetrics import stringWidth

from forge.render.fitcheck import check_text_fit
from forge.render.fit import (Atom, TextStyle, fit_text, hyphen_split, layout_at, paragraph_groups,
                              prepare, wrap)
from forge.render.template import load_template

from .helpers import TEXT, books, mini_db

REPO = Path(__file__).resolve().parents[2]


def style(**over) -> TextStyle:
    base = TextStyle.from_template(load_template(REPO), "spell")
    return TextStyle(**{**base.__dict__, **over})


def words(line) -> str:
    return "".join(p.atom.value if p.atom.kind == "text" else f"[{p.atom.value}]" for p in line.items)


def test_french_keeps_colons_with_the_word_before():
    assert prepare("Tour adverse : quand", "fr") == "Tour adverse\u00a0: quand"
    assert prepare("Tour adverse : quand", "en") == "Tour adverse : quand"


def test_threshold_number_stays_with_its_icon_and_keyword_with_its_number():
    groups = paragraph_groups("3 [[red]]: **Wound** 1", "en", "Lato", "Lato-Bold")
    assert [[a.value for a in g] for g in groups] == [["3", "\u00a0", "red", ":"], ["Wound", "\u00a0", "1"]]


def test_wrapping_never_exceeds_the_width():
    s = style(hyphenate=False)
    layout = layout_at(["Return up to 2 opposing creatures to their owner's hand, then draw 1 card."], "",
                       80, 8, s, "en")
    assert len(layout.lines) > 1
    assert all(line.width <= 80 + 1e-6 for line in layout.lines)


def test_hyphenation_follows_the_language():
    """"destruction" breaks des-truc-tion in French but only destruc-tion in English."""
    s = style()
    word = [Atom("text", "destruction", "Lato")]
    room = stringWidth("destr-", "Lato", 8)  # room for "des-", not for "destruc-"
    assert hyphen_split(word, room, 8, s, "fr")[0][0].value == "des-"
    assert hyphen_split(word, room, 8, s, "en") is None
    assert hyphen_split(word, stringWidth("destruc-", "Lato", 8), 8, s, "en")[0][0].value == "destruc-"


def test_wrap_hyphenates_a_word_that_does_not_fit():
    s = style()
    lines, ok = wrap(paragraph_groups("Détruisez immédiatement", "fr", "Lato", "Lato-Bold"), 62, 8, s, "fr")
    assert ok and lines[0][-1][0].value.endswith("-")


def test_text_shrinks_before_it_overflows():
    s = style()
    short = fit_text(["Draw 1 card."], "", 150, 60, s, "en")
    long = fit_text(["Draw 1 card, then discard 1 card, then draw 1 more card."] * 3, "", 150, 60, s, "en")
    assert short.fits and long.fits
    assert short.size == s.max_size and long.size < s.max_size
    assert long.height <= 60


def test_text_that_cannot_fit_at_the_minimum_is_reported():
    s = style()
    layout = fit_text(["Wound 1 and draw 1 card for each creature you control."] * 12, "", 150, 60, s, "en")
    assert not layout.fits and layout.size == s.min_size


def test_inline_icons_sit_on_wrapped_lines():
    s = style(hyphenate=False)
    layout = layout_at(["Gain [[soul]][[soul]] then **Allegiance** 1 [[red]] and draw 1 card at once"], "",
                       70, 8, s, "en")
    icons = [p for line in layout.lines for p in line.items if p.atom.kind == "icon"]
    assert len(icons) == 3 and len(layout.lines) > 1
    assert all(p.x + p.width <= 70 + 1e-6 for line in layout.lines for p in line.items)


def test_check_text_fit_names_the_card_position_and_the_language():
    db = mini_db()
    text = {k: dict(v) for k, v in TEXT.items()}
    text["tide-turn"] = {"en": TEXT["tide-turn"]["en"],
                         "fr": ["Renvoyez toutes les créatures adverses dans la main de leur propriétaire."] * 14}
    card = db.cards[1]
    db.cards[1] = type(card)(**{**card.__dict__, "position": Position("cards/blue.yaml", 12, 5)})
    findings = check_text_fit(db, books(text), REPO)
    assert [(f.rule, f.position, f.message[:3]) for f in findings] == [
        ("text-overflow", Position("cards/blue.yaml", 12, 5), "fr:")]
    assert "tide-turn" in findings[0].message and "6.5 pt" in findings[0].message


def test_every_card_of_the_mini_game_fits_in_both_languages():
    assert check_text_fit(mini_db(), books(), REPO) == []


def test_a_name_too_long_for_the_title_bar_is_a_problem():
    db = mini_db()
    card = db.cards[0]
    long_name = type(card)(**{**card.__dict__, "name": {"en": "The Exceedingly Long-Winded Ember Whelp of Doom",
                                                        "fr": "Dragonnet"}})
    face = build_face(long_name, db, books()["en"], "en", REPO)
    problems = measure_face(face, load_template(REPO)).problems
    assert len(problems) == 1 and "title bar" in problems[0]
