"""A translator's words and a card's name become text on every page forge writes or serves, never markup.

The attack: a locale string or a card name holding ``</title>``, ``<script>``, ``<img onerror>``,
``<meta http-equiv=refresh>`` (which no Content-Security-Policy stops) or ``</script>`` inside the
page's JSON data.

- The play server put the locale's ``play: title`` into the page's ``<title>`` as written: a
  translator's ``</title><meta http-equiv=refresh …>`` sent every player to another site. Fails on
  the code before this change.
- The gallery and the replay viewer (autoescaped templates, JSON with no ``<``) already held: the
  tests below them are kept as regressions, not fixes.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import lxml.html
import pytest

REPO = Path(__file__).resolve().parents[2]
TITLE = '</title><script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://evil.example">'
IMG = '<img src=x onerror=alert(1)><a href="javascript:alert(2)">x</a>'
CLOSE = '</script><script>alert(3)</script><!--'


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def set_word(root: Path, lang: str, table: str, key: str, value: str) -> None:
    """Set ``table.key`` in ``locales/<lang>.yaml`` (the first such key after the table's line)."""
    path = root / "locales" / f"{lang}.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n{table}:\n")
    found = re.compile(rf"^  {key}: .*$", re.M).search(text, start)
    assert found, (table, key)
    path.write_text(text[:found.start()] + f"  {key}: {_quoted(value)}" + text[found.end():], encoding="utf-8")


@pytest.fixture
def game(tmp_path) -> Path:
    root = tmp_path / "game"
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, root / part)
    return root


def test_a_play_title_with_markup_is_text(game, tmp_path):
    from starlette.testclient import TestClient

    from forge.play.project import make_app, read

    for lang in ("en", "fr"):
        set_word(game, lang, "play", "title", TITLE)
    project = read(game)
    assert project.game is not None, project.findings
    with TestClient(make_app(project, tmp_path / "play"), base_url="http://127.0.0.1") as client:
        page = client.get("/?lang=fr").text
    tree = lxml.html.fromstring(page)
    assert tree.xpath("string(//title)") == TITLE
    assert not tree.xpath("//meta[@http-equiv]") and "evil.example" not in "".join(tree.xpath("//@content"))
    assert [s.get("src") for s in tree.xpath("//script")] == ["/static/live.js", "/static/app.js"]


class _Pictures:
    def uri(self, card, lang):
        return "data:image/webp;base64,AAAA"


def test_gallery_words_and_names_with_markup_are_text(game):
    """Regression (held before): web words, a card's name and flavour, in the text, attributes and JSON data."""
    import dataclasses

    from forge.carddb.database import load_database
    from forge.text.cardtext import load_phrasebooks
    from forge.web.gallery import page

    for key, value in (("gallery_title", TITLE), ("gallery_intro", IMG), ("none", CLOSE), ("search_hint", IMG)):
        set_word(game, "en", "web", key, value)
    db, books = load_database(game).db, load_phrasebooks(game)
    card = dataclasses.replace(db.cards[0], name={"en": IMG, "fr": CLOSE}, flavor={"en": TITLE, "fr": IMG})
    text = page(dataclasses.replace(db, cards=[card] + db.cards[1:]), books, ("en", "fr"), _Pictures())
    tree = lxml.html.fromstring(text)
    assert len(tree.xpath("//script")) == 2 and not tree.xpath("//script[@src]")
    assert not tree.xpath("//img[@onerror]") and not tree.xpath("//a[starts-with(@href, 'javascript')]")
    assert not tree.xpath("//meta[@http-equiv='refresh']")
    assert tree.xpath("string(//title)").startswith(TITLE)
    data = json.loads(tree.xpath('//script[@id="gallery-data"]')[0].text)
    assert data["ui"]["en"]["none"] == CLOSE


def test_replay_words_with_markup_are_text(game, tmp_path):
    """Regression (held before): the replay viewer's words, in its text and its JSON data."""
    from forge.carddb.database import load_database
    from forge.engine import Game, HeuristicAgent, run
    from forge.engine.record import make_record, to_jsonl
    from forge.text.cardtext import load_phrasebooks
    from forge.web import replay

    set_word(game, "en", "web", "replay_title", TITLE)
    set_word(game, "en", "web", "step", CLOSE + " {n} {total}")
    db, books = load_database(game).db, load_phrasebooks(game)
    state = Game(db).new_state(5, ("red", "blue"), first=0, log=True)
    run(state, (HeuristicAgent(1), HeuristicAgent(2)))
    path = tmp_path / "game.jsonl"
    path.write_text(to_jsonl(make_record(state, ("heuristic", "heuristic"))), encoding="utf-8")
    with path.open("rb") as stream:
        got = replay.read(db, books, stream, "en")
    text = replay.page(db, books, got, "en", _Pictures(), "game.jsonl")
    tree = lxml.html.fromstring(text)
    assert len(tree.xpath("//script")) == 2 and not tree.xpath("//meta[@http-equiv='refresh']")
    assert tree.xpath("string(//h1)").startswith(TITLE)
    data = json.loads(tree.xpath('//script[@id="replay-data"]')[0].text)
    assert data["ui"]["step"].startswith(CLOSE)
