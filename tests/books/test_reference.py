"""The shipped books are complete: every construct has an entry, every trap, Rite and ruling its prose."""
from __future__ import annotations

import re

import pytest

from forge.books import content

from .conftest import KINDS, LANGS, project_of


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_shipped_books_compose_without_any_finding(composed, kind, lang):
    findings = composed[(kind, lang)].findings
    assert findings == [], "\n".join(f.render() for f in findings)


@pytest.mark.parametrize("lang", LANGS)
def test_every_keyword_and_construct_has_its_entry(composed, lang):
    html = composed[("reference", lang)].html
    for key in content.ALL_KEYS:
        assert f'id="entry-{key}"' in html, key


@pytest.mark.parametrize("lang", LANGS)
def test_every_trap_and_rite_has_clarifications(shipped_root, composed, lang):
    html = composed[("reference", lang)].html
    for card in project_of(shipped_root).db.cards:
        if card.type in ("trap", "rite"):
            section = html[html.find(f'id="{card.type}-{card.id}"'):]
            assert section and "<ul>" in section[:section.find("</section>")], card.id


@pytest.mark.parametrize("lang", LANGS)
def test_the_faq_answers_every_ruling_for_players(shipped_root, composed, lang):
    project = project_of(shipped_root)
    html = composed[("reference", lang)].html
    answered = {int(n) for n in re.findall(r'id="faq-(\d+)"', html)}
    assert answered == set(project.rulings) - {22, 24, 26, 30}


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_pairs_every_keyword_of_both_locales(shipped_root, composed, lang):
    project = project_of(shipped_root)
    html = composed[("reference", lang)].html
    glossary = html[html.find('<table class="glossary">'):]
    glossary = glossary[:glossary.find("</table>")]
    other = "fr" if lang == "en" else "en"
    for key, word in project.books[lang].section("keywords").items():
        pair = f"<td>{word}</td><td lang=\"{other}\">{project.books[other].keyword(key)}</td>"
        assert pair.replace("'", "\u2019") in glossary.replace("\u00a0", " "), key


def test_the_entry_examples_are_real_cards_with_their_printed_text(shipped_root, composed):
    project = project_of(shipped_root)
    html = composed[("reference", "fr")].html
    card = content.example_card(project.db, "poison")
    entry = html[html.find('id="entry-poison"'):]
    entry = entry[:entry.find("</section>")]
    assert card.name["fr"].replace("'", "\u2019") in entry
    assert 'class="line hl"' in entry  # the line showing Poison is highlighted


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_is_made_from_the_termbase(tmp_path, lang):
    """Issue 11 §4: a term added to locales/termbase.yaml is in both glossaries, with its gender kept in the data."""
    from forge.books.compose import compose

    from .conftest import copy_project

    root = copy_project(tmp_path)
    path = root / "locales/termbase.yaml"
    path.write_text(path.read_text(encoding="utf-8")
                    + "  - {id: battlefield, category: zone, en: battlefield, fr: champ de bataille, gender: m}\n",
                    encoding="utf-8")
    html = compose(project_of(root), "reference", lang).html
    glossary = html[html.find('<table class="glossary">'):]
    glossary = glossary[:glossary.find("</table>")]
    this, other = ("battlefield", "champ de bataille") if lang == "en" else ("champ de bataille", "battlefield")
    assert f'<td>{this}</td><td lang="{"fr" if lang == "en" else "en"}">{other}</td>' in glossary.replace("\u00a0", " ")
    assert "<td>pile d’exil</td>" in glossary or "<td>exile pile</td>" in glossary
