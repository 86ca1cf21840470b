"""The books' rooms are read from book.css in any absolute unit; a unit with no size gives no limit, never a wrong one.

``forge.i18n.css`` converts mm, cm, Q, in, pt, pc, px and percentages; a font-relative or
viewport unit (em, rem, ex, ch, vw…), a function or a keyword is ``Unreadable``, and the place
it sizes is left without a limit while the other places keep theirs. A stylesheet changed by a
pull request never makes parity fail with a traceback.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forge.i18n import booklabels, css, inventory, limits
from forge.i18n.parity import parity
from ..conftest import REPO
from .test_parity import card

CSS = "templates/books/book.css"
STRINGS = "templates/books/strings.yaml"
MM = 72 / 25.4


def replace(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def room(root: Path) -> dict[str, float]:
    """Each bounded book label's room, in points."""
    return {pid: lim.width for pid, lim in booklabels.label_limits(root, inventory.build(root)).items()}


@pytest.mark.parametrize(("value", "points"), [
    ("18mm", 18 * MM), ("1.8cm", 18 * MM), ("72q", 18 * MM), ("72Q", 18 * MM), ("1in", 72.0), ("2IN", 144.0),
    ("51pt", 51.0), ("6pc", 72.0), ("96px", 72.0), ("10px", 7.5), ("-3mm", -3 * MM), ("0", 0.0), ("15%", 15.0),
])
def test_each_absolute_unit_in_points(value, points):
    assert css.lengths(value, base=100.0) == [pytest.approx(points)]


def test_a_box_shorthand_mixes_units():
    assert css.box("0 1.5mm 0.8mm 2px", 0.0) == (pytest.approx(1.5), pytest.approx(1.5 * MM))
    assert css.box("1cm 4pt", 0.0) == (pytest.approx(4.0), pytest.approx(4.0))


@pytest.mark.parametrize("value", ["1.2em", "2rem", "3ex", "4ch", "1cap", "1lh", "10vw", "5vh", "2vmin", "1vmax",
                                   "12", "auto", "calc(1mm + 2pt)", "var(--gap)", "", "1e400pt", "1mm 2mm 3mm 4mm 5mm",
                                   "12parsecs"])
def test_a_length_without_an_absolute_size_is_unreadable(value):
    with pytest.raises(css.Unreadable):
        css.box(value, 100.0)


@pytest.mark.parametrize(("width", "mm"), [
    ("18mm", 18.0), ("2cm", 20.0), ("80q", 20.0), ("1in", 25.4), ("6pc", 25.4), ("96px", 25.4), ("60pt", 60 / MM),
])
def test_the_kind_column_s_room_in_each_unit(shipped, width, mm):
    """td.kind's width in another unit: the kind header's room is that width (its padding cancels out)."""
    replace(shipped, CSS, "td.kind { width: 15%;", f"td.kind {{ width: {width};")
    assert room(shipped)["strings/kind"] == pytest.approx(mm * MM)


def test_header_padding_in_px_is_converted_not_read_as_points(shipped):
    """thead th's padding in px: 8px is 6 pt; read as points it would take 2 pt more from every header."""
    shipped_room = room(shipped)["strings/kind"]
    replace(shipped, CSS, "padding: 0 1.5mm 0.8mm; font-size: 8.5pt; }", "padding: 0 8px 0.8mm; font-size: 8.5pt; }")
    # the body cell keeps its 1.5 mm padding each side; the header's is now 6 pt each side
    assert room(shipped)["strings/kind"] == pytest.approx(shipped_room + 2 * 1.5 * MM - 2 * 6.0)


