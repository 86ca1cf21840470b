"""The four PDFs of the shipped project, read back with pypdf."""
from __future__ import annotations

import re

import pytest

from .conftest import KINDS, LANGS, project_of

HEADINGS = {
    "en": ["Goal", "Components", "Setup", "Reading the text box", "Soul essence", "Allegiance", "The turn",
           "The six steps", "Creatures", "Spells", "Traps", "Destroying and exiling", "General principles",
           "Chains", "Protection against Wound", "Rites", "End of the game", "Example of play", "Expert variant", "Credits"],
    "fr": ["But du jeu", "Matériel", "Mise en place", "Lire la zone de texte", "Essence d'âme", "Allégeance",
           "Le tour de jeu", "Les six étapes", "Créatures", "Magies", "Pièges", "Détruire et exiler",
           "Principes généraux", "Enchaînements", "Protection contre les Blessures", "Rites", "Fin de partie",
           "Exemple de jeu", "Variante experte", "Crédits"],
}
REFERENCE_HEADINGS = {
    "en": ["Keywords", "Traps", "Rites", "Frequently asked questions", "Glossary", "Card list"],
    "fr": ["Mots-clés", "Pièges", "Rites", "Questions fréquentes", "Glossaire", "Liste des cartes"],
}


def plain(text: str) -> str:
    """PDF text for searching: no line breaks or hyphenation, straight apostrophes, plain spaces, no leader dots
    (the contents' "1 Goal. . . . 3" reads "1 Goal 3")."""
    text = re.sub(r"-\n(?=[a-zà-ÿ])", "", text).replace("\u2019", "'").replace("\u00a0", " ")
    return " ".join(re.sub(r"(?: ?\.){3,}", " ", text).split())


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_book_is_an_a5_booklet_with_its_fonts_embedded(rendered, pdf_of, kind, lang):
    outcomes, _ = rendered
    assert outcomes[(kind, lang)].written and not outcomes[(kind, lang)].findings
    pdf = pdf_of(kind, lang)
    assert pdf.problems == []
    assert pdf.pages > 0 and pdf.pages % 4 == 0
    assert pdf.page_size_mm == (148.0, 210.0)
    assert pdf.fonts and all(pdf.fonts.values())
    names = " ".join(pdf.fonts)
    assert "Lato" in names and "IM-FELL-English-SC" in names
    assert pdf.lang.startswith(lang)
    assert pdf.metadata["/Author"] == "Benoît Morin" and "Rift Commanders" in pdf.metadata["/Title"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_has_every_heading_numbered_in_order(pdf_of, lang):
    text = plain(pdf_of("rulebook", lang).text)
    positions = [text.find(f"{number} {heading} ") for number, heading in enumerate(HEADINGS[lang], start=1)]
    assert -1 not in positions, [h for h, p in zip(HEADINGS[lang], positions) if p == -1]
    assert positions == sorted(positions)


@pytest.mark.parametrize("lang", LANGS)
def test_the_reference_has_its_sections(pdf_of, lang):
    text = plain(pdf_of("reference", lang).text)
    assert all(h in text for h in REFERENCE_HEADINGS[lang])


@pytest.mark.parametrize("lang", LANGS)
def test_the_traps_and_rites_of_the_database_are_named_in_the_right_language(shipped_root, pdf_of, lang):
    db = project_of(shipped_root).db
    text = plain(pdf_of("rulebook", lang).text)
    other = "fr" if lang == "en" else "en"
    for card in [c for c in db.cards if c.type in ("trap", "rite")]:
        assert card.name[lang].replace("\u2019", "'") in text, card.id
        if card.name[other] != card.name[lang]:
            assert card.name[other] not in text, card.id


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_template_syntax_is_left(pdf_of, kind, lang):
    text = pdf_of(kind, lang).text
    for mark in ("{{", "}}", "{%", "%}", "[[", "]]", ":::", "**"):
        assert mark not in text


def test_the_reference_lists_every_card(shipped_root, pdf_of):
    db = project_of(shipped_root).db
    text = plain(pdf_of("reference", "fr").text)
    missing = [c.id for c in db.cards if c.name["fr"].replace("\u2019", "'") not in text]
    assert missing == []


@pytest.mark.parametrize("kind", KINDS)
def test_the_french_books_use_french_typography(composed, pdf_of, kind):
    html = re.sub(r"<style>.*?</style>|<[^>]+>", "", composed[(kind, "fr")].html, flags=re.S)
    assert re.findall(r".{12}[ \t\n][:;!?»]", html) == []  # a no-break space before double punctuation
    assert re.findall(r"«[ \t\n].{12}", html) == []
    assert '"' not in html and "'" not in html  # « », ’ (WeasyPrint's text, not the PDF's, is checked:
    assert "«" in pdf_of(kind, "fr").text      # a font maps the space and the no-break space alike)
