"""A card that passes for another one is an error: names and ids are compared by their UTS #39 skeleton.

Before, a card named "Кindle" (a Cyrillic К) beside the real Kindle passed validate; a name mixing
Latin and Cyrillic letters, or holding an invisible character or a right-to-left mark, passed too.
Each attack adds a second card, a copy of Kindle with its own id and art, to the shipped game.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ..conftest import invoke


def add_card(root: Path, card_id: str = "kindle-two", en: str = "Spark", fr: str = "Flammèche") -> None:
    """A copy of Kindle under ``card_id`` with the names ``en`` and ``fr`` (written as YAML double-quoted escapes)."""
    path = root / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: kindle\n")
    end = text.index("\n  - id:", start + 1)
    block = (text[start:end].replace("id: kindle", f"id: {card_id}", 1)
             .replace('name: {en: "Kindle", fr: "Étincelle"}', f'name: {{en: "{en}", fr: "{fr}"}}', 1)
             .replace("icon: flint-spark", "icon: fireball", 1))
    assert block != text[start:end]
    path.write_text(text[:end] + "\n" + block + text[end:], encoding="utf-8")


def validate(root: Path):
    return invoke(["validate", "--root", str(root), "--quick"])


def test_a_cyrillic_k_beside_the_real_kindle_is_an_error(shipped: Path):
    add_card(shipped, en="\\u041Aindle")  # К: CYRILLIC CAPITAL LETTER KA
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    found = re.search(r"cards/red\.yaml:(\d+):\d+: \[confusable\] .*`Кindle` looks like `Kindle`.*card `kindle` "
                      r"at cards/red\.yaml:\d+:\d+", result.output)
    assert found, result.output
    assert "[mixed-script]" in result.output  # Cyrillic and Latin letters in one name


def test_a_confusable_french_name_is_an_error_too(shipped: Path):
    add_card(shipped, en="Blaze", fr="\\u0395\\u0301tincelle")  # Greek Ε and a combining acute: « Étincelle »
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[confusable\] the card's name \(fr\) `\u0395\u0301tincelle` looks "
                     r"like `Étincelle`, the name \(fr\) of card `kindle`", result.output), result.output


def test_a_greek_omicron_in_an_id_names_the_card_it_imitates(shipped: Path):
    add_card(shipped, card_id="carrion-cr\\u03bfw")
    text = (shipped / "cards" / "red.yaml").read_text(encoding="utf-8")
    (shipped / "cards" / "red.yaml").write_text(text.replace("id: carrion-cr\\u03bfw", "id: \"carrion-cr\\u03bfw\""),
                                                encoding="utf-8")
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[confusable\] the card's id `carrion-crοw` looks like "
                     r"`carrion-crow`, the id of card `carrion-crow` at cards/black\.yaml:\d+:\d+", result.output), \
        result.output


@pytest.mark.parametrize("mark", ["\\u200F", "\\u061C", "\\u200E"])
def test_a_direction_mark_in_a_name_is_a_finding(shipped: Path, mark):
    add_card(shipped, en=f"Spark{mark}")
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[text-character\] .*U\+(200F|061C|200E)", result.output), result.output


def test_a_bidi_override_that_spells_kindle_backwards_is_a_finding(shipped: Path):
    add_card(shipped, en="\\u202Eeldnik")  # shown as "kindle" in a right-to-left run
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(r"\[text-character\] .*U\+202E", result.output), result.output


@pytest.mark.parametrize("hidden, code", [("\\u200B", "200B"), ("\\u00AD", "00AD"), ("\\u2060", "2060"),
                                          ("\\u3164", "3164"), ("\\uFE0F", "FE0F")])
def test_an_invisible_character_in_a_name_is_a_finding(shipped: Path, hidden, code):
    add_card(shipped, en=f"Kin{hidden}dle")
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(rf"cards/red\.yaml:\d+:\d+: \[name-character\] .*U\+{code}", result.output), result.output


def test_a_mixed_script_name_is_a_finding(shipped: Path):
    add_card(shipped, en="Sp\\u0430rk")  # а: CYRILLIC SMALL LETTER A; no card is named Spark
    result = validate(shipped)
    assert result.exit_code == 1, result.output
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[mixed-script\] the card's name \(en\) `Spаrk` mixes scripts "
                     r"\(Latin, Cyrillic\)", result.output), result.output


def test_a_new_card_with_its_own_name_passes(shipped: Path):
    add_card(shipped, en="Spark", fr="Flammèche")
    result = validate(shipped)
    for rule in ("confusable", "mixed-script", "name-character", "text-character"):
        assert f"[{rule}]" not in result.output, result.output
