"""Issue 10 §3, the French reader's corrections that are fixed (each pinned so it does not come back)."""
from __future__ import annotations

import re


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).replace("\u2019", "'").replace("\u202f", " ").replace("\xa0", " ")


def test_aegis_effects_agree_in_gender(composed):
    """« effets » is masculine: « seul le plus fort », never « seule la plus forte »."""
    for kind in ("rulebook", "reference"):
        text = _text(composed[(kind, "fr")].html)
        assert "seule la plus forte" not in text
        assert "ne se cumulent pas : seul le plus fort s'applique" in text


def test_the_anatomy_does_not_say_names_are_the_same_in_every_language(composed):
    """Card names are translated: the anatomy callout says so, in both languages."""
    en, fr = _text(composed[("rulebook", "en")].html), _text(composed[("rulebook", "fr")].html)
    assert "same in every language" not in en and "translated in each language edition" in en
    assert "le même dans toutes les éditions" not in fr and "traduit dans chaque édition" in fr
