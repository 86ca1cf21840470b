"""The memo of parsed YAML (``forge.carddb.yamlsrc.load`` keeps the texts it parsed, ``forge.core.memo``) under
attack: a contributor's file cannot make the memo keep a refusal as data, fill the memory with a small text
that expands, or change what another reader of the same text gets."""
from __future__ import annotations

import pytest

from forge.carddb import yamlsrc
from forge.core.memo import Memo

#: Nine aliases of nine: 9 ** 7 values, past yamlsrc.MAX_NODES, from a text of a few hundred bytes.
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, n in zip("abcdef", "bcdefg"))


def fresh_memo(monkeypatch, size_limit: int = 2 * 1024 * 1024) -> Memo:
    """An empty memo for this test (the process's own holds what other tests parsed)."""
    memo = Memo(items=64, size_limit=size_limit, size=lambda kept: len(kept[0]))
    monkeypatch.setattr(yamlsrc, "_parsed", memo)
    return memo


@pytest.fixture
def memo(monkeypatch) -> Memo:
    return fresh_memo(monkeypatch)


def _expanding(n: int, tag: str) -> str:
    """A text of a few KB whose aliases repeat one list ``n`` times (each repeat a list of its own once built)."""
    return "a: &a [" + ", ".join([f"'{tag}{i}'" for i in range(100)]) + "]\n" + "".join(f"k{i}: *a\n" for i in range(n))


def test_an_alias_bomb_is_refused_every_time_and_never_kept(memo):
    for _ in range(2):
        with pytest.raises(yamlsrc.YamlError) as refused:
            yamlsrc.load(BOMB)
        assert refused.value.rule == "yaml-aliases"
    assert len(memo) == 0


def test_a_text_whose_data_outgrows_the_bound_is_not_kept_and_the_memo_stays_within_it(monkeypatch):
    """The memo holds the pickled data, bounded in all (64 texts, 2 MB here 50 KB): a small text that expands past
    it is parsed each time, and many texts push the oldest out instead of growing the memory."""
    memo = fresh_memo(monkeypatch, size_limit=50_000)
    big = _expanding(300, "x")
    assert len(big) < 4_000
    data, _ = yamlsrc.load(big)
    assert len(data) == 301 and len(memo) == 0  # pickled past the bound: not kept
    assert yamlsrc.load(big)[0] == data and len(memo) == 0
    texts = [_expanding(60, f"t{n}-") for n in range(10)]
    for text in texts:
        yamlsrc.load(text)
    kept = [memo.get(text) for text in texts]
    assert kept[0] is None and kept[-1] is not None  # the oldest went first
    assert sum(len(frozen) for frozen, _ in filter(None, kept)) <= 50_000


def test_what_a_reader_changes_never_reaches_the_next_reader_of_the_same_text(memo):
    text = "cards:\n  - id: kindle\n    cost: 1\n"
    for _ in range(2):  # the first reader (the parse) and the second (the memo's copy) each change what they got
        data, where = yamlsrc.load(text)
        data["cards"][0]["cost"] = 99
        data["cards"].append({"id": "smuggled"})
        where.values[("cards", 0, "cost")] = (999, 1)
    again, where_again = yamlsrc.load(text)
    assert len(memo) == 1
    assert again == {"cards": [{"id": "kindle", "cost": 1}]}
    assert where_again.values[("cards", 0, "cost")] == (3, 11)
