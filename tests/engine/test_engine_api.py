"""The engine as a library: protocol, purity, clone, records and replay, simulate, proofs, invariants."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from forge.engine import Action, Game, HeuristicAgent, IllegalDecision, RandomAgent, run
from forge.engine.builder import build
from forge.engine.invariants import InvariantChecker, InvariantError
from forge.engine.observation import Observation
from forge.engine.proofs import prove_cards
from forge.engine.record import ReplayMismatch, digest, from_jsonl, make_record, replay, to_jsonl
from forge.engine.sample import card, line, sample_database
from forge.engine.state import HANDLED_VERBS
from forge.engine.tasks import Window
from forge.sim.simulate import PAIRINGS, Settings, game_seed, play_games
from forge.text.narrate import render
from forge.text.cardtext import load_phrasebooks
from forge.carddb.vocabulary import FACTIONS, VERBS

ENGINE = Path(__file__).resolve().parents[2] / "forge" / "engine"


def test_every_vocabulary_verb_has_an_engine_handler():
    assert set(VERBS) == set(HANDLED_VERBS)


def test_engine_is_pure_it_imports_only_model_vocabulary_limits_and_stdlib():
    allowed_std = {"__future__", "random", "typing", "dataclasses", "hashlib", "json", "re", "operator"}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    assert node.module.split(".")[0] in allowed_std, (path.name, node.module)
                elif node.level == 2:
                    # forge.core.limits: constants only (the caps the command line shows), no import of its own
                    assert node.module in ("carddb.model", "carddb.vocabulary", "core.limits"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                for n in node.names:
                    assert n.name.split(".")[0] in allowed_std, (path.name, n.name)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("print", "open"):
                pytest.fail(f"{path.name} does I/O")


def test_illegal_decision_names_it_and_lists_the_legal_options(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    with pytest.raises(IllegalDecision) as err:
        s.apply(Action("buy", 99))
    msg = str(err.value)
    assert "('buy', 99, -1)" in msg and "'main'" in msg and "('end', -1, -1)" in msg


def test_legal_actions_are_typed_hashable_and_stable(sample_game):
    a = sample_game.new_state(2, ("white", "black"))
    b = sample_game.new_state(2, ("white", "black"))
    assert a.legal_actions() == b.legal_actions()
    assert len(set(a.legal_actions())) == len(a.legal_actions())
    assert all(isinstance(o, Action) for o in a.legal_actions())


def test_clone_is_independent_and_plays_the_same(sample_game):
    s = sample_game.new_state(3, ("red", "black"))
    for _ in range(30):
        s.apply(s.options[0])
    c = s.clone()
    before = digest(s)
    run(c, [RandomAgent(1), RandomAgent(2)])
    assert digest(s) == before and c.terminal
    d = s.clone()
    run(d, [RandomAgent(1), RandomAgent(2)])
    assert digest(c) == digest(d)


def test_replay_record_reaches_the_same_final_state(sample_game, tmp_path):
    s = sample_game.new_state(77, ("blue", "white"), log=True)
    run(s, [HeuristicAgent(3), RandomAgent(4)])
    text = to_jsonl(make_record(s, ("heuristic", "random")))
    (tmp_path / "game.jsonl").write_text(text)
    lines = from_jsonl((tmp_path / "game.jsonl").read_text())
    assert lines[0]["t"] == "header" and lines[-1]["t"] == "result"
    again = replay(sample_database(), lines)
    assert digest(again) == digest(s) == lines[-1]["digest"]


def test_replay_of_a_tampered_record_fails(sample_game):
    s = sample_game.new_state(5, ("red", "white"), log=True)
    run(s, [RandomAgent(3), RandomAgent(4)])
    lines = make_record(s)
    lines[-1]["digest"] = "0" * 32
    with pytest.raises(ReplayMismatch, match="digest") as exc:
        replay(sample_game, lines)
    assert exc.value.line == len(lines)  # the result line


def test_render_log_in_english_and_french(sample_game):
    s = sample_game.new_state(8, ("red", "white"), log=True)
    run(s, [HeuristicAgent(1), HeuristicAgent(2)])
    db = sample_database()
    books = load_phrasebooks(Path(__file__).resolve().parents[2])  # the log's phrases are the locales'
    en = render(make_record(s), db, books, "en")
    fr = render(make_record(s), db, books, "fr")
    assert en[0].startswith("Setup:") and fr[0].startswith("Mise en place")
    assert any("Turn 1" in x for x in en) and any("Tour 1" in x for x in fr)
    assert any("(fr)" in x for x in fr)  # card names in French


def test_game_seeds_and_pairings_do_not_depend_on_jobs():
    db = sample_database()
    one = [(o.seed, o.winner, o.turns) for o in play_games(db, Settings(games=24, seed=5, jobs=1))]
    two = [(o.seed, o.winner, o.turns) for o in play_games(db, Settings(games=24, seed=5, jobs=2))]
    assert one == two and one[0][0] == game_seed(5, 0)
    assert len(PAIRINGS) == 12 and len(set(PAIRINGS)) == 12


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pairing=st.sampled_from(PAIRINGS), expert=st.booleans(),
       heuristic=st.booleans())
@pytest.mark.rule("allegiance", "creatures-summon", "rites", "defeat")
def test_invariants_hold_after_every_step_of_random_games(seed, pairing, expert, heuristic):
    game = _GAME
    s = game.new_state(seed, pairing, expert=expert)
    check = InvariantChecker(s)
    agents = [HeuristicAgent(seed), RandomAgent(seed + 1)] if heuristic else [RandomAgent(seed), RandomAgent(seed + 1)]
    run(s, agents, on_step=check)
    assert s.terminal and (s.capped or s.winner in (0, 1))


_GAME = Game(sample_database())


def test_invariant_checker_catches_a_lost_card(sample_game):
    s = sample_game.new_state(1, ("red", "blue"))
    check = InvariantChecker(s)
    s.hand[0].pop()
    with pytest.raises(InvariantError, match="cards across zones"):
        check(s)


def test_prove_cards_passes_the_sample_game_and_names_a_broken_line():
    db = sample_database()
    assert all(p.ok for p in prove_cards(db))
    from forge.carddb.vocabulary import EffectLine
    db.cards.append(card("broken", "spell", ["red"], effects=[line("wound", 1), EffectLine("teleport", {"n": 1})]))
    proof = prove_cards(db)[-1]
    assert not proof.ok
    f = proof.failures[0]
    assert (f.card_id, f.section, f.index) == ("broken", "effects", 1) and "teleport" in f.message


def test_prove_cards_proves_a_line_behind_a_threshold_both_met_and_missed():
    """A line under ``when: {red: 3}`` is read with the threshold met and left unread with it missed: no failure."""
    db = sample_database()
    db.cards.append(card("odd", "creature", ["red"], activate=[line("wound", 1, when=("red", 3))]))
    proof = prove_cards(db)[-1]
    assert proof.card_id == "odd" and proof.positions >= 2 and proof.ok


def _project(tmp_path: Path) -> Path:
    root = Path(__file__).resolve().parents[2]
    if not (root / "cards").is_dir() or not any((root / "cards").glob("*.yaml")):
        pytest.skip("no cards/ in this project yet")
    return root


def test_simulate_command_reports_json_and_exits_0(tmp_path, cli):
    root = _project(tmp_path)
    res = cli(["simulate", "--games", "12", "--seed", "1", "--root", str(root), "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 12 and data["errors"] == []
    assert set(data["win_rate"]["by_faction"]) == set(FACTIONS)
    assert len(data["win_rate"]["by_pairing"]) == 12
    assert any(c["played"] for c in data["coverage"])
    balance = data["balance"]  # every figure with its sample size and interval
    assert all(r["n"] and r["low"] <= r["value"] <= r["high"] for r in balance["by_faction"].values())
    assert sum(r["n"] for r in balance["by_pairing"].values()) == 12
    assert {c["card"] for c in balance["cards"]} == {c["card"] for c in data["coverage"]}


def test_simulate_command_text_and_usage_errors(tmp_path, cli):
    root = _project(tmp_path)
    res = cli(["simulate", "--games", "4", "--root", str(root), "--agents", "heuristic"])
    assert res.exit_code == 0 and "first seat wins" in res.output and "95 % interval" in res.output
    res = cli(["simulate", "--root", str(tmp_path / "nope")])
    assert res.exit_code == 2
    res = cli(["simulate", "--agents", "genius"])
    assert res.exit_code == 2


def test_simulate_reports_the_jobs_it_used_and_refuses_caps_replay_would_refuse(tmp_path, cli):
    """--jobs is capped at the games (and cores); a cap above what a record may hold is a usage error."""
    from forge.engine.record import MAX_DECISION_CAP, MAX_TURN_CAP

    root = _project(tmp_path)
    res = cli(["simulate", "--games", "1", "--jobs", "64", "--root", str(root), "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["settings"]["jobs"] == 1
    for option, cap in (("--turn-cap", MAX_TURN_CAP), ("--decision-cap", MAX_DECISION_CAP)):
        res = cli(["simulate", "--games", "1", option, str(cap + 1), "--root", str(root)])
        assert res.exit_code == 2


def test_simulate_writes_a_replay_for_a_failing_game(tmp_path, wound_fails_after_turn_4, cli):
    root = _project(tmp_path)
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(root / "cards", proj / "cards")
    if (root / "locales").is_dir():
        shutil.copytree(root / "locales", proj / "locales")
    res = cli(["simulate", "--games", "2", "--root", str(proj), "--format", "json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    err = data["errors"][0]
    assert "boom" in err["error"] and err["replay"].startswith("output/replays/")
    lines = from_jsonl((proj / err["replay"]).read_text())
    assert lines[0]["t"] == "header" and lines[-1]["error"]


def test_replay_command_prints_the_log_and_checks_the_record(tmp_path, cli):
    root = _project(tmp_path)
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(root / "cards", proj / "cards")
    res = cli(["simulate", "--games", "1", "--root", str(proj), "--save-replays"])
    assert res.exit_code == 0, res.output
    rec = next((proj / "output" / "replays").glob("*.jsonl"))
    res = cli(["replay", str(rec), "--root", str(proj), "--lang", "fr"])
    assert res.exit_code == 2 and "locales/en.yaml" in res.output  # the log's words are the project's locales
    shutil.copytree(root / "locales", proj / "locales")
    res = cli(["replay", str(rec), "--root", str(proj), "--lang", "fr"])
    assert res.exit_code == 0 and res.output.startswith("Mise en place")


def test_prove_cards_sees_a_summon_trigger_of_another_creature():
    from forge.carddb.model import Trigger

    db = sample_database()
    db.cards.append(card("herald", "creature", ["white"], triggers=[Trigger("summon", "you", (line("draw", 1),))]))
    assert prove_cards(db)[-1].ok


def test_replay_command_reports_as_json_and_logs_french_plurals(tmp_path, cli):
    import json
    import shutil

    repo = ENGINE.parents[1]
    for part in ("cards", "locales"):
        shutil.copytree(repo / part, tmp_path / part)
    cli(["simulate", "--games", "1", "--root", str(tmp_path), "--save-replays"])
    record = next((tmp_path / "output" / "replays").glob("*.jsonl"))
    res = cli(["replay", str(record), "--root", str(tmp_path), "--lang", "fr", "--format", "json"])
    data = json.loads(res.stdout)
    assert res.exit_code == 0 and data["ok"] and data["problem"] is None
    assert not any("cartes" in line and " 1 cartes" in line for line in data["log"])
    assert not any(line.lstrip().startswith("[") for line in data["log"])


def test_simulate_plays_heuristic_agents_by_default():
    assert Settings().agents == "heuristic"


def test_observation_announced_is_the_card_of_the_step_3_window():
    game = Game(sample_database())
    seen = 0
    for seed in range(6):
        s = game.new_state(seed, PAIRINGS[seed % 12])
        agents = (RandomAgent(seed), RandomAgent(seed + 1))
        while not s.terminal:
            p = s.pending
            obs = Observation(s, p)
            if s.decision_kind() == "window:step3":
                cid = obs.announced()
                active = s.active
                # the card played (resolving, or a Soul in front of its player), the creature
                # activated, or -1 after a summon
                assert cid == -1 or cid in s.resolving or cid in s.played[active] or cid in s.field[active]
                seen += cid >= 0
            elif not (s.stack and type(s.stack[-1]) is Window):
                assert obs.announced() == -1
            s.apply(agents[p].act(obs, s.options))
    assert seen


def test_heuristic_agent_keeps_the_essence_a_purchase_needs():
    s = build(sample_database(), players=[dict(faction="red", essence=3, allegiance={"red": 2}), dict(faction="white")],
              row=["war-drummer", "", "", "", "", "", "", ""])
    a = HeuristicAgent(1).act(Observation(s, 0), s.legal_actions())
    assert a.kind == "buy" and s.defs[s.row[a.a]].id == "war-drummer"


def test_heuristic_agent_beats_the_random_agent():
    game = Game(sample_database())
    wins = 0
    for i in range(12):
        s = game.new_state(i, PAIRINGS[i], first=0)
        seat = i % 2
        agents = [RandomAgent(i), RandomAgent(i + 100)]
        agents[seat] = HeuristicAgent(i)
        run(s, agents)
        wins += s.winner == seat
    assert wins >= 10
