"""The card gallery (issue 13 §3): every card of cards/ in both languages, its printed text, its links,
the same bytes every run, nothing a card's words can inject."""
from __future__ import annotations

import dataclasses
import json
import re

import lxml.html
import pytest

from forge.books.content import KEYWORD_KEYS, card_constructs
from forge.web import gallery as gallery_mod

from .blank import blank_pictures
from .conftest import LANGS, REPO

from ..conftest import invoke


def _tree(text: str):
    return lxml.html.fromstring(text)


def _cards(tree):
    return tree.xpath('//li[contains(concat(" ", @class, " "), " card ")]')


@pytest.mark.slow
def test_every_card_of_the_database_is_on_the_page_once(gallery, shipped_db):
    db, _ = shipped_db
    cards = _cards(_tree(gallery[1]))
    assert [li.get("id") for li in cards] == [f"card-{c.id}" for c in db.cards]
    assert gallery[2].cards == len(db.cards)


@pytest.mark.slow
def test_each_card_shows_its_printed_text_in_each_language(gallery, shipped_db):
    """Name, type line and every printed line as the phrase templates compile them (icons as their labels)."""
    db, books = shipped_db
    by_id = {li.get("id"): li for li in _cards(_tree(gallery[1]))}
    for card in db.cards:
        li = by_id[f"card-{card.id}"]
        for lang in LANGS:
            book = books[lang]
            face = li.xpath(f'./article[@data-l="{lang}"]')[0]
            assert face.get("lang") == lang
            assert face.xpath("string(.//h2)") == card.name[lang]
            assert book.type_line(card) in face.xpath('string(.//p[@class="type"])')
            shown = [" ".join(p.xpath("string(.)").split()) for p in face.xpath('.//div[@class="text"]/p')]
            printed = [" ".join(re.sub(r"\[\[[a-z_]+\]\]", "", line).replace("**", "").split())
                       for line in book.card_text(card)]
            assert shown == printed, card.id
            icons = [s.get("aria-label") for s in face.xpath('.//div[@class="text"]//span[@role="img"]')]
            wanted = re.findall(r"\[\[([a-z_]+)\]\]", "".join(book.card_text(card)))
            assert len(icons) == len(wanted) and all(icons), card.id
            if card.flavor.get(lang):
                assert face.xpath('string(.//p[@class="flavor"])') == card.flavor[lang]
            img = face.xpath(".//img")[0]
            assert img.get("src").startswith("data:image/webp;base64,") and img.get("alt") == card.name[lang]


@pytest.mark.slow
def test_the_filters_offer_what_the_cards_have_and_each_card_says_its_own(gallery, shipped_db):
    db, books = shipped_db
    tree = _tree(gallery[1])
    options = {name: [o.get("value") for o in tree.xpath(f'//select[@id="f-{name}"]/option') if o.get("value")]
               for name in ("faction", "type", "cost", "keyword")}
    neutral = ["neutral"] if any(not c.factions for c in db.cards) else []
    assert options["faction"] == [f.id for f in db.factions] + neutral
    assert set(options["type"]) == {c.type for c in db.cards}
    assert options["cost"] == [str(n) for n in sorted({c.cost for c in db.cards if c.cost is not None})]
    keywords = {k for c in db.cards for k in card_constructs(c) if k in KEYWORD_KEYS}
    assert set(options["keyword"]) == keywords and len(keywords) >= 8
    for option in tree.xpath('//select[@id="f-keyword"]/option[@value!=""]'):
        assert [option.get(f"data-label-{lang}") for lang in LANGS] == [books[l].keyword(option.get("value"))
                                                                           for l in LANGS]
    by_id = {li.get("id"): li for li in _cards(tree)}
    for card in db.cards:
        li = by_id[f"card-{card.id}"]
        assert li.get("data-faction").split() == list(card.factions or ("neutral",))
        assert li.get("data-type") == card.type
        assert li.get("data-cost") == ("" if card.cost is None else str(card.cost))
        assert set(li.get("data-keyword").split()) == {k for k in card_constructs(card) if k in KEYWORD_KEYS}


@pytest.mark.slow
def test_each_card_links_to_its_page_of_the_proof_sheet_and_its_print_image(gallery, shipped_db):
    """Relative links into the output folder, where forge render cards writes them; the proof sheet
    shows the cards in database order, 25 a page."""
    from forge.render.sheets import PROOF_COLS, PROOF_ROWS

    db, _ = shipped_db
    by_id = {li.get("id"): li for li in _cards(_tree(gallery[1]))}
    per_page = PROOF_COLS * PROOF_ROWS
    for index, card in enumerate(db.cards):
        for lang in LANGS:
            links = by_id[f"card-{card.id}"].xpath(f'./article[@data-l="{lang}"]//a/@href')
            assert links == [f"proof/rift-commanders-{lang}-proof.pdf#page={index // per_page + 1}",
                             f"gamecrafter/{lang}/{card.id}.png"]


@pytest.mark.slow
def test_the_page_is_self_contained(gallery):
    """No URL the browser would fetch: pictures are data: URIs, the policy forbids everything else."""
    text = gallery[1]
    tree = _tree(text)
    assert all(src.startswith("data:") for src in tree.xpath("//img/@src"))
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text) and "url(http" not in text
    csp = tree.xpath('//meta[@http-equiv="Content-Security-Policy"]/@content')[0]
    assert "default-src 'none'" in csp and "img-src data:" in csp and "'unsafe-inline'" not in csp.split("script-src")[1]


