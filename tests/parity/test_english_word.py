"""One English word left in a French string (« Piochez une card ») is found: rule ``untranslated-word``.

The English-only list is derived from the project's own English (less what French shares, the
termbase's French and the names); on the shipped game it flags nothing, and each realistic slip
below is found at its file, line and column.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.i18n import inventory
from forge.text import termbase
from forge.i18n.checks import englishword, untranslated

RULE = "untranslated-word"


def findings(root: Path) -> list[dict]:
    """What parity reports of the English left in the French: the ``untranslated`` and ``untranslated-word``
    families on the project's inventory (parity runs them so; the command is tested end to end elsewhere)."""
    inv = inventory.build(root)
    tb = termbase.load(inv.sources)
    found = untranslated.check(inv, tb) + englishword.check(inv, tb) + tb.findings + inv.sources.findings
    return [{"file": f.position.file, "line": f.position.line, "column": f.position.col, "rule": f.rule}
            for f in found]


def slip(root: Path, rel: str, old: str, new: str, word: str) -> tuple[str, int, int]:
    """Write ``new`` for ``old`` (once); the file, line and column of ``word`` inside it."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    where = at + new.rindex(word)
    return rel, text.count("\n", 0, where) + 1, where - text.rfind("\n", 0, where)


def test_the_shipped_game_has_no_english_word_left_in_its_french(shipped):
    inv = inventory.build(shipped)
    tb = termbase.load(inv.sources)
    assert englishword.check(inv, tb) == []
    assert sum(p.fr is not None for p in inv.pairs) > 900  # every French string was read


def test_the_vocabulary_is_the_project_s_english_less_what_french_shares():
    inv = inventory.build(Path(__file__).parents[2])
    words = englishword.vocabulary(inv, termbase.load(inv.sources))
    assert {"card", "cards", "hand", "health", "turn", "draw", "the", "your"} <= words
    # the same in both languages (wordfreq), French forms of the termbase, names' words: never
    assert not {"page", "six", "but", "minute", "deck", "poison", "rite", "exile", "warlord", "chapel"} & words


@pytest.mark.parametrize("rel, old, new, word", [
    # the brief's own case, in a sentence of the books' example of play
    ("templates/books/strings.yaml", "{player} joue le piège {card} et pioche une carte.\"\n      trap_window",
     "{player} joue le piège {card} et pioche une card.\"\n      trap_window", "card"),
    # a plural form left in English inside a placeholder
    ("locales/fr.yaml", 'do: "Piochez {n} {n|carte|cartes}."', 'do: "Piochez {n} {n|card|cartes}."', "card"),
    # a card's flavour, book prose, a play page word
    ("cards/black.yaml", "La terre s’ouvre. Elle a faim.", "La terre s’ouvre. Elle a hungry.", "hungry"),
    ("templates/books/rulebook.fr.md", "Choisissez le premier joueur au hasard",
     "Choisissez le premier player au hasard", "player"),
    ("locales/fr.yaml", '"Finir le tour"', '"Finir le turn"', "turn"),
])
def test_a_single_english_word_is_found_at_its_column(shipped, rel, old, new, word):
    where = slip(shipped, rel, old, new, word)
    rows = [(f["file"], f["line"], f["column"]) for f in findings(shipped) if f["rule"] == RULE]
    assert rows == [where]


def test_what_is_the_same_in_french_is_not_flagged(shipped):
    """A cognate, a name, a domain, an English card name quoted whole, a French form of the termbase."""
    rel = "templates/books/rulebook.fr.md"
    slip(shipped, rel, "Choisissez le premier joueur au hasard",
         "Choisissez le premier joueur au hasard (page six, deck, Burning Hand, voir game-icons.net)", "page")
    slip(shipped, rel, "Choisissez un commandant.", "Burning Hand est une carte. Choisissez un commandant.", "Burning")
    assert [f for f in findings(shipped) if f["rule"] == RULE] == []


def test_a_word_the_french_uses_on_its_own_is_french(shipped):
    """« case » is English in the English strings; French strings that use it where the English does not
    show it is a French word too (« la case »): it is not flagged."""
    rel = "templates/books/rulebook.fr.md"
    slip(shipped, rel, "Choisissez le premier joueur au hasard",
         "Choisissez le premier joueur au hasard, case par case", "case")
    slip(shipped, rel, "Choisissez un commandant.", "Choisissez un commandant, une case.", "case")
    assert englishword._french_own(inventory.build(shipped)) >= {"case"}
    assert [f for f in findings(shipped) if f["rule"] == RULE] == []


def test_a_string_left_wholly_english_is_the_untranslated_rule_s_not_both(shipped):
    slip(shipped, "templates/books/strings.yaml", "  example: Exemple\n", "  example: Example\n", "Example")
    rules = [f["rule"] for f in findings(shipped)]
    assert "untranslated" in rules and RULE not in rules


def test_without_the_word_list_the_function_words_still_work(monkeypatch, shipped, tmp_path):
    monkeypatch.setattr(englishword, "DATA", tmp_path)
    englishword.not_french.cache_clear()
    try:
        slip(shipped, "templates/books/rulebook.fr.md", "Choisissez le premier joueur au hasard",
             "Choisissez the premier joueur au hasard", "the")
        inv = inventory.build(shipped)
        found = englishword.check(inv, termbase.load(inv.sources))
        assert [f.rule for f in found] == [RULE]
    finally:
        englishword.not_french.cache_clear()
