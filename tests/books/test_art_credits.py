"""Each card's picture is credited in the Reference, icon by icon with its author, read from cards/ (issue 8, §4).

The card faces no longer carry credit lines; the books do, and nothing is retyped:
a card's icons and their authors come from its `art:` and the vendored icon data.
"""
from __future__ import annotations

import html
import re

import pytest

from forge.carddb.database import load_database
from forge.carddb.model import collector_order
from forge.render.assets import icon_author


def plain(composed, kind, lang) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", composed[(kind, lang)].html)).replace("\u2019", "'")


@pytest.mark.parametrize("lang, by", [("en", "by"), ("fr", "par")])
def test_the_reference_credits_every_card_picture_in_collector_order(composed, shipped_root, lang, by):
    text = plain(composed, "reference", lang)
    db = load_database(shipped_root).db
    order = collector_order(db)
    at = []
    for n, card in enumerate(order, start=1):
        parts = ", ".join(f"{icon} ({by} {icon_author(icon)})" for icon in card.art.icons())
        name = card.name[lang].replace("\u2019", "'")  # as plain() reads the page
        entry = f"{n}/{len(order)}\u00a0{name} — {parts}"
        assert entry in text, entry
        at.append(text.index(entry))
    assert at == sorted(at)
    assert "(by Skoll)" in text or "(par Skoll)" in text  # not only the set's two best-known authors


def test_the_rulebook_points_to_the_art_credits_and_names_no_card_there(composed):
    for lang, words in (("en", "credited, card by card, at the end of the Reference"),
                        ("fr", "carte par carte, à la fin de la Référence")):
        text = plain(composed, "rulebook", lang)
        credits = text[text.rindex("Lorc"):]
        assert words in credits and "(by Lorc)" not in credits and "(par Lorc)" not in credits
