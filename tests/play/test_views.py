"""Every decision the rules give a player is put into words, in both languages, from the engine's options only."""
from __future__ import annotations


from forge.engine import Observation, RandomAgent
from forge.engine.builder import build, cid
from forge.engine.tasks import Lines
from forge.play.session import HUMAN, Session
from forge.play.views import Viewer

#: The decisions a person meets in a few random games (the rulebook's: buy, raise, play, activate,
#: target, a trap in the opponent's window, Guard, keep 0-2 at cleanup, "you may", the order of effects).
EXPECTED = {"main", "window:idle", "window:step3", "guard", "pick:keep", "may", "pick:discard", "pick:allegiance"}
#: Decisions the cards make rare in random games (a destroy spell needs allegiance a random player seldom
#: raises): each is reached in a built position and worded by the same checks.
BUILT = {"pick:destroy"}


def _check_worded(viewer, session, p, seen: dict[str, set[str]]) -> None:
    """The decision ``p`` faces is worded in both languages: its options are the engine's, every prompt
    and label is filled in, the opponent's hand is hidden."""
    s = session.state
    for lang in ("en", "fr"):
        view = viewer.view(session, p, lang)
        decision = view["decision"]
        assert [tuple(o["action"]) for o in decision["options"]] == [tuple(a) for a in s.options]
        assert decision["prompt"] and "{" not in decision["prompt"], decision
        labels = [o["label"] for o in decision["options"]]
        assert all(labels) and not any("{" in x for x in labels), labels
        assert view["players"][1 - p]["hand"] is None
        if decision["kind"] == "pick:keep":  # each card of the hand is offered to keep, by its name
            keep = {"en": "Keep ", "fr": "Garder "}[lang]
            assert all(x.startswith(keep) for x, o in zip(labels, decision["options"]) if o["kind"] == "pick")
        seen.setdefault(decision["kind"], set()).add(lang)


def test_every_decision_of_random_games_is_worded_in_both_languages(playable):
    viewer = Viewer(playable.db, playable.books)
    seen: dict[str, set[str]] = {}
    for seed in range(12):
        session = Session(str(seed + 1), playable.game, seed, ("red", "blue") if seed % 2 else ("black", "white"),
                          seed % 2, (HUMAN, HUMAN), expert=seed % 6 == 0)
        chooser = RandomAgent(seed)
        s = session.state
        while not session.over and s.decisions < 1500:
            p = s.pending
            _check_worded(viewer, session, p, seen)
            session.decide(p, s.decisions, chooser.act(session.views[p], s.options))
    assert EXPECTED <= set(seen), EXPECTED - set(seen)
    # a destroy spell's target: Death Knell in hand, two opposing creatures to choose from
    s = build(playable.game, players=[dict(faction="black", hand=["death-knell"], allegiance={"black": 2}),
                                      dict(faction="white", field=["temple-guard", "shrine-keeper"])])
    s.apply(next(a for a in s.options if a.kind == "play"))
    session = _session_at(playable, s)
    _check_worded(viewer, session, s.pending, seen)
    assert BUILT <= set(seen), BUILT - set(seen)
    assert all(langs == {"en", "fr"} for langs in seen.values())


def test_a_decision_s_words_name_its_card_and_line(playable):
    """A target's prompt says which card asks and what its line does, as printed."""
    viewer = Viewer(playable.db, playable.books)
    for seed in range(40):
        session = Session("1", playable.game, seed, ("blue", "black"), 0, (HUMAN, HUMAN))
        chooser = RandomAgent(seed)
        s = session.state
        while not session.over and s.decisions < 1500:
            if s.decision_kind() == "pick:destroy":
                prompt = viewer.view(session, s.pending, "en")["decision"]["prompt"]
                card = next(t for t in reversed(s.stack) if type(t) is Lines).design.card  # whose lines are read
                assert prompt.startswith(f"{card.name['en']}: Destroy") and prompt.endswith(" — choose 1."), prompt
                fr = viewer.view(session, s.pending, "fr")["decision"]["prompt"]
                assert fr.startswith(f"{card.name['fr']}\u00a0: Destruction") and fr.endswith("choisissez-en 1."), fr
                return
            session.decide(s.pending, s.decisions, chooser.act(session.views[s.pending], s.options))
    raise AssertionError("no destroy target in 40 random games")


