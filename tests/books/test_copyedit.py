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


# -- plurals and numbers -------------------------------------------------------------------------

import pytest

from forge.carddb.vocabulary import plural_category

from .conftest import REPO, project_of


def test_plural_rules_are_the_languages():
    """CLDR: English "one" is 1 only; French "one" is 0 and 1 (« 0 carte », « 1 carte », « 2 cartes »)."""
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]


def test_the_engines_log_counts_by_the_languages_rules():
    """The game log said "keeps 0 card": English takes the plural for 0, French the singular."""
    from forge.carddb.database import load_database
    from forge.text.narrate import LogPrinter
    from forge.text.cardtext import load_phrasebooks

    books = load_phrasebooks(REPO)
    db = load_database(REPO).db
    en, fr = (LogPrinter(db, books, lang) for lang in ("en", "fr"))
    assert en.say("keep", player="Player 1", n=0, m=2) == "Player 1 keeps 0 cards and discards 2."
    assert fr.say("keep", player="Joueur 1", n=0, m=2) == "Joueur 1 garde 0 carte et en défausse 2."


def test_a_count_agrees_with_its_noun_in_both_languages():
    from forge.books.compose import Book

    project = project_of(REPO)
    en, fr = Book(project, "reference", "en"), Book(project, "reference", "fr")
    assert en.count(1, "physical") == "1\u00a0copy" and en.count(0, "physical") == "0\u00a0copies"
    assert fr.count(1, "physical") == "1\u00a0exemplaire" and fr.count(0, "card") == "0\u00a0carte"
    assert en.count(4, "physical") == "4\u00a0copies" and fr.count(4, "physical") == "4\u00a0exemplaires"
    assert fr.spell(4, capital=True) == "Quatre" and en.spell(4) == "four" and en.spell(40) == "40"
    en.plural(2, "no-such-noun")
    assert any("no noun `no-such-noun`" in f.message for f in en.findings)


#: A count of things printed raw before a word (the allegiance level, a point on a track, is not a count;
#: "3 cards for the first player, 5 for the second" is the rulebook's own wording).
_RAW_COUNT = re.compile(r"\{\{\s*(?:n\.(?!max_allegiance)\w+|[\w.]*copies|[\w.]*count)\s*\}\}\s*\(?(?!for the second|pour le second)[^\W\d_]")
_RAW_NUMBER = re.compile(r"\{n:(?!max_allegiance|other_factions|cards\})\w+\}\s*\(?(?!for the second|pour le second)[^\W\d_]")


@pytest.mark.parametrize("path", [*(f"templates/books/{name}" for name in ("rulebook.en.md", "rulebook.fr.md",
                                                                             "reference.en.md", "reference.fr.md")),
                                  "forge/books/layout/macros.html.j2"])
def test_no_count_is_printed_next_to_a_typed_noun(path):
    """A number from the cards goes through {count:…}/{plural:…} (count()/plural() in the layout), so
    "1 physical cards" cannot be printed."""
    text = (REPO / path).read_text(encoding="utf-8")
    assert not [m.group(0) for m in (_RAW_COUNT if path.endswith(".j2") else _RAW_NUMBER).finditer(text)]


def test_the_used_by_count_of_one_card_is_singular(composed):
    en, fr = _text(composed[("reference", "en")].html), _text(composed[("reference", "fr")].html)
    assert "(1 copy)" in en and "(1 copies)" not in en
    assert "(1 exemplaire)" in fr and "(1 exemplaires)" not in fr  # issue 24 §5: « (38 exemplaires) »


def test_no_sentence_starts_with_a_digit(composed):
    """« Quatre factions s'affrontent », "Four factions clash": a number that opens a sentence is spelled."""
    en, fr = _text(composed[("rulebook", "en")].html), _text(composed[("rulebook", "fr")].html)
    assert "Four factions clash" in en and "Quatre factions s'affrontent" in fr
    for kind in ("rulebook", "reference"):
        for lang in ("en", "fr"):
            for para in re.findall(r"<p>(.*?)</p>", composed[(kind, lang)].html, re.S):
                text = _text(para).strip()
                assert not re.search(r"(?:^|[.!?] )\d+ [^\W\d]", text), (kind, lang, text[:80])


# -- the rulebook's setup and example ------------------------------------------------------------
def test_the_starter_list_has_one_and(composed):
    """« … 2 × Essence Volatile et les 2 créatures de départ », not « … et 2 × Essence Volatile et les 2 … »."""
    for lang, word in (("en", " and "), ("fr", " et ")):
        text = _text(composed[("rulebook", lang)].html)
        step = re.search(r"(?:Build your starter deck|Formez votre deck de départ).*?\.", text).group(0)
        assert step.count(word) == 1, step


