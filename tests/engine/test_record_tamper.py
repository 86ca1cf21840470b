"""Tampered game records are clear errors at their line; records stream in bounded memory.

Each tampered record goes through ``forge replay``: a bad record is exit 1 with
``FILE:LINE: [record] message`` and a hint, a file that cannot be read is exit 2,
and nothing ends in a traceback.
"""
from __future__ import annotations

import json
import os
import tracemalloc
from functools import lru_cache
from pathlib import Path

import pytest

import forge.carddb.database
from forge.engine import Game, HeuristicAgent, run
from forge.engine.record import (MAX_LINE_BYTES, RecordError, Replayer, ReplayMismatch, digest, from_jsonl,
                                 make_record, replay, to_jsonl)
from forge.engine.sample import sample_database
from forge.text.narrate import LogPrinter, render
from forge.sim.simulate import Settings, play_games
from forge.text.cardtext import load_phrasebooks
from ..conftest import invoke

REPO = Path(__file__).resolve().parents[2]
BOOKS = load_phrasebooks(REPO)  # the log's phrases are the locales'


_LOAD = forge.carddb.database.load_database


@lru_cache(maxsize=1)
def _load():
    return _LOAD(REPO)


@pytest.fixture(autouse=True)
def _cached_database(monkeypatch):
    """``forge replay`` loads the shipped cards once for the whole file (the command imports it late)."""
    monkeypatch.setattr(forge.carddb.database, "load_database", lambda root: _load())


@lru_cache(maxsize=1)
def _good_text() -> str:
    state = Game(_load().db).new_state(11, ("red", "black"), log=True)
    run(state, [HeuristicAgent(1), HeuristicAgent(2)])
    return to_jsonl(make_record(state, ("heuristic", "heuristic")))


def good() -> list[dict]:
    """The lines of a real record (without the closing line), a fresh copy to tamper with."""
    return from_jsonl(_good_text())


def index_of(lines: list[dict], pred) -> int:
    return next(i for i, x in enumerate(lines) if pred(x))


