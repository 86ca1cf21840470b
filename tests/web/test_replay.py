"""The replay viewer (issue 13 §2): the boards of a record, replayed by the engine, step by step; its log in
the replay log's phrases; a bad record is a finding at its line and column, never a traceback or a page."""
from __future__ import annotations

import hashlib
import json
import re
import shutil

import lxml.html
import pytest
from forge.carddb.database import load_database
from forge.engine.record import from_jsonl, to_jsonl
from forge.text.narrate import render
from forge.text.cardtext import load_phrasebooks
from forge.web import replay as replay_mod
from forge.web.board import cards_of

from .blank import blank_pictures
from .conftest import LANGS, REPO

from ..conftest import invoke


def _boards(steps: list[dict]) -> list[dict]:
    """The page's boards, rebuilt from its changes as replay.js rebuilds them."""
    out: list[dict] = []
    for change in steps:
        out.append({**(out[-1] if out else {}), **change})
    return out


def _data(text: str) -> dict:
    tree = lxml.html.fromstring(text)
    return json.loads(tree.xpath('//script[@id="replay-data"]')[0].text)


def _read(path, lang="en"):
    db = load_database(REPO).db
    with path.open("rb") as stream:
        return replay_mod.read(db, load_phrasebooks(REPO), stream, lang)


def test_each_step_is_the_board_the_game_had_after_that_decision(played):
    """Boards rebuilt from the record by the engine = the boards seen while the agents played it."""
    path, views, state = played
    got = _read(path)
    assert len(got.steps) == state.decisions + 1 == len(views)
    assert _boards(got.steps) == views
    assert got.final == views[-1] and got.failure is None


def test_the_last_step_is_the_final_state_the_record_states(played):
    path, views, state = played
    result = from_jsonl(path.read_bytes())[-1]
    final = _read(path).final
    assert [final["p0"]["h"], final["p1"]["h"]] == result["health"]
    assert final["w"] == result["winner"] is not None and final["t"] == result["turns"]


def test_the_log_is_the_replay_log_in_each_language_each_line_at_its_step(played, shipped_db):
    path, _, _ = played
    db, _ = shipped_db
    lines = from_jsonl(path.read_bytes())
    for lang in LANGS:
        got = _read(path, lang)
        assert [text for _, _, text in got.log] == [t.strip() for t in render(lines, db, load_phrasebooks(REPO), lang, decisions=True)]
        decisions = [step for step, kind, _ in got.log if kind == "decision"]
        assert decisions == list(range(1, len(got.steps)))  # each decision opens the next step
        assert all(a <= b for (a, _, _), (b, _, _) in zip(got.log, got.log[1:]))


def test_the_page_holds_the_steps_the_log_and_only_the_cards_it_shows(viewer_pages, played):
    folder, outcomes = viewer_pages
    _, views, state = played
    for lang in LANGS:
        outcome = outcomes[lang]
        assert outcome.written and outcome.findings == [] and outcome.steps == len(views)
        text = (folder / f"game-{lang}.html").read_text(encoding="utf-8")
        data = _data(text)
        assert _boards(data["steps"]) == views
        shown = set().union(*(cards_of(v) for v in views))
        assert set(data["cards"]) == shown and outcome.cards == len(shown)
        assert all(c["src"].startswith("data:image/webp;base64,") for c in data["cards"].values())
        tree = lxml.html.fromstring(text)
        assert tree.get("lang") == lang
        assert len(tree.xpath('//ol[@id="log"]/li')) == len(_read(played[0], lang).log)
        assert tree.xpath('string(//*[@id="outcome"])').startswith(
            {"en": f"Player {state.winner + 1} wins on turn {state.turn}",
             "fr": f"Joueur {state.winner + 1} gagne au tour {state.turn}"}[lang])
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text)
        assert str(played[0].parent) not in text  # the record's folder on this machine is not told


def test_the_same_record_gives_the_same_page_from_any_folder(viewer_pages, played, tmp_path, monkeypatch):
    folder, _ = viewer_pages
    monkeypatch.chdir(tmp_path)
    again = replay_mod.build_replay(REPO, lambda: played[0].open("rb"), played[0].name, tmp_path / "p.html", "fr")
    assert (tmp_path / "p.html").read_bytes() == (folder / "game-fr.html").read_bytes()
    assert again.sha256 == hashlib.sha256((folder / "game-fr.html").read_bytes()).hexdigest()


