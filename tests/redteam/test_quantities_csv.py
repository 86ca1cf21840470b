"""The print shops' quantities.csv stays one row of six columns per card whatever its name holds.

Before: the name was written between quotes as it was, so `Kin"dle, x` (valid in a card file)
broke the row: a print shop would read an extra column and a wrong quantity.

The attack is one card's name: the small game (tests/redteam/small.py) is rendered.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from .small import small_game


NAME = 'Kin"dle, x'


@pytest.mark.slow
def test_a_name_with_a_quote_and_a_comma_stays_one_field(tmp_path: Path, cli):
    game = small_game(tmp_path / "game")
    path = game / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    assert 'name: {en: "Kindle"' in text
    path.write_text(text.replace('name: {en: "Kindle"', 'name: {en: "Kin\\"dle, x"', 1), encoding="utf-8")
    result = cli(["render", "cards", "--root", str(game), "--lang", "en",
                  "--profile", "gamecrafter", "--workers", "1"])
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO((game / "output" / "gamecrafter" / "en" / "quantities.csv")
                                       .read_text(encoding="utf-8"))))
    assert all(len(row) == 6 for row in rows), [r for r in rows if len(r) != 6]
    kindle = next(row for row in rows if row[1] == "kindle")
    assert kindle[2] == NAME and kindle[5] == "3"