def _session_at(playable, state) -> Session:
    """A hot-seat session showing a hand-built position (the rare decisions random games seldom reach)."""
    session = Session("1", playable.game, 0, ("red", "blue"), 0, (HUMAN, HUMAN))
    session.state, session.views = state, (Observation(state, 0), Observation(state, 1))
    return session


def test_a_when_trap_and_the_order_of_waiting_effects_are_worded(playable):
    viewer = Viewer(playable.db, playable.books)
    # a "when" trap: the opponent buys, Rift Snare may answer
    s = build(playable.game, players=[dict(faction="red", essence=5), dict(faction="blue", hand=["rift-snare"],
                                                                            allegiance={"blue": 3})],
              row=["kindle"] * 8)
    s.apply(next(a for a in s.options if a.kind == "buy"))
    view = viewer.view(_session_at(playable, s), 1, "fr")
    assert view["decision"]["kind"] == "window:when"
    assert [o["label"] for o in view["decision"]["options"]] == ["Déclencher le piège Collet de la Faille",
                                                                 "Ne pas jouer de piège"]
    # two end-of-turn effects wait at cleanup: their owner orders them
    s = build(playable.game, players=[dict(faction="blue", field=["void-archivist", "void-archivist"]), {}])
    s.apply(next(a for a in s.options if a.kind == "end"))
    view = viewer.view(_session_at(playable, s), 0, "en")
    assert view["decision"]["kind"] == "order" and view["decision"]["prompt"].startswith("Several effects wait")
    first = cid(s, "void-archivist", "field", 0)
    label = view["decision"]["options"][0]["label"]
    assert label.startswith("Void Archivist first: Exile up to 1 card") and first >= 0, label


def test_a_game_stopped_by_its_cap_says_which_cap_in_the_page_s_language(playable):
    """The record says "turns" or "decisions": the page names the cap in French too (locales' log.cap_*)."""
    from types import SimpleNamespace

    viewer = Viewer(playable.db, playable.books)
    for cap, en, fr in (("turns", "turns", "tours"), ("decisions", "decisions", "décisions")):
        stopped = SimpleNamespace(error=None, abandoned=None, state=SimpleNamespace(terminal=True, winner=None, capped=cap))
        assert viewer.outcome(stopped, "en", [])["text"] == f"The game stopped: its {en} cap was reached."
        assert viewer.outcome(stopped, "fr", [])["text"] == f"La partie est arrêtée\u00a0: limite de {fr} atteinte."


def test_a_faction_is_named_as_the_replay_names_it_and_an_allegiance_by_its_colour(playable):
    """One naming (issue 25 §1): a player's faction is cards/factions.yaml's name, as the replay, the gallery and
    the balance report say it; an allegiance (a track, a raise) is the locale's colour, as the replay's tracks."""
    viewer = Viewer(playable.db, playable.books)
    names = {f.id: f.name for f in playable.db.factions}
    session = Session("1", playable.game, 3, ("white", "black"), 0, (HUMAN, "heuristic"))
    s, chooser = session.state, RandomAgent(3)
    while not any(a.kind == "raise" for a in s.options) and not session.over:  # until a raise is offered
        session.decide(0, s.decisions, next((a for a in s.options if a.kind in ("play", "summon")), s.options[-1])
                       if s.decision_kind() == "main" else chooser.act(Observation(s, 0), list(s.options)))
    for lang, colour in (("en", "White"), ("fr", "Blanc")):
        view = viewer.view(session, 0, lang)
        assert [p["faction_name"] for p in view["players"]] == [names["white"][lang], names["black"][lang]]
        assert view["players"][0]["allegiance"][1]["name"] == colour
        raises = [o["label"] for o in view["decision"]["options"] if o["kind"] == "raise"]
        assert raises and all(names["white"][lang] not in x for x in raises)
        assert any(colour in x for x in raises), raises
    assert names["white"]["en"] == "The Dawn Covenant"
