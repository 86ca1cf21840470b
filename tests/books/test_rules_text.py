"""The rulebook holds the whole rules text, in its order: every paragraph the engine's tests trace."""
from __future__ import annotations

import re

import pytest

from tests.engine import rulebook_paragraphs

#: Paragraphs whose opening words the books generate from the cards instead of quoting them.
GENERATED = {
    "factions": "the number of factions is a count of the database (4, not Four)",
    "text-box-example": "the example is a real card of the database that needs two allegiances",
    "traps-none": "the traps without trigger are listed from the database, joined with “and”",
    "six-steps-4": "French only: « tous les coûts Sacrifice » (the keyword keeps its printed form)",
}


def normalized(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u00a0", " ").replace("⟳", "")
    text = re.sub(r"«\s*|\s*»|[“”]", '"', text)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\( | \)", lambda m: m.group(0).strip(), text).strip()


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_every_rule_paragraph_is_in_the_rulebook_in_order(composed, lang):
    html = composed[("rulebook", lang)].html
    text = normalized(re.sub(r"<style>.*?</style>|<[^>]+>", "", html, flags=re.S))
    text = text[text.find(normalized(rulebook_paragraphs.PARAGRAPHS[0].in_book(lang))):]
    position, missing = 0, []
    for paragraph in rulebook_paragraphs.PARAGRAPHS:
        words = normalized(paragraph.in_book(lang))
        found = text.find(words, position)
        if found == -1:
            missing.append(paragraph.id)
        else:
            position = found + len(words)
    assert [p for p in missing if p not in GENERATED] == []
