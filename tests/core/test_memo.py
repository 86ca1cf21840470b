"""forge.core.memo and what it keeps: YAML parsed once (yamlsrc.load), card pictures drawn once (anatomy)."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from forge.carddb import yamlsrc
from forge.core.memo import Memo

from ..conftest import REPO


def test_the_oldest_used_value_goes_first_past_the_count():
    memo: Memo[str] = Memo(items=2)
    memo.put("a", "A")
    memo.put("b", "B")
    assert memo.get("a") == "A"  # a is now the newest
    memo.put("c", "C")
    assert (memo.get("a"), memo.get("b"), memo.get("c")) == ("A", None, "C")


def test_the_size_limit_drops_the_oldest_and_refuses_a_value_larger_than_it():
    memo: Memo[bytes] = Memo(items=100, size_limit=10, size=len)
    memo.put("a", b"12345")
    memo.put("b", b"12345")
    memo.put("c", b"1")  # 11 bytes: a goes
    assert memo.get("a") is None and memo.get("b") == b"12345" and memo.get("c") == b"1"
    assert memo.put("big", b"x" * 11) == b"x" * 11 and memo.get("big") is None
    memo.put("b", b"1")  # a value replaced counts once
    memo.put("d", b"12345678")
    assert memo.get("b") == b"1" and memo.get("c") == b"1" and len(memo) == 3


def test_threads_share_one_memo_safely():
    memo: Memo[int] = Memo(items=50)

    def work(n: int) -> None:
        for i in range(2000):
            memo.put((n, i % 70), i)
            memo.get((n, (i * 7) % 70))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memo) == 50


def test_a_yaml_text_read_again_is_not_parsed_again_and_each_caller_has_its_own_copy(monkeypatch):
    text = (REPO / "cards/red.yaml").read_text(encoding="utf-8")
    first, where = yamlsrc.load(text)
    parsed = []
    monkeypatch.setattr(yamlsrc, "_parse", lambda t: parsed.append(t))
    second, where_again = yamlsrc.load(text)
    assert parsed == [] and second == first and where_again == where
    second["cards"][0]["id"] = "changed"
    where_again.values.clear()
    third, where_third = yamlsrc.load(text)
    assert third == first and third["cards"][0]["id"] != "changed" and where_third == where


def test_a_yaml_text_that_does_not_parse_is_refused_every_time():
    for _ in range(2):
        with pytest.raises(yamlsrc.YamlError) as refused:
            yamlsrc.load("cards: [unclosed\n")
        assert refused.value.rule == "yaml-syntax"


def test_a_changed_yaml_text_is_parsed_again():
    data, _ = yamlsrc.load("a: 1\n")
    changed, _ = yamlsrc.load("a: 2\n")
    assert (data, changed) == ({"a": 1}, {"a": 2})


def test_a_card_picture_is_drawn_once_and_again_when_its_face_changes(shipped: Path, monkeypatch):
    from forge.books import anatomy
    from forge.carddb.database import load_database
    from forge.text.cardtext import load_phrasebooks

    drawn = []
    real = anatomy._trimmed_jpeg
    monkeypatch.setattr(anatomy, "_trimmed_jpeg", lambda *args, **kw: drawn.append(1) or real(*args, **kw))
    monkeypatch.setattr(anatomy, "_DRAWN", Memo(items=16, size_limit=1 << 24, size=lambda d: len(d[0])))

    def picture():  # a new database each time: the memo is keyed by what the face shows, not by its objects
        db = load_database(shipped).db
        books = load_phrasebooks(shipped)
        card = db.by_id()["kindle"]
        return anatomy.render_card(card, db, books["en"], "en", shipped, 120, books=books)

    image, marks, _ = picture()
    again, marks_again, _ = picture()
    assert len(drawn) == 1 and again == image and marks_again == marks and marks_again[0] is not marks[0]
    cards = shipped / "cards" / "red.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("art: {icon: flint-spark,", "art: {icon: fire-dash,", 1), encoding="utf-8")
    changed, _, _ = picture()
    assert len(drawn) == 2 and changed != image