@pytest.mark.slow
def test_the_same_cards_give_the_same_bytes_from_any_folder(gallery, shipped_db, tmp_path, monkeypatch):
    """Written again elsewhere, from another working folder, with the pictures kept from the first run:
    the same bytes. (The pictures themselves are drawn the same each time: next test.)"""
    import shutil

    from forge.web.gallery import build_gallery

    out, text, _ = gallery
    other = tmp_path / "elsewhere" / "output"
    shutil.copytree(out / ".cache", other / ".cache")
    monkeypatch.chdir(tmp_path)
    db, books = shipped_db
    outcome = build_gallery(REPO, other, LANGS, db, books)
    assert outcome.written and (other / "gallery.html").read_bytes() == text.encode("utf-8")
    again = build_gallery(REPO, other, LANGS, db, books)
    assert again.unchanged and not again.written


def test_a_picture_is_drawn_the_same_every_time(shipped_db):
    from forge.web.pictures import CardPictures

    db, books = shipped_db
    card = next(c for c in db.cards if c.type == "creature")
    first = CardPictures(REPO, db, books).uri(card, "fr")
    assert first == CardPictures(REPO, db, books).uri(card, "fr") and len(first) < 40_000


class _Pictures:
    def uri(self, card, lang):
        return "data:image/webp;base64,AAAA"


def test_a_card_name_or_flavour_with_markup_shows_as_text(shipped_db):
    """A name `<script>…` and a flavour that tries to close attributes are escaped wherever they go
    (the text, the alt text, the search data)."""
    db, books = shipped_db
    evil = '<script>alert("x")</script> & "q" \'a\' </li>'
    card = dataclasses.replace(db.cards[0], name={"en": evil, "fr": evil}, flavor={"en": evil, "fr": evil})
    hostile = dataclasses.replace(db, cards=[card] + db.cards[1:])
    text = gallery_mod.page(hostile, books, LANGS, _Pictures())
    assert "<script>alert" not in text and evil not in text
    tree = _tree(text)
    li = _cards(tree)[0]
    assert li.xpath('string(./article[@data-l="en"]//h2)') == evil
    assert li.xpath('./article[@data-l="fr"]//img/@alt') == [evil]
    assert len(tree.xpath("//script")) == 2  # the page's data and its script, nothing a card added
    data = json.loads(tree.xpath('//script[@id="gallery-data"]')[0].text)
    assert set(data) == {"ui", "langs"}


@pytest.mark.slow
def test_the_command_writes_the_page_and_reports_it(tmp_path, monkeypatch):
    """`forge render gallery --lang fr`: one language, the report in JSON (the pictures blank)."""
    import shutil

    blank_pictures(monkeypatch)
    for part in ("cards", "locales", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    res = invoke(["render", "gallery", "--root", str(tmp_path), "--lang", "fr", "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["ok"] and report["written"] and report["langs"] == ["fr"]
    page = (tmp_path / "output" / "gallery.html").read_text(encoding="utf-8")
    assert report["bytes"] == len(page.encode("utf-8"))
    assert '<html lang="fr" data-lang="fr">' in page and 'data-l="en"' not in page


def test_a_broken_card_file_is_a_finding_and_no_page(tmp_path):
    import shutil

    for part in ("cards", "locales", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    path = tmp_path / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("cost: 2", "cost: -2", 1), encoding="utf-8")
    res = invoke(["render", "gallery", "--root", str(tmp_path)])
    assert res.exit_code == 1
    assert re.search(r"cards/red\.yaml:\d+:\d+: \[schema\] cost: -2", res.output), res.output
    assert "Traceback" not in res.output and not (tmp_path / "output" / "gallery.html").exists()


def test_a_database_validate_refuses_is_not_shown(tmp_path):
    """One gate (issue 9 §2): a duplicate card id loads, but `forge validate` refuses it, so no page."""
    import shutil

    for part in ("cards", "locales", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    path = tmp_path / "cards" / "starter.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: essence-collector", "id: lost-soul", 1),
                    encoding="utf-8")
    res = invoke(["render", "gallery", "--root", str(tmp_path)])
    assert res.exit_code == 1, res.output
    assert re.search(r"cards/starter\.yaml:\d+:\d+: \[duplicate-id\] card id `lost-soul`", res.output), res.output
    assert "forge validate" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "output" / "gallery.html").exists()


@pytest.mark.slow
def test_the_skip_link_and_the_any_choices_speak_each_language(gallery):
    """Issue 24 §5: the skip link switches language with the page, and “Faction : Toutes” agrees in French."""
    tree = _tree(gallery[1])
    skip = tree.xpath('//a[@class="skip"]')[0]
    assert [s.text for s in skip.xpath('./span[@data-l]')] == ["Skip to the cards", "Aller aux cartes"]
    labels = {name: tree.xpath(f'//select[@id="f-{name}"]/option[@value=""]')[0].get("data-label-fr")
              for name in ("faction", "type", "cost", "keyword")}
    assert labels == {"faction": "Toutes", "type": "Tous", "cost": "Tous", "keyword": "Tous"}
