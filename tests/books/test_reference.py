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
    glossary = re.sub(r'<span class="nw">([^<]*)</span>', r"\1", glossary)  # a cell's last two words, bound
    assert f'<td>{this}</td><td lang="{"fr" if lang == "en" else "en"}">{other}</td>' in glossary.replace("\u00a0", " ")
    assert "<td>pile d’exil</td>" in glossary or "<td>exile pile</td>" in glossary


# -- clarifications are marked, the FAQ numbered and tied to its rulings (issue 24 §1) ------------------
@pytest.mark.parametrize("lang, marked", [
    ("en", ["lasts until the end of your next turn", "does not react to its own summon", "or between two of their actions"]),
    ("fr", ["dure jusqu'à la fin de votre prochain tour", "ne réagit ni à sa propre invocation",
            "ou entre deux de ses actions"])])
def test_every_clarification_is_marked_with_an_existing_ruling(shipped_root, composed, lang, marked):
    """A sentence the seed rules do not state carries a visible mark naming its ruling of docs/rulings.md."""
    project = project_of(shipped_root)
    html = composed[("reference", lang)].html.replace("\u2019", "'")
    marks = re.findall(r'<span class="clarification">[^<]*?(?:<span class="nw">[^<]*?)?(\d+)</span>', html)
    assert len(marks) >= 10 and all(int(n) in project.rulings for n in marks), marks
    for words in marked:
        after = html[html.index(words):]
        paragraph = after[:min(after.index("</p>"), after.index("</li>") if "</li>" in after else len(after))]
        assert '<span class="clarification">' in paragraph, words  # marked in its own paragraph


@pytest.mark.parametrize("lang", LANGS)
def test_the_faq_is_numbered_and_each_answer_names_its_ruling(composed, lang):
    html = composed[("reference", lang)].html
    items = re.findall(r'<div class="faq-item" id="faq-(\d+)">\s*<p class="question"><span class="q">Q(\d+)</span>'
                       r'.*?<span class="ruling-ref">\(\D*(\d+)\)</span>', html, re.S)
    assert items and [int(q) for _, q, _ in items] == list(range(1, len(items) + 1))
    assert all(n == ruling for n, _, ruling in items)
    assert len(items) == html.count('class="faq-item"')


def test_a_clarification_naming_no_ruling_is_a_finding(tmp_path):
    from forge.books.compose import compose

    from .conftest import copy_project

    root = copy_project(tmp_path / "game")
    path = root / "templates/books/reference.en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("{ruling:28}", "{ruling:99}"), encoding="utf-8")
    found = [f for f in compose(project_of(root), "reference", "en").findings if "{ruling:99}" in f.message]
    assert found and found[0].position.file == "templates/books/reference.en.md" and found[0].position.line > 0
