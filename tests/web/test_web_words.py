"""The pages' own words come from the project's locales (``web:``): a translator's edit reaches the page, and a
word a locale lacks falls back (French → English → the key) instead of stopping the page."""
from __future__ import annotations

import lxml.html

from forge.text.cardtext import load_phrasebooks
from forge.web.replay import build_replay
from forge.web.strings import KEYS, words

from ..parity.helpers import mistake

FR, EN = "locales/fr.yaml", "locales/en.yaml"


def test_the_words_are_the_locales_and_each_language_is_named_by_its_locale(shipped):
    mistake(shipped, FR, 'gallery_title: "Galerie des cartes"', 'gallery_title: "Les cartes du jeu"')
    books = load_phrasebooks(shipped)
    fr, en = words(books, "fr"), words(books, "en")
    assert (fr["gallery_title"], en["gallery_title"]) == ("Les cartes du jeu", "Card gallery")
    assert (fr["language"], en["language"]) == ("Français", "English")
    assert set(KEYS) <= set(fr) and set(KEYS) <= set(en)  # the shipped locales hold every word the pages use


def test_a_missing_word_reads_in_english_then_as_its_key(shipped):
    mistake(shipped, FR, '  replay_title: "Relecture"\n', "")
    mistake(shipped, EN, '  seed: "seed"\n', "")
    mistake(shipped, FR, '  seed: "graine"\n', "")
    fr = words(load_phrasebooks(shipped), "fr")
    assert (fr["replay_title"], fr["seed"], fr["first"]) == ("Replay", "seed", "Début")


def test_a_project_with_no_web_table_still_has_words(shipped):
    for rel in (EN, FR):
        text = (shipped / rel).read_text(encoding="utf-8")
        (shipped / rel).write_text(text[:text.index("\nweb:\n")] + "\n", encoding="utf-8")
    fr = words(load_phrasebooks(shipped), "fr")
    assert fr["replay_title"] == "replay_title" and fr["language"] == "Français"


def test_the_replay_page_is_written_with_words_its_locales_lack(shipped, played, tmp_path):
    """French without replay_title prints the English; a word neither has prints its key: a page, no finding."""
    mistake(shipped, FR, '  replay_title: "Relecture"\n', "")
    mistake(shipped, EN, '  record: "Record"\n', "")
    mistake(shipped, FR, '  record: "Enregistrement"\n', "")
    mistake(shipped, FR, 'first: "Début"', 'first: "Au début"')
    target = tmp_path / "game-fr.html"
    outcome = build_replay(shipped, lambda: played[0].open("rb"), played[0].name, target, "fr")
    assert outcome.findings == [] and target.exists()
    tree = lxml.html.fromstring(target.read_text(encoding="utf-8"))
    assert tree.xpath("string(//h1)").startswith("Replay — ")
    assert tree.xpath("string(//span[@class='record'])").split()[0] == "record"
    assert tree.xpath("//button[@id='first']/@aria-label") == ["Au début"]
