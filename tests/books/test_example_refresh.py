"""Issue 24 §2: the worked example survives a card change: played again, deterministically, its French flagged."""
from __future__ import annotations

import pytest

from forge.books import example
from forge.carddb.database import load_database
from forge.i18n import fingerprints, inventory
from forge.pipeline.sync import example_review_ids, regenerate_example

from ..conftest import cpu_seconds
from .conftest import REPO, copy_project

RECORD = REPO / "templates" / "books" / example.EXAMPLE_FILE


def _rename_ash_runner(root):
    """A card the shipped example buys changes its id: the record no longer replays."""
    path = root / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: ash-runner", "id: ember-fox"), encoding="utf-8")
    return load_database(root).db


def test_a_record_that_replays_is_left_as_it_is(tmp_path):
    root = copy_project(tmp_path / "game")
    assert example.refresh(root, load_database(root).db) is None
    assert (root / example.RECORD_PATH).read_bytes() == RECORD.read_bytes()


@pytest.mark.slow
def test_a_record_that_no_longer_replays_is_played_again_the_same_way_each_time(tmp_path):
    root = copy_project(tmp_path / "game")
    db = _rename_ash_runner(root)
    assert not example.replays(db, RECORD.read_bytes())
    started = cpu_seconds()  # not done.seconds, wall time: it took 46 s on a machine shared with other jobs
    done = example.refresh(root, db)
    assert done is not None and cpu_seconds() - started < 30
    text = (root / example.RECORD_PATH).read_text(encoding="utf-8")
    assert text == done.text and example.replays(db, text)
    game = example.read(db, text)
    assert example.shows_everything([e for t in game.turns for e, _ in t.events])
    assert example.refresh(root, db) is None  # it replays now: nothing to do
    (root / example.RECORD_PATH).write_text(RECORD.read_text(encoding="utf-8"), encoding="utf-8")
    assert example.refresh(root, db, write=False).text == text  # deterministic: the same game again
    assert (root / example.RECORD_PATH).read_bytes() == RECORD.read_bytes()  # write=False wrote nothing


def test_a_missing_record_is_written(tmp_path):
    root = copy_project(tmp_path / "game")
    (root / example.RECORD_PATH).unlink()
    db = load_database(root).db
    done = example.refresh(root, db)
    assert done is not None and example.replays(db, (root / example.RECORD_PATH).read_bytes())


def test_no_game_in_the_bounded_search_is_an_error_not_a_search_without_end(tmp_path, monkeypatch):
    root = copy_project(tmp_path / "game")
    db = _rename_ash_runner(root)
    monkeypatch.setattr(example, "search", lambda db, seeds, shown=2: None)
    try:
        example.refresh(root, db)
    except example.ExampleError as exc:
        assert "no game of seeds 0-" in str(exc)
    else:
        raise AssertionError("no ExampleError")
    assert (root / example.RECORD_PATH).read_bytes() == RECORD.read_bytes()


@pytest.mark.slow
def test_build_plays_it_again_and_flags_the_example_french_for_review(tmp_path):
    """As ``forge build`` does it: its writes confined to the output folder, the example and its French
    fingerprints written all the same (the confinement widened for them alone, and only while they are)."""
    from forge.core import atomic

    root = copy_project(tmp_path / "game")
    db = _rename_ash_runner(root)
    atomic.confine(root / "output")
    try:
        report = regenerate_example(root, db)
        try:  # the widening ends with the example: the sources are confined again
            atomic.write_text(root / "templates/books/other.txt", "x")
        except OSError:
            pass
        else:
            raise AssertionError("a write outside the output folder was allowed")
    finally:
        atomic.release()
    assert report.ok and [c.path for c in report.changes] == ["templates/books/example.jsonl", fingerprints.SIDECAR]
    assert example.replays(db, (root / example.RECORD_PATH).read_bytes())
    inv = inventory.build(root)
    wanted = example_review_ids(inv)
    assert wanted and set(report.flagged) == wanted and report.recorded == report.removed == []
    stale = {p.id for p in fingerprints.stale(inv, fingerprints.load(inv.sources))}
    assert stale == wanted
    assert all(p.meta.get("section") == "example-of-play" for p in inv.pairs if p.id in wanted)