def test_the_allegiance_example_agrees_with_the_cards_type(composed):
    """The example card is a creature: « cette créature ne s'invoque que si », never « elle ne peut être jouée »."""
    fr, en = _text(composed[("rulebook", "fr")].html), _text(composed[("rulebook", "en")].html)
    assert "elle ne peut être jouée" not in fr and "cette créature ne s'invoque que si vous avez" in fr
    assert "it can only be summoned if you have" in en


# -- the reference, in French ---------------------------------------------------------------------
def test_poison_damage_is_not_wounds_and_the_calque_is_gone(composed):
    fr = _text(composed[("reference", "fr")].html)
    assert "Le poison n'est pas des Blessures" not in fr
    assert "Les dégâts de poison ne sont pas des Blessures" in fr
    assert "Une seconde fois son effet" not in fr and "Le jouer une seconde fois dans le même tour" in fr


def test_anointing_of_souls_is_feminine_everywhere(composed):
    """« Onction des Âmes » is « elle » in its clarifications as in the FAQ."""
    html = composed[("reference", "fr")].html
    section = html[html.index('id="trap-anointing-of-souls"'):]
    section = _text(section[:section.index("</section>")])
    assert "Elle protège aussi" in section and "elle ne les empêche pas" in section and "Jouez-la" in section
    assert not re.search(r"(?:^|[.:] |- )Il ", section)


def test_quoted_card_text_is_the_printed_text(composed):
    """The reference quotes triggers and effects as the cards print them (« l'une de vos créatures »)."""
    project = project_of(REPO)
    cards = project.db.by_id()
    for lang in ("en", "fr"):
        book = project.books[lang]
        text = _text(composed[("reference", lang)].html)
        atonement = _text(book.card_text(cards["rite-of-atonement"])[0].replace("**", ""))
        trigger = re.split(r" ?: ", atonement)[0]
        assert text.count(trigger) >= 2, trigger
        grave = _text(book.line_text(cards["call-from-the-grave"].effects[0]).replace("**", "")).rstrip(".")
        assert grave in text
    assert "« Une de vos créatures est détruite »" not in _text(composed[("reference", "fr")].html)


def test_the_no_trigger_trap_kind_has_one_name_the_rulebooks(composed):
    """Ruling 30: the seed rulebook's "No trigger" / « Sans déclencheur », on cards, glossary and books."""
    from tests.engine.rulebook_paragraphs import PARAGRAPHS

    seed = next(p for p in PARAGRAPHS if p.id == "traps-none")
    project = project_of(REPO)
    for lang, quote in (("en", seed.en), ("fr", seed.fr)):
        term = project.books[lang].label("trap_kinds", "none")
        assert quote.startswith(term + " (")
        for kind in ("rulebook", "reference"):
            text = _text(composed[(kind, lang)].html)
            assert "Instantané" not in text and "Instant " not in text
        assert _text(composed[("rulebook", lang)].html).count(term + " (") == 1
        assert term in _text(composed[("reference", lang)].html)


# -- French rules text on the cards --------------------------------------------------------------
def _french_lines():
    project = project_of(REPO)
    book = project.books["fr"]
    keywords = set(book.section("keywords").values())
    return [(c.id, line) for c in project.db.cards for line in book.card_text(c)], keywords


def test_french_rules_lines_have_at_most_one_colon_and_no_capital_after_it():
    lines, keywords = _french_lines()
    for card_id, line in lines:
        assert line.count(":") <= 1, (card_id, line)
        after = re.search(r":\s*(\*\*)?(\w+)", line)
        if after and after.group(2)[0].isupper():
            assert after.group(2) in keywords or (after.group(1) and after.group(2) in " ".join(keywords)), (card_id, line)


def test_english_rules_lines_have_at_most_one_colon_and_no_capital_after_a_comma():
    """As the French (ruling 30's neighbour in the copy-edit): a trap's event, "Immediately" and "After its
    effects" join their effect with a comma, and Rift explains itself in brackets, so no line reads
    "Demise: Immediately: …" or "Rift 1: take…" after another colon."""
    project = project_of(REPO)
    book = project.books["en"]
    keywords = set(book.section("keywords").values())
    lines = [(c.id, line) for c in project.db.cards for line in book.card_text(c)]
    assert [(card_id, line) for card_id, line in lines if line.count(":") > 1] == []
    for card_id, line in lines:
        for after in re.finditer(r",\s*(\*\*)?(\w+)", line):
            assert not after.group(2)[0].isupper() or after.group(2) in " ".join(keywords), (card_id, line)
    joined = "\n".join(line for _, line in lines)
    assert "**Demise**: Immediately, **Wound** 2" in joined and "After its effects, return up to" in joined
    assert "Opponent's turn: when your opponent summons a creature, **Destroy** that creature." in joined


def test_french_exile_is_not_said_twice():
    lines, _ = _french_lines()
    assert not [line for _, line in lines if re.search(r"Exil\*\*\s*:\s*exil", line)]
    assert any("**Exilez**" in line or "**exilez**" in line for _, line in lines)
