"""Findings point at a real file, line and column (issue 9 §2): a locale phrase that is missing or cannot be
filled is reported at its place in the locale file, and a smoke game that fails at the card its log names
last (before, `locales` and `simulate` were places no editor or CI annotation could open)."""
from __future__ import annotations

import pytest

from forge.carddb.database import load_database
from forge.engine import state as engine_state
from forge.sim.simulate import smoke
from forge.text.cardtext import PhraseError, load_phrasebooks


def _line_of(path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def _edit_locale(root, old: str, new: str) -> None:
    path = root / "locales" / "en.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _first_error(root) -> PhraseError:
    db = load_database(root).db
    book = load_phrasebooks(root)["en"]
    for card in db.cards:
        try:
            book.card_text(card)
            book.type_line(card)
        except PhraseError as exc:
            return exc
    raise AssertionError("every card printed")


def test_an_unknown_placeholder_is_reported_on_its_phrase(shipped):
    _edit_locale(shipped, 'threshold: "{n} {faction}: {effect}"', 'threshold: "{secret} {faction}: {effect}"')
    exc = _first_error(shipped)
    assert exc.file == "locales/en.yaml"
    assert exc.line == _line_of(shipped / "locales" / "en.yaml", "threshold:") and exc.col > 1
    assert exc.reason.startswith("unknown placeholder {secret}") and str(exc).startswith("locales/en.yaml: ")


def test_a_missing_label_is_reported_on_its_table(shipped):
    path = shipped / "locales" / "en.yaml"
    _edit_locale(shipped, "creature: Creature, ", "")
    exc = _first_error(shipped)
    assert (exc.file, exc.line) == ("locales/en.yaml", _line_of(path, "types:")) and exc.col == 1
    assert exc.reason == "`types.creature` is missing"


def test_a_missing_verb_phrase_is_reported_on_the_phrases_table(shipped):
    path = shipped / "locales" / "en.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = _line_of(path, "phrases:")
    wound = next(i for i in range(start, len(lines)) if lines[i].lstrip().startswith("wound:"))
    depth = len(lines[wound]) - len(lines[wound].lstrip())
    end = wound + 1
    while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > depth:
        end += 1
    path.write_text("".join(lines[:wound] + lines[end:]), encoding="utf-8")
    exc = _first_error(shipped)
    assert exc.reason == "no phrase for verb `wound`"
    assert (exc.file, exc.line) == ("locales/en.yaml", _line_of(path, "phrases:"))


def test_a_smoke_game_that_fails_points_at_the_card_its_log_names_last(shipped, monkeypatch):
    def exploding(*args, **kwargs):
        raise RuntimeError("poison handler exploded")

    monkeypatch.setitem(engine_state._VERBS, "poison", exploding)
    db = load_database(shipped).db
    findings, summary = smoke(db, games=4, seed=0, jobs=1)
    assert findings and summary["errors"] == len(findings)
    for f in findings:
        assert f.position.file.startswith("cards/") and f.position.line > 0 and f.position.col > 0
        named = f.message.split("the last card the game's log names before the failure is `")[1].split("`")[0]
        card = next(c for c in db.cards if c.id == named)
        assert f.position == card.position
        text = (shipped / f.position.file).read_text(encoding="utf-8").splitlines()
        assert named in text[f.position.line - 1]


@pytest.mark.parametrize("kind", ["rulebook"])
def test_a_book_that_cannot_print_a_card_points_at_the_locale(shipped, kind):
    import shutil

    from forge.books.compose import compose, load_project

    from ..conftest import REPO

    for part in ("docs", ):
        shutil.copytree(REPO / part, shipped / part)
    _edit_locale(shipped, "creature: Creature, ", "")
    load = load_database(shipped)
    result = compose(load_project(shipped, load.db, load_phrasebooks(shipped)), kind, "en")
    locale = [f for f in result.findings if f.position.file == "locales/en.yaml"]
    assert locale and locale[0].position.line == _line_of(shipped / "locales" / "en.yaml", "types:")
    assert not [f for f in result.findings if f.position.file == "locales"]
