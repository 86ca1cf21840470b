"""Partial reports merge into exactly the report of one process (issue 12 §4).

Worker processes and Ray tasks each play a batch of games and send back its counts
(forge.sim.simulate.count, Report.merge); the driver merges them in game order. The merged report
must equal, field by field, the one built by adding every game in one process: the counts, the
capped, failed and saved games in game order, and the JSON report.
"""
from __future__ import annotations

from dataclasses import fields

import pytest

from forge.sim import simulate
from forge.engine.sample import sample_database
from forge.sim.simulate import Report, Settings, batches, count, play_games, run, to_json

# A low turn cap makes some games capped and --save-replays keeps every record: the lists merge too.
SETTINGS = Settings(games=30, seed=3, turn_cap=14, record=True)


@pytest.fixture(scope="module")
def db():
    return sample_database()


@pytest.fixture(scope="module")
def whole(db):
    """The report of one process adding each game as it is played."""
    report = Report(SETTINGS)
    for outcome in play_games(db, SETTINGS):
        report.add(outcome)
    assert report.capped and report.decided and len(report.saved) == SETTINGS.games - len(report.errors)
    return report


def _state(report: Report) -> dict:
    return {f.name: getattr(report, f.name) for f in fields(Report) if f.name != "settings"}


@pytest.mark.parametrize("size", [1, 4, 7, 30])
def test_batches_merged_in_order_are_the_whole_report(db, whole, size):
    simulate._init_worker(db, SETTINGS)
    merged = Report(SETTINGS)
    for batch in batches(SETTINGS.games, size):
        merged.merge(count(batch))
    assert _state(merged) == _state(whole)
    assert [o.index for o in merged.capped] == [o.index for o in whole.capped]  # game order kept
    assert to_json(merged, db) == to_json(whole, db)


def test_run_with_two_jobs_is_the_one_job_report(db):
    one = to_json(run(db, Settings(games=24, seed=4, jobs=1)), db)
    two = to_json(run(db, Settings(games=24, seed=4, jobs=2)), db)
    one["settings"].pop("jobs"), two["settings"].pop("jobs")
    assert two == one


def test_batch_sizes_give_every_worker_several_batches():
    assert simulate.batch_size(960, 2) == simulate.BATCH  # a long run: full batches
    assert simulate.batch_size(40, 2) == 10  # a short one: two batches in flight per worker
    assert simulate.batch_size(3, 4) == 1
    assert [len(b) for b in batches(10, 4)] == [4, 4, 2]