@pytest.mark.slow
def test_the_command_writes_the_page_beside_the_replays_and_reports(played, tmp_path, monkeypatch):
    """`forge replay --html` writes the page beside the record, keeps its pictures (blank here) for the next."""
    blank_pictures(monkeypatch)
    for part in ("cards", "locales", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    record = tmp_path / "output" / "replays" / played[0].name
    record.parent.mkdir(parents=True)
    shutil.copy(played[0], record)
    res = invoke(["replay", str(record), "--root", str(tmp_path), "--html", "--lang", "fr",
                                   "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    page = record.parent / f"{record.stem}-fr.html"
    assert report["ok"] and report["written"] and report["path"] == page.as_posix() and page.is_file()
    assert (tmp_path / "output" / ".cache" / "web-cards.json").is_file()  # the pictures, kept for the next page
    res = invoke(["replay", str(record), "--root", str(tmp_path), "--html", "--out",
                                   str(tmp_path / "mine.html")])
    assert res.exit_code == 0 and "unchanged" not in res.output and (tmp_path / "mine.html").is_file()
    res = invoke(["replay", str(record), "--root", str(tmp_path), "--out", "x.html"])
    assert res.exit_code == 2 and "--html" in res.output


# -- bad records -----------------------------------------------------------------------------

def _reclosed(lines: list[dict]) -> str:
    """A record whose lines were changed and closed again (count and hash right): only the content is wrong."""
    return to_jsonl(lines)


def _bad_records(played) -> list[tuple[str, bytes, int, int, str]]:
    """(what, the file's bytes, the line, the column, the rule) of records no page is made from."""
    good = played[0].read_bytes()
    text = good.decode()
    lines = from_jsonl(good)
    seed = [dict(lines[0], seed="7")] + lines[1:]
    bad_card = [dict(x) for x in lines]
    at = next(i for i, x in enumerate(bad_card) if x.get("e") == "play")
    bad_card[at]["card"] = "<script>alert(1)</script>"
    illegal = [dict(x) for x in lines]
    first = next(i for i, x in enumerate(illegal) if x["t"] == "decision")
    illegal[first]["action"] = ["buy", 7, -1]
    seed_line = _reclosed(seed).splitlines()[0]
    card_line = _reclosed(bad_card).splitlines()[at]
    return [
        ("cut short", good[: len(good) // 2], None, None, "record"),
        ("not JSON", b'{"t":"header", oops}\n', 1, len('{"t":"header", ') + 1, "record"),  # at `oops`
        ("an edited seed", _reclosed(seed).encode(), 1, seed_line.index('"seed":') + 1, "record"),
        ("an unknown card", _reclosed(bad_card).encode(), at + 1, card_line.index('"card":') + 1, "record"),
        ("an illegal decision", _reclosed(illegal).encode(), first + 1, 1, "record"),
        ("a line edited after the end", text.replace('"turn":1', '"turn":2', 1).encode(), None, None, "record"),
    ]


@pytest.mark.parametrize("case", range(6))
def test_a_bad_record_is_a_finding_at_its_line_and_column_and_no_page(played, tmp_path, case):
    what, data, line, col, rule = _bad_records(played)[case]
    record = tmp_path / "bad.jsonl"
    record.write_bytes(data)
    out = tmp_path / "bad.html"
    res = invoke(["replay", str(record), "--root", str(REPO), "--html", "--out", str(out)])
    assert res.exit_code == 1, (what, res.output)
    assert "Traceback" not in res.output and not out.exists(), what
    found = re.search(rf"^{re.escape(str(record))}:(\d+):(\d+): \[(\w+)\] ", res.output, re.M)
    assert found, (what, res.output)
    if line is not None:
        assert (int(found.group(1)), int(found.group(2)), found.group(3)) == (line, col, rule), (what, res.output)
    assert "<script>" not in res.output or "alert(1)" in res.output  # quoted as data, not lost


def test_a_record_too_long_for_one_page_is_a_finding(played, monkeypatch, tmp_path):
    monkeypatch.setattr(replay_mod, "MAX_STEPS", 5)
    res = invoke(["replay", str(played[0]), "--root", str(REPO), "--html", "--out",
                                   str(tmp_path / "p.html")])
    assert res.exit_code == 1 and re.search(r":\d+:\d+: \[size\] the record has more than 5 decisions", res.output)
    assert not (tmp_path / "p.html").exists()


def test_a_card_name_with_markup_shows_as_text(played, shipped_db, tmp_path):
    """The board's names go through JSON (no `<` left to close the script) and textContent; the log is escaped."""
    import dataclasses

    db, books = shipped_db
    evil = '</script><script>alert("x")</script> & co'
    shown = {c for v in played[1] for c in cards_of(v)}
    renamed = [dataclasses.replace(c, name={"en": evil, "fr": evil}) if c.id in shown else c for c in db.cards]
    hostile = dataclasses.replace(db, cards=renamed)
    with played[0].open("rb") as stream:
        got = replay_mod.read(hostile, books, stream, "en")

    class Pictures:
        def uri(self, card, lang):
            return "data:image/webp;base64,AAAA"

    text = replay_mod.page(hostile, books, got, "en", Pictures(), "game.jsonl")
    assert evil not in text and "<script>alert" not in text
    tree = lxml.html.fromstring(text)
    assert len(tree.xpath("//script")) == 2
    assert {c["n"] for c in _data(text)["cards"].values()} == {evil}
    assert any(evil in li.text_content() for li in tree.xpath('//ol[@id="log"]/li'))


def test_a_failing_games_record_shows_the_game_up_to_the_failure(shipped_db, tmp_path, wound_fails_after_turn_4):
    """The record forge simulate saves for a game the engine fails in: a page up to the failing decision,
    the failure said at its line (exit 1: it is a finding)."""
    from forge.sim.simulate import Settings, play_games

    db, books = shipped_db
    failed = next(o for o in play_games(db, Settings(games=12, seed=0)) if o.error)
    record = tmp_path / "failed.jsonl"
    record.write_text(to_jsonl(failed.record), encoding="utf-8")
    with record.open("rb") as stream:
        got = replay_mod.read(db, books, stream, "en")
    assert got.failure is not None and got.failure.rule == "replay" and "RuntimeError: boom" in got.failure.message
    assert got.failed_step == len(got.steps) - 1 and got.steps[-1] == {} and got.final["t"] > 4
    out = tmp_path / "failed.html"
    res = invoke(["replay", str(record), "--root", str(REPO), "--html", "--out", str(out)])
    assert res.exit_code == 1 and out.is_file()
    assert re.search(rf"{re.escape(str(record))}:{got.failure.line}:1: \[replay\] the replay stops", res.output)
    data = _data(out.read_text(encoding="utf-8"))
    assert data["failure"]["step"] == got.failed_step and data["failure"]["line"] == got.failure.line


def test_a_game_still_being_played_shows_to_where_it_stands(shipped_db, tmp_path):
    """A playtest's record saved mid-game (forge play writes a result line of the state as it stands):
    its page ends on that state, with no winner and no outcome sentence."""
    from forge.engine import Game, HeuristicAgent
    from forge.engine.observation import Observation
    from forge.engine.record import make_record
    from forge.web.board import view

    db, books = shipped_db
    state = Game(db).new_state(5, ("white", "black"), first=1, log=True)
    agent = HeuristicAgent(3)
    for _ in range(40):
        state.apply(agent.act(Observation(state, state.pending), state.options))
    record = tmp_path / "playtest.jsonl"
    record.write_text(to_jsonl(make_record(state, ("human", "heuristic"))), encoding="utf-8")
    with record.open("rb") as stream:
        got = replay_mod.read(db, books, stream, "fr")
    assert len(got.steps) == 41 and got.final == view(state) and got.final["w"] is None

    class Pictures:
        def uri(self, card, lang):
            return "data:image/webp;base64,AAAA"

    tree = lxml.html.fromstring(replay_mod.page(db, books, got, "fr", Pictures(), record.name))
    assert not tree.xpath('//*[@id="outcome"]') and "(humain)" in tree.xpath('string(//section[@id="p0"]//h2)')  # the seat's agent in French


@pytest.mark.parametrize("lang, cap, expected", [
    ("fr", "turns", "La partie a été arrêtée au tour 61 (limite de tours)."),
    ("fr", "decisions", "La partie a été arrêtée au tour 61 (limite de décisions)."),
    ("en", "turns", "The game was stopped on turn 61 (turns cap)."),
])
def test_a_capped_games_outcome_names_its_cap_in_the_pages_language(shipped_db, lang, cap, expected):
    """The record says which cap stopped a game in the engine's word ("turns"); the page says it in its own
    language through the log's cap words, as the log and the play page do (not « limite de turns »)."""
    from types import SimpleNamespace

    from forge.text.narrate import LogPrinter
    from forge.web.strings import words

    db, books = shipped_db
    printer = LogPrinter(db, books, lang)
    replay = SimpleNamespace(failure=None, result={"capped": cap, "turns": 61})
    assert replay_mod.outcome_text(replay, words(books, lang), {}, printer.reason) == expected