def cli(tmp_path: Path, data: str | bytes, *args: str):
    path = tmp_path / "game.jsonl"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    res = invoke(["replay", str(path), "--root", str(REPO), *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res, path


def expect_bad(tmp_path: Path, data: str | bytes, line: int, message: str) -> None:
    """Exit 1, ``FILE:LINE: [record] message`` and a hint on stderr; the same in the JSON report."""
    res, path = cli(tmp_path, data)
    assert res.exit_code == 1, res.output
    first = res.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{line}: [record] "), first
    assert message in first, first
    assert "hint: " in res.stderr and "Traceback" not in res.output and "internal error" not in res.output
    res, _ = cli(tmp_path, data, "--format", "json")
    report = json.loads(res.stdout)
    assert res.exit_code == 1 and report["ok"] is False and report["line"] == line
    assert message in report["problem"]


def edited(change) -> str:
    """The real record after ``change(lines)``, closed by a correct closing line (only content is wrong)."""
    lines = good()
    change(lines)
    return to_jsonl(lines)


def first_event(lines: list[dict], e: str) -> int:
    return index_of(lines, lambda x: x.get("e") == e)


# -- content: each tamper kind, its message, its line --------------------------------------

def _set(kind: str, **fields):
    def change(lines):
        lines[first_event(lines, kind)].update(fields)
    return change


def _drop(kind: str, field: str):
    def change(lines):
        del lines[first_event(lines, kind)][field]
    return change


def _other_cid(lines):
    """The first play names the instance of another card."""
    play = lines[first_event(lines, "play")]
    play["cid"] = next(x["cid"] for x in lines if "cid" in x and x["card"] != play["card"])


def _decision(action):
    def change(lines):
        lines[index_of(lines, lambda x: x["t"] == "decision")]["action"] = action
    return change


CONTENT = {
    "unknown event kind": (_set("draw", e="teleport"), "draw", 'unknown event kind "teleport"'),
    "unknown line type": (_set("draw", t="comment"), "draw", 'unknown line type "comment"'),
    "missing field": (_drop("draw", "n"), "draw", "a `draw` event lacks the field `n`"),
    "extra field": (_set("draw", bonus=1), "draw", 'a `draw` event has an unknown field "bonus"'),
    "wrong type": (_set("draw", n="3"), "draw", '`n` of a `draw` event must be a count from 0 to 1,000,000, not "3"'),
    "bool for an int": (_set("draw", player=True), "draw", "`player` of a `draw` event must be 0 or 1, not true"),
    "count out of range": (_set("draw", n=10**12), "draw", "must be a count from 0 to 1,000,000"),
    "unknown card id": (_set("play", card="no-such-card"), "play",
                        '`card` of a `play` event must be the id of a card of the database, not "no-such-card"'),
    "cid out of range": (_set("play", cid=10**5), "play", "`cid` of a `play` event must be a card instance from 0 to"),
    "cid of another card": (lambda ls: _other_cid(ls), "play", "`cid` of a `play` event must be the instance of"),
    "event the replay does not log": (_set("draw", n=4), "draw", "the replay differs from the record here"),
}


@pytest.mark.parametrize("kind", CONTENT)
def test_a_tampered_event_is_an_error_at_its_line(tmp_path, kind):
    change, e, message = CONTENT[kind]
    line = first_event(good(), e) + 1
    expect_bad(tmp_path, edited(change), line, message)


def test_an_illegal_decision_names_the_legal_ones(tmp_path):
    line = index_of(good(), lambda x: x["t"] == "decision") + 1
    expect_bad(tmp_path, edited(_decision(["play", 999, -1])), line, "the decision `play 999 -1` is not legal here (")
    res, _ = cli(tmp_path, edited(_decision(["play", 999, -1])))
    assert "legal: " in res.stderr and "end" in res.stderr.split("legal: ")[1]


def test_a_decision_that_is_not_an_action_is_an_error(tmp_path):
    line = index_of(good(), lambda x: x["t"] == "decision") + 1
    expect_bad(tmp_path, edited(_decision(["play", "five"])), line, "`action` of a decision must be [kind, a, b]")


def test_a_decision_of_the_wrong_player(tmp_path):
    def change(lines):
        lines[index_of(lines, lambda x: x["t"] == "decision")]["player"] ^= 1
    line = index_of(good(), lambda x: x["t"] == "decision") + 1
    expect_bad(tmp_path, edited(change), line, "but the replay waits for player")


def test_a_removed_event_is_caught_where_the_replay_disagrees(tmp_path):
    lines = good()
    i = first_event(lines, "draw")
    expect_bad(tmp_path, edited(lambda ls: ls.pop(i)), i + 1, "the replay differs from the record here")


def test_a_removed_decision_is_caught(tmp_path):
    lines = good()
    i = index_of(lines, lambda x: x["t"] == "decision")
    # the decision's own events now follow the events before it: the replay waits for a decision instead
    expect_bad(tmp_path, edited(lambda ls: ls.pop(i)), i + 1, "the replay logs no event here (it waits for player")


def test_a_changed_result_is_a_mismatch(tmp_path):
    def change(lines):
        lines[-1]["winner"] = 1 - lines[-1]["winner"]
    expect_bad(tmp_path, edited(change), len(good()), "the replay ends with winner")
    with pytest.raises(ReplayMismatch):
        replay(_load().db, edited(change))


HEADER = {
    "version 1": ({"version": 1}, "a version 1 record"),
    "unknown version": ({"version": 7}, "record version 7 is not one forge reads"),
    "not a record": ({"format": "something-else"}, "not a Rift Commanders game record"),
    "seed of the wrong type": ({"seed": "eleven"}, "the header's `seed` must be an integer"),
    "absurd decision cap": ({"decision_cap": 10**12},
                            "the header's `decision_cap` must be a count from 1 to 1,000,000"),
    "zero turn cap": ({"turn_cap": 0}, "the header's `turn_cap` must be a count from 1"),
    "same faction twice": ({"factions": ["red", "red"]}, "the header's `factions` must be two different factions"),
    "unknown faction": ({"factions": ["red", "green"]}, "the header's `factions` must be two different factions"),
    "missing field": ({"expert": None}, "the header lacks the field `expert`"),
}


@pytest.mark.parametrize("kind", HEADER)
def test_a_bad_header_is_an_error_at_line_1(tmp_path, kind):
    fields, message = HEADER[kind]

    def change(lines):
        lines[0].update(fields)
        for k in [k for k, v in fields.items() if v is None]:
            del lines[0][k]
    expect_bad(tmp_path, edited(change), 1, message)


def test_lines_out_of_place(tmp_path):
    n = len(good())
    expect_bad(tmp_path, edited(lambda ls: ls.insert(3, dict(ls[0]))), 4, "a second header line")
    expect_bad(tmp_path, edited(lambda ls: ls.append(dict(ls[-1]))), n + 1, "a second result line")
    expect_bad(tmp_path, edited(lambda ls: ls.append(dict(ls[-2]))), n + 1, "a line after the result line")
    expect_bad(tmp_path, edited(lambda ls: ls.pop()), n, "the record has no result line before its closing line")
    expect_bad(tmp_path, edited(lambda ls: ls.insert(0, ls.pop(3))), 1, "the first line is not its header")


# -- framing: JSON, truncation, the closing line -------------------------------------------

def raw_lines() -> list[str]:
    return _good_text().splitlines(keepends=True)


def test_a_line_that_is_not_json(tmp_path):
    lines = raw_lines()
    lines[4] = '{"t": "event", "e": "draw", "player": 0,\n'
    expect_bad(tmp_path, "".join(lines), 5, "not a JSON line (column")


@pytest.mark.parametrize("keep", [1, 2, 40, -2, -1])
def test_a_record_truncated_at_a_line_boundary(tmp_path, keep):
    """Cut after the header, early, late, right before the result, right before the closing line."""
    lines = raw_lines()
    kept = lines[:keep]
    n = len(kept)
    expect_bad(tmp_path, "".join(kept), n + 1,
               f"the record stops after line {n} without its closing `end` line: it was cut short")


def test_a_record_cut_in_the_middle_of_a_line(tmp_path):
    text = _good_text()
    cut = text[: text.index("\n", 2000) - 5]
    expect_bad(tmp_path, cut, cut.count("\n") + 1, "the last line stops in the middle")


def test_a_line_appended_after_the_closing_line(tmp_path):
    lines = raw_lines()
    expect_bad(tmp_path, "".join(lines) + lines[3], len(lines) + 1, "there is more after the closing `end` line")


def test_an_altered_line_fails_the_hash(tmp_path):
    """An edit no content check sees (an agent's name) is caught by the closing line's sha256."""
    text = _good_text().replace('"agents":["heuristic","heuristic"]', '"agents":["heuristic","human"]', 1)
    expect_bad(tmp_path, text, len(raw_lines()), "do not match its sha256: the record was altered")


def test_a_wrong_count_in_the_closing_line(tmp_path):
    lines = raw_lines()
    end = json.loads(lines[-1])
    end["lines"] += 1
    lines[-1] = json.dumps(end) + "\n"
    expect_bad(tmp_path, "".join(lines), len(lines),
               f"the closing line counts {len(lines)} lines before it, the file has {len(lines) - 1}")


def test_an_empty_file(tmp_path):
    expect_bad(tmp_path, b"", 1, "the file is empty: not a game record")


def test_binary_garbage(tmp_path):
    expect_bad(tmp_path, bytes(range(128, 256)) * 64, 1, "not UTF-8 text")
    expect_bad(tmp_path, b'"just a string"\n', 1, "a record line is a JSON object")


def test_a_huge_line_is_refused_at_its_line(tmp_path):
    lines = raw_lines()
    lines[2] = '{"t":"event","e":"draw","pad":"' + "x" * MAX_LINE_BYTES + '"}\n'
    expect_bad(tmp_path, "".join(lines), 3, f"the line is longer than {MAX_LINE_BYTES:,} bytes")


def test_json_that_python_cannot_hold(tmp_path):
    lines = raw_lines()
    deep = lines[:]
    deep[2] = "[" * 200_000 + "]" * 200_000 + "\n"
    expect_bad(tmp_path, "".join(deep), 3, "not a JSON line")
    big = lines[:]
    big[2] = '{"t":"event","e":"draw","player":0,"n":' + "9" * 5000 + "}\n"
    expect_bad(tmp_path, "".join(big), 3, "not a JSON line")


# -- files that cannot be read: exit 2 -----------------------------------------------------

def test_files_that_cannot_be_read_are_exit_2(tmp_path, monkeypatch, no_hang):
    missing = invoke(["replay", str(tmp_path / "nope.jsonl"), "--root", str(REPO)])
    assert missing.exit_code == 2 and "[io] no such file" in missing.stderr
    folder = invoke(["replay", str(tmp_path), "--root", str(REPO)])
    assert folder.exit_code == 2 and "[special-file] is a folder" in folder.stderr
    os.mkfifo(tmp_path / "fifo")
    fifo = invoke(["replay", str(tmp_path / "fifo"), "--root", str(REPO)])
    assert fifo.exit_code == 2 and "named pipe" in fifo.stderr
    (tmp_path / "big.jsonl").write_text(_good_text())
    import forge.commands.simulate as cmd
    monkeypatch.setattr(cmd, "MAX_RECORD_BYTES", 1000)
    big = invoke(["replay", str(tmp_path / "big.jsonl"), "--root", str(REPO)])
    assert big.exit_code == 2 and "[too-large]" in big.stderr


def test_a_link_in_the_project_that_leads_out_is_refused(tmp_path):
    proj, outside = tmp_path / "proj", tmp_path / "elsewhere.jsonl"
    proj.mkdir()
    outside.write_text(_good_text())
    (proj / "game.jsonl").symlink_to(outside)
    res = invoke(["replay", str(proj / "game.jsonl"), "--root", str(proj)])
    assert res.exit_code == 2 and "[outside-project]" in res.stderr


# -- what still works ----------------------------------------------------------------------

def test_a_real_record_round_trips(tmp_path):
    text = _good_text()
    assert to_jsonl(from_jsonl(text)) == text
    assert json.loads(text.splitlines()[-1])["t"] == "end"
    res, _ = cli(tmp_path, text)
    assert res.exit_code == 0 and res.stderr == "" and res.stdout.startswith("Setup:")
    res, _ = cli(tmp_path, text, "--format", "json", "--lang", "fr")
    report = json.loads(res.stdout)
    assert report["ok"] is True and report["line"] is None and report["log"][0].startswith("Mise en place")


def test_records_of_simulated_games_replay_to_their_digest():
    db = sample_database()
    for outcome in play_games(db, Settings(games=6, seed=3, record=True)):
        text = to_jsonl(outcome.record)
        state = replay(db, text)
        assert digest(state) == from_jsonl(text)[-1]["digest"]


def test_a_failing_games_record_replays_up_to_its_failure(tmp_path, wound_fails_after_turn_4):
    """The record a failing game leaves is whole; its replay prints the whole log, then the failure's line."""
    db = _load().db
    failed = next(o for o in play_games(db, Settings(games=12, seed=0)) if o.error)
    text = to_jsonl(failed.record)
    lines = from_jsonl(text)
    with pytest.raises(RecordError) as exc:
        replay(db, text)
    err = exc.value
    assert err.rule == "replay" and "RuntimeError: boom" in err.message
    assert lines[err.line - 1]["t"] == "decision" and err.line < len(lines)
    seen = []
    with pytest.raises(RecordError):
        replay(db, text, on_line=seen.append)
    assert seen == lines  # every line was checked and handed on, the ones after the failure too
    res, path = cli(tmp_path, text)
    assert res.exit_code == 1 and res.stderr.startswith(f"{path}:{err.line}: [replay] the replay stops")
    assert res.stdout.splitlines() == render(lines, db, BOOKS)  # the whole log, past the failure


# -- bounded memory ------------------------------------------------------------------------

@pytest.mark.slow
def test_replay_streams_a_long_record_in_bounded_memory(tmp_path):
    """A 44 000-line record (2 MB) replays and renders with a peak far below the file's own size."""
    db = sample_database()
    game = Game(db, turn_cap=8000, decision_cap=1_000_000)
    state = game.new_state(1, ("red", "blue"), log=True)
    passive = ("end", "pass", "no", "stop")
    while not state.terminal:  # nobody attacks: the game runs to its turn cap
        options = state.options
        state.apply(next((o for k in passive for o in options if o.kind == k), options[0]))
    path = tmp_path / "long.jsonl"
    path.write_text(to_jsonl(make_record(state)))
    final = digest(state)
    del state
    size, bound = path.stat().st_size, 1 << 20
    assert size > 2 * bound  # holding the lines, even as raw text, would exceed the bound
    printer = LogPrinter(db, BOOKS, "fr")
    shown = 0
    tracemalloc.start()
    try:
        with path.open("rb") as f:
            rep = Replayer(game)
            for x in rep.lines(f):
                shown += printer(x) is not None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert digest(rep.state) == final and shown > 20_000
    assert peak < bound, f"peak {peak:,} bytes for a {size:,}-byte record"


def test_the_record_of_a_game_that_could_not_be_dealt_says_so():
    """forge.sim.simulate leaves a bare header with the error when even the deal failed."""
    text = to_jsonl([{"t": "header", "seed": 1, "factions": ["red", "blue"], "error": "ValueError: no deck"}])
    with pytest.raises(RecordError) as exc:
        replay(sample_database(), text)
    assert exc.value.line == 1 and exc.value.rule == "replay"
    assert "the game failed before it was dealt" in exc.value.message and "no deck" in exc.value.message


def test_the_writer_refuses_a_second_closing_line():
    lines = good() + [{"t": "end", "lines": 0, "sha256": ""}]
    with pytest.raises(ValueError):
        to_jsonl(lines)


@pytest.mark.slow
def test_any_edit_is_a_record_error_or_changes_nothing():
    """Random edits of a real record (values, fields, lines moved or copied, bytes): only RecordError."""
    import random

    db = sample_database()
    state = Game(db).new_state(5, ("red", "white"), log=True)
    run(state, [HeuristicAgent(1), HeuristicAgent(2)])
    base = make_record(state)
    rng = random.Random(7)
    values = [None, True, 0, 1, -1, 10**7, "", "red", [], {}, ["play", 1, -1], 1.5, "lost-soul", 2**70]
    printer = LogPrinter(db, BOOKS, "fr", decisions=True)
    for _ in range(150):
        lines = json.loads(json.dumps(base))
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        x, r = lines[i], rng.random()
        if r < 0.4:
            x[rng.choice(list(x))] = rng.choice(values)
        elif r < 0.6:
            del x[rng.choice(list(x))]
        elif r < 0.7:
            x[rng.choice(["zz", "e", "t", "n", "card", "cid"])] = rng.choice(values)
        elif r < 0.85:
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, json.loads(json.dumps(lines[j])))
        data = to_jsonl(lines).encode()
        if rng.random() < 0.3:
            data = bytearray(data)
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            replay(db, bytes(data), on_line=printer)
        except RecordError:
            continue
        assert bytes(data) == to_jsonl(base).encode()  # only an edit that changed nothing replays


# -- causes: `resolve` lines --------------------------------------------------------------------

def test_each_line_read_is_logged_before_its_events_with_its_card_section_and_index():
    """The record carries why things happen: a `resolve` line names the card line whose effects follow."""
    lines = good()
    db = _load().db
    by_id = db.by_id()
    resolves = [x for x in lines if x.get("e") == "resolve"]
    assert resolves and all(set(x) == {"t", "e", "player", "card", "section", "index"} for x in resolves)
    for x in resolves:  # each names a real line of its card
        card = by_id[x["card"]]
        if x["section"] == "triggers":
            assert x["index"] < sum(len(t.lines) for t in card.triggers)
        else:
            assert x["index"] < len(getattr(card, x["section"]))
    # a played spell's lines are read after its play, and before the next action
    i = index_of(lines, lambda x: x.get("e") == "play" and by_id[x["card"]].effects and by_id[x["card"]].type != "soul")
    after = next(x for x in lines[i + 1:] if x.get("e") == "resolve")
    assert (after["card"], after["section"]) == (lines[i]["card"], "effects")
    assert {x["section"] for x in resolves} >= {"effects", "activate"}


def test_a_record_written_before_resolve_lines_still_replays_to_its_digest():
    lines = good()
    old = [x for x in lines if x.get("e") != "resolve"]
    assert len(old) < len(lines)
    state = replay(_load().db, to_jsonl(old))
    assert digest(state) == lines[-1]["digest"]


def test_a_record_with_resolve_lines_must_keep_every_one(tmp_path):
    lines = good()
    ids = [i for i, x in enumerate(lines) if x.get("e") == "resolve"]
    later = edited(lambda ls: ls.pop(ids[3]))  # resolves seen before: the one missing is a difference
    expect_bad(tmp_path, later, ids[3] + 1, "the replay differs from the record here")
    first = edited(lambda ls: ls.pop(ids[0]))  # left out first: the next one is out of place
    expect_bad(tmp_path, first, ids[1], "a `resolve` line in a record whose earlier lines leave them out")
