"""The SVG path parser that turns game-icons bodies into drawing operations."""
from __future__ import annotations

import math

import pytest

from forge.render.assets import SYMBOL_ICONS, icon_path
from forge.render.svgpath import PathSyntaxError, parse_icon_body, parse_path


def test_absolute_and_relative_lines_and_implicit_lineto():
    ops = parse_path("M10 10l5 0 0 5H0v-5z").ops
    assert ops == (("M", 10, 10), ("L", 15, 10), ("L", 15, 15), ("L", 0, 15), ("L", 0, 10), ("Z",))


def test_smooth_cubic_reflects_the_previous_control_point():
    ops = parse_path("M0 0C0 10 10 10 10 0S20 -10 20 0").ops
    assert ops[2][:3] == ("C", 10, -10)


def test_quadratic_becomes_cubic_with_the_same_end_point():
    ops = parse_path("M0 0Q10 10 20 0").ops
    assert ops[1][0] == "C" and ops[1][5:] == (20, 0)
    assert ops[1][1:3] == pytest.approx((20 / 3, 20 / 3))


def test_arc_ends_where_it_says_and_stays_on_the_circle():
    ops = parse_path("M0 0A10 10 0 0 1 20 0").ops
    assert ops[-1][5:] == pytest.approx((20, 0))
    for op in ops[1:]:
        x, y = op[5], op[6]
        assert math.hypot(x - 10, y) == pytest.approx(10, abs=1e-6)


def test_arc_flags_written_without_separators():
    glued = parse_path("M0 0a10 10 0 0120 0").ops
    spaced = parse_path("M0 0a10 10 0 0 1 20 0").ops
    assert glued == spaced


def test_bad_path_data_names_the_data():
    with pytest.raises(PathSyntaxError, match="10 10"):
        parse_path("10 10 L 5 5")


@pytest.mark.parametrize("name", sorted(set(SYMBOL_ICONS.values())))
def test_every_vendored_symbol_parses_inside_its_view_box(name):
    path, _ = icon_path(name)
    x0, y0, x1, y1 = path.bounds()
    assert -40 <= x0 and -40 <= y0 and x1 <= 552 and y1 <= 552
    assert path.ops[0][0] == "M"


def test_icon_body_with_several_paths_joins_them():
    path, even_odd = parse_icon_body('<path d="M0 0h1v1z"/><path fill-rule="evenodd" d="M2 2h1v1z"/>')
    assert sum(op[0] == "M" for op in path.ops) == 2 and even_odd