@pytest.mark.parametrize("width", ["4em", "3rem", "10ex", "12ch", "20vw", "calc(15% + 1mm)", "auto", "15"])
def test_a_font_relative_width_gives_its_place_no_limit_and_no_finding(shipped, width):
    replace(shipped, CSS, "td.kind { width: 15%;", f"td.kind {{ width: {width};")
    rooms = room(shipped)
    assert "strings/kind" not in rooms  # no limit rather than a wrong one
    assert rooms["strings/trap"] == pytest.approx(36 * MM)  # the other places keep theirs
    replace(shipped, STRINGS, "  kind: Type\n", "  kind: Type de déclenchement des pièges posés\n")
    inv = inventory.build(shipped)
    assert booklabels.check(inv, booklabels.placed(shipped, inv)) == []  # parity's label-length, on its own


def test_a_font_size_in_em_leaves_only_the_headers_without_limit(shipped):
    replace(shipped, CSS, "padding: 0 1.5mm 0.8mm; font-size: 8.5pt; }", "padding: 0 1.5mm 0.8mm; font-size: 0.95em; }")
    rooms = room(shipped)
    assert not {"strings/kind", "strings/trap", "strings/faction", "strings/term"} & set(rooms)
    assert {"strings/setup.exile", "strings/quick.title", "strings/anatomy.demise.label"} <= set(rooms)


def test_page_margins_in_cm_give_the_same_column_as_in_mm(shipped):
    before = limits._book_layout(shipped)
    replace(shipped, CSS, "margin: 16mm 13mm 17mm 15mm;", "margin: 1.6cm 1.3cm 1.7cm 1.5cm;")
    column, sizes = limits._book_layout(shipped)
    assert column == pytest.approx(before[0]) and column == pytest.approx((148 - 28) * MM)
    assert sizes == before[1] == {2: 15.0, 3: 11.5}


def test_page_margins_in_em_give_no_column_and_no_book_limit(shipped):
    replace(shipped, CSS, "margin: 16mm 13mm 17mm 15mm;", "margin: 2em;")
    assert limits._book_layout(shipped) == (None, {})
    assert room(shipped) == {}
    assert not any(pid.startswith("books/") for pid in limits.compute(shipped, inventory.build(shipped)))


def test_a_heading_size_in_px_is_converted(shipped):
    replace(shipped, CSS, "h3 { font-size: 11.5pt;", "h3 { font-size: 20px;")
    assert limits._book_layout(shipped)[1] == {2: 15.0, 3: 15.0}


@pytest.mark.parametrize(("old", "new"), [
    ("td.kind { width: 15%;", "td.kind { width: 1e400mm;"),
    ("td.kind { width: 15%;", "td.kind { width: 1.7e308mm; padding: 1.7e308mm;"),
    ("padding: 0 1.5mm 0.8mm; font-size: 8.5pt; }", "padding: 0 1.5mm 0.8mm; font-size: 0pt; }"),
    ("padding: 0 1.5mm 0.8mm; font-size: 8.5pt; }", "padding: 0 1.5mm 0.8mm; font-size: 1e-320pt; }"),
    ("padding: 0 1.5mm 0.8mm; font-size: 8.5pt; }", "padding: 0 1.5mm 0.8mm; font-size: -8pt; }"),
    ("font-size: 6pt; line-height: 1.1;", "font-size: 6pt; line-height: 0;"),
    ("font-size: 6pt; line-height: 1.1;", "font-size: 6pt; line-height: normal;"),
    ("margin: 16mm 13mm 17mm 15mm;", "margin: 100mm 100mm;"),
    ("td.kind { width: 15%;", "td.kind { width: 15%; } } } @media { {{ ;;"),
    ("td.kind { width: 15%;", "td.kind { width: ;"),
])
def test_a_hostile_stylesheet_is_never_a_traceback(project, old, new):
    """The templates with one card: the stylesheet is what is read, not the game (parity a third cheaper)."""
    project("red.yaml", card())
    shutil.copytree(REPO / "templates", project.root / "templates")
    replace(project.root, CSS, old, new)
    report = parity(project.root)  # raises on a traceback
    assert not report.io_error
    for pid, limit in limits.compute(project.root, inventory.build(project.root)).items():
        assert limit.chars >= 0 and 0 <= limit.width < float("inf"), pid
