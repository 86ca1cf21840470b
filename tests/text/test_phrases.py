"""Printed text is compiled from effects through locales/: every verb, variant and frame prints."""
from __future__ import annotations

import itertools

import pytest

from forge.carddb.model import Card, Keywords, TrapSpec, Trigger
from forge.text.cardtext import load_phrasebooks, parse_markup, wording_differences, Span
from forge.carddb.vocabulary import EVENT_ACTORS, EVENTS, FACTIONS, LANGUAGES, TIMINGS, VERBS, EffectLine, Threshold

from ..conftest import REPO

BOOKS = load_phrasebooks(REPO)


def every_line():
    """One EffectLine per verb and combination of its enum and boolean parameters."""
    for verb in VERBS.values():
        enums = [[(p.name, c) for c in p.choices] for p in verb.params if p.kind == "enum"]
        bools = [[(p.name, False), (p.name, True)] for p in verb.params if p.kind == "bool"]
        for combo in itertools.product(*enums, *bools):
            args = dict(combo)
            if args.get("target") == "that" and args.get("up_to"):
                continue  # "up to that creature" means nothing; validate refuses it
            if verb.param("n"):
                for n in (1, 3):
                    yield EffectLine(verb.name, {**args, "n": n})
            else:
                yield EffectLine(verb.name, args)


LINES = list(every_line())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_verb_variant_prints_without_leftover_placeholders(lang):
    book = BOOKS[lang]
    for line in LINES:
        for may in (False, True):
            text = book.line_text(EffectLine(line.verb, line.args, may=may))
            assert "{" not in text and "}" not in text, (line, text)
            assert text.strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_in_text_match_the_effect(lang):
    for line in LINES:
        text = BOOKS[lang].line_text(line)
        if line.verb == "essence":
            assert text == "[[soul]]" * line.n
        elif VERBS[line.verb].param("n") and line.arg("target") != "that":
            assert str(line.n) in text, (line, text)


def test_threshold_line_reads_like_the_rulebook():
    line = EffectLine("poison", {"n": 2}, threshold=Threshold("black", 3))
    assert BOOKS["en"].plain(BOOKS["en"].line_text(line)) == "3 Black: Poison 2"
    assert BOOKS["fr"].plain(BOOKS["fr"].line_text(line)) == "3 Noir\u00a0: Poison 2"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_frame_prints(lang):
    book = BOOKS[lang]
    for timing in TIMINGS:
        assert book.line_text(EffectLine("draw", {"n": 1}, timing=timing))
    for event, actor in itertools.product(EVENTS, EVENT_ACTORS):
        assert book.event(event, actor)
    for faction in FACTIONS:
        assert book.faction_name(faction)


def _card(**kw) -> Card:
    base = dict(id="x", type="creature", set="recruit", factions=("red",), name={"en": "X", "fr": "X"})
    return Card(**{**base, **kw})


def test_card_text_order_keywords_triggers_end_of_turn_activation_demise():
    """Rulebook: every line after ⟳ is part of the activation up to Demise, so ⟳ comes after the triggers."""
    card = _card(keywords=Keywords(guard=True, aegis=1), activate=(EffectLine("wound", {"n": 2}),),
                 triggers=(Trigger("cast", "you", (EffectLine("draw", {"n": 1}),)),),
                 end_of_turn=(EffectLine("poison", {"n": 1}),), demise=(EffectLine("draw", {"n": 1}),))
    plain = [BOOKS["en"].plain(x) for x in BOOKS["en"].card_text(card)]
    assert plain == ["⟳ Guard", "Aegis 1", "Each time you cast a spell: Draw 1 card.",
                     "End of your turn: Poison 1", "⟳ Wound 2", "✝ Demise: Draw 1 card."]


def test_trap_header_names_the_opponents_event():
    card = _card(type="trap", trap=TrapSpec("when", "summon"), effects=(EffectLine("destroy", {"target": "that"}),))
    assert BOOKS["fr"].plain(BOOKS["fr"].card_text(card)[0]) == (
        "Tour adverse\u00a0: quand votre adversaire invoque une créature, détruisez cette créature.")
    assert BOOKS["en"].type_line(card) == "Trap · When — Red"


def test_markup_parses_into_spans():
    assert parse_markup("3 [[black]]: **Poison** 2") == [
        Span("text", "3 "), Span("icon", "black"), Span("text", ": "), Span("keyword", "Poison"),
        Span("text", " 2")]


def test_override_keeping_numbers_and_keywords_is_accepted():
    assert wording_differences("**Wound** 2", "Deal **Wound** 2 to your foe.") == []


def test_override_changing_a_number_or_keyword_is_caught():
    assert wording_differences("**Wound** 2", "**Wound** 3") == ["drops the number 2", "adds the number 3"]
    assert wording_differences("3 [[black]]: **Poison** 2", "3: **Poison** 2") == ["drops the keyword or icon [[black]]"]
