"""The fitter's hyphenation (``forge.render.hyphen``) parses pyphen's patterns only as words need them, to keep a
first ``forge validate`` fast (issue 9, Fast to start); its points must be pyphen's own, word for word, or a text
class or an overflow finding could change."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pyphen
import pytest

from forge.render import hyphen

from ..conftest import REPO

LANGS = {"en": "en_US", "fr": "fr_FR"}


def project_words() -> set[str]:
    """Every word of the shipped cards, locales and templates (what the fitter really hyphenates)."""
    words: set[str] = set()
    for folder in ("cards", "locales", "templates"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".yaml", ".yml", ".md", ".html", ".txt") and path.is_file():
                words |= set(re.findall(r"[^\W\d_]{2,}", path.read_text(encoding="utf-8")))
    return words


def made_up_words(dic: pyphen.HyphDict, count: int, seed: int) -> list[str]:
    """Words glued from the dictionary's own pattern keys, so that long and rare patterns are looked up too."""
    rng = random.Random(seed)
    keys = sorted(dic.patterns)
    out = []
    for _ in range(count):
        word = "".join(rng.choice(keys).strip(".") for _ in range(rng.randint(1, 4)))
        out.append(word.upper() if rng.random() < 0.1 else word)
    return out


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_points_are_pyphens_on_every_project_word_and_thousands_of_made_up_ones(lang):
    code = LANGS[lang]
    eager = pyphen.Pyphen(lang=code, left=3, right=3, cache=False)
    lazy = hyphen.hyphenator(code, left=3, right=3)
    assert isinstance(lazy.hd, hyphen.LazyHyphDict)
    words = sorted(project_words()) + made_up_words(eager.hd, 4000, seed=len(lang))
    assert len(words) > 4500
    differ = [w for w in words if lazy.positions(w) != eager.positions(w)]
    assert differ == []
    # and the splits the fitter makes from them
    assert [list(lazy.iterate(w)) for w in words[:500]] == [list(eager.iterate(w)) for w in words[:500]]


def test_a_key_written_twice_and_an_all_zero_line_follow_pyphen(tmp_path: Path):
    """pyphen keeps the last line with a non-zero value for a key; an all-zero line is no pattern at all."""
    dic = tmp_path / "hyph_xx.dic"
    dic.write_text("UTF-8\n% a comment 1a2\nLEFTHYPHENMIN 2\n1ba\nb2a\nb0a\n.ab1c\n0x0y0\nc1d\n  d3e  \nxy1z8w\n",
                   encoding="utf-8")
    eager = pyphen.HyphDict(dic)
    lazy = hyphen.load(dic)
    assert isinstance(lazy, hyphen.LazyHyphDict)
    for word in ["abcde", "baba", "xyzw", "abcdexyzwba", "cdcd", "ab", "Abcde"]:
        assert lazy.positions(word) == eager.positions(word), word
    assert lazy.patterns.get("ba") == eager.patterns["ba"] == (1, (2,))
    assert lazy.patterns.get("xy") is None and "xy" not in eager.patterns
    assert lazy.maxlen >= eager.maxlen


def test_a_dictionary_with_pyphens_extensions_is_parsed_by_pyphen(tmp_path: Path):
    dic = tmp_path / "hyph_yy.dic"
    dic.write_text("UTF-8\n1ba\nc1c/c=c,1,1\n^^e9t1\n", encoding="utf-8")
    loaded = hyphen.load(dic)
    assert type(loaded) is pyphen.HyphDict
    assert loaded.patterns == pyphen.HyphDict(dic).patterns


def test_non_ascii_digits_are_taken_out_of_keys_as_pyphens_parser_does(tmp_path: Path):
    dic = tmp_path / "hyph_zz.dic"
    dic.write_text("UTF-8\n\u00e91t\na\u0663b\n", encoding="utf-8")  # U+0663 is an Arabic-Indic digit
    eager, lazy = pyphen.HyphDict(dic), hyphen.load(dic)
    assert sorted(lazy.patterns.lines) == sorted(eager.patterns) == ["ab", "ét"]
    assert lazy.positions("été") == eager.positions("été")
