"""The game log's phrases live in locales/<lang>.yaml (``log:``), outside the engine (``forge.text.narrate``).

Moving them there changed no English line and no French word: the French only gained its typography
(’ apostrophes, no-break spaces before « : ; », now that parity checks it). One record line of every
event kind, with counts that take each plural form, is printed and compared with what the engine's own
phrase table printed before the move (``OLD_EN``, ``OLD_FR``: forge/engine/phrases.py at main 78d5abc).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from forge.engine.record import FIELDS
from forge.engine.sample import sample_database
from forge.text.narrate import KINDS, LogPrinter, phrase, placeholders, render
from forge.text.cardtext import load_phrasebooks

REPO = Path(__file__).resolve().parents[2]

LINES = [
    {"t": "event", "e": "setup", "f0": "red", "f1": "blue", "first": 1, "expert": False},
    {"t": "event", "e": "setup", "f0": "white", "f1": "black", "first": 0, "expert": True},
    {"t": "event", "e": "turn", "turn": 3, "player": 0},
    {"t": "event", "e": "poison_damage", "player": 1, "n": 1},
    {"t": "event", "e": "poison_damage", "player": 1, "n": 2},
    {"t": "event", "e": "essence", "player": 0, "n": 2},
    {"t": "event", "e": "play", "player": 0, "card": "lost-soul", "cid": 4},
    {"t": "event", "e": "summon", "player": 0, "card": "cinder-imp", "cid": 5},
    {"t": "event", "e": "activate", "player": 1, "card": "temple-guard", "cid": 6},
    {"t": "event", "e": "buy", "player": 0, "card": "ember-acolyte", "cid": 7, "n": 3},
    {"t": "event", "e": "trap", "player": 1, "card": "volatile-essence", "cid": 8},
    {"t": "event", "e": "allegiance", "player": 0, "faction": 2, "n": 4},
    {"t": "event", "e": "wound", "player": 0, "target": 1, "n": 1},
    {"t": "event", "e": "wound", "player": 0, "target": 1, "n": 5},
    {"t": "event", "e": "prevented", "player": 1, "n": 3},
    {"t": "event", "e": "guard", "player": 1, "card": "temple-guard", "cid": 6, "n": 2},
    {"t": "event", "e": "poison", "player": 1, "n": 1},
    {"t": "event", "e": "poison", "player": 1, "n": 3},
    {"t": "event", "e": "draw", "player": 0, "n": 0},
    {"t": "event", "e": "draw", "player": 0, "n": 1},
    {"t": "event", "e": "draw", "player": 0, "n": 5},
    {"t": "event", "e": "reshuffle", "player": 1, "n": 12},
    {"t": "event", "e": "discard", "player": 1, "card": "lost-soul", "cid": 9},
    {"t": "event", "e": "destroy", "player": 0, "card": "cinder-imp", "cid": 5},
    {"t": "event", "e": "exile", "player": 0, "card": "cinder-imp", "cid": 5},
    {"t": "event", "e": "bounce", "player": 1, "card": "temple-guard", "cid": 6},
    {"t": "event", "e": "rift", "player": 0, "card": "cinder-imp", "cid": 5},
    {"t": "event", "e": "recover", "player": 0, "card": "lost-soul", "cid": 4},
    {"t": "event", "e": "exhaust", "player": 1, "card": "temple-guard", "cid": 6},
    {"t": "event", "e": "keep", "player": 0, "n": 0, "m": 2},
    {"t": "event", "e": "keep", "player": 1, "n": 2, "m": 1},
    {"t": "event", "e": "shield", "player": 1},
    {"t": "event", "e": "protect", "player": 0},
    {"t": "event", "e": "skip", "player": 0, "card": "ember-acolyte", "section": "effects", "index": 1},
    {"t": "event", "e": "resolve", "player": 0, "card": "ember-acolyte", "section": "effects", "index": 0},
    {"t": "event", "e": "rite", "player": 1, "rite": "lost-soul"},
    {"t": "event", "e": "set_aside", "player": 0, "card": "essence-collector", "cid": 11},
    {"t": "decision", "player": 0, "action": ["buy", 2, -1]},
    {"t": "event", "e": "win", "player": 1},
    {"t": "event", "e": "capped", "reason": "turns"},
]

#: The lines the engine's phrase table printed for LINES (with decisions), before the move.
OLD_EN = [
    "Setup: Player 1 plays Red, Player 2 plays Blue; Player 2 goes first.",
    "Setup: Player 1 plays White, Player 2 plays Black; Player 1 goes first (expert variant).",
    "— Turn 3: Player 1 —",
    "Player 2 takes 1 poison damage.",
    "Player 2 takes 2 poison damage.",
    "Player 1 gains 2 soul essence.",
    "Player 1 plays Lost Soul.",
    "Player 1 summons Cinder Imp.",
    "Player 2 activates Temple Guard.",
    "Player 1 buys Ember Acolyte for 3.",
    "Player 2 springs the trap Volatile Essence and draws a card.",
    "Player 1's Black allegiance rises to 4.",
    "Player 1 deals 1 Wound damage to Player 2.",
    "Player 1 deals 5 Wound damage to Player 2.",
    "The Wound aimed at Player 2 is reduced to 0.",
    "Player 2 guards with Temple Guard: the Wound is cancelled.",
    "Player 2 gets 1 poison counter.",
    "Player 2 gets 3 poison counters.",
    "Player 1 draws 0 cards.",
    "Player 1 draws 1 card.",
    "Player 1 draws 5 cards.",
    "Player 2 shuffles their discard pile into a new deck (12 cards).",
    "Player 2 discards Lost Soul.",
    "Cinder Imp is destroyed.",
    "Cinder Imp is exiled.",
    "Temple Guard returns to its owner's hand.",
    "Player 1 takes Cinder Imp back from the exile pile.",
    "Player 1 returns Lost Soul to their hand.",
    "Temple Guard is exhausted.",
    "Player 1 keeps 0 cards and discards 2.",
    "Player 2 keeps 2 cards and discards 1.",
    "Player 2 is under a Divine Shield until the end of the turn.",
    "Player 1's creatures cannot be destroyed until the end of the turn.",
    "Player 1 skips a line of Ember Acolyte (allegiance too low).",
    "Player 2 takes Lost Soul.",
    "Player 1 sets aside Essence Collector.",
    "  [Player 1 chooses buy 2]",
    "Player 2 wins.",
    "The game is stopped: turns cap reached.",
]

OLD_FR = [
    "Mise en place : Joueur 1 joue Rouge, Joueur 2 joue Bleu ; Joueur 2 commence.",
    "Mise en place : Joueur 1 joue Blanc, Joueur 2 joue Noir ; Joueur 1 commence (variante experte).",
    "— Tour 3 : Joueur 1 —",
    "Joueur 2 subit 1 dégât de poison.",
    "Joueur 2 subit 2 dégâts de poison.",
    "Joueur 1 gagne 2 essences d'âme.",
    "Joueur 1 joue Lost Soul (fr).",
    "Joueur 1 invoque Cinder Imp (fr).",
    "Joueur 2 active Temple Guard (fr).",
    "Joueur 1 achète Ember Acolyte (fr) pour 3.",
    "Joueur 2 déclenche le piège Volatile Essence (fr) et pioche une carte.",
    "L'allégeance Noir de Joueur 1 monte à 4.",
    "Joueur 1 inflige 1 dégât de Blessures à Joueur 2.",
    "Joueur 1 inflige 5 dégâts de Blessures à Joueur 2.",
    "Les Blessures visant Joueur 2 sont réduites à 0.",
    "Joueur 2 garde avec Temple Guard (fr) : les Blessures sont annulées.",
    "Joueur 2 reçoit 1 marqueur de poison.",
    "Joueur 2 reçoit 3 marqueurs de poison.",
    "Joueur 1 pioche 0 carte.",
    "Joueur 1 pioche 1 carte.",
    "Joueur 1 pioche 5 cartes.",
    "Joueur 2 mélange sa défausse pour former une nouvelle pioche (12 cartes).",
    "Joueur 2 défausse Lost Soul (fr).",
    "Cinder Imp (fr) est détruite.",
    "Cinder Imp (fr) est exilée.",
    "Temple Guard (fr) retourne dans la main de son propriétaire.",
    "Joueur 1 reprend Cinder Imp (fr) dans la pile d'exil.",
    "Joueur 1 reprend Lost Soul (fr) en main.",
    "Temple Guard (fr) est épuisée.",
    "Joueur 1 garde 0 carte et en défausse 2.",
    "Joueur 2 garde 2 cartes et en défausse 1.",
    "Joueur 2 est protégé par un Bouclier Divin jusqu'à la fin du tour.",
    "Les créatures de Joueur 1 ne peuvent pas être détruites jusqu'à la fin du tour.",
    "Joueur 1 saute une ligne de Ember Acolyte (fr) (allégeance insuffisante).",
    "Joueur 2 prend Lost Soul (fr).",
    "Joueur 1 écarte Essence Collector (fr).",
    "  [Joueur 1 choisit buy 2]",
    "Joueur 2 gagne.",
    "La partie est arrêtée : limite de turns atteinte.",
]


def french_typography(text: str) -> str:
    """What parity's typography --fix makes of the old French: ’ for ', a no-break space before : and ;; and the
    cap a game reached named in French (« limite de tours », not the record's English "turns": log.cap_turns)."""
    text = text.replace("'", "\u2019").replace(" :", "\u00a0:").replace(" ;", "\u00a0;")
    return text.replace("limite de turns", "limite de tours")


@pytest.fixture(scope="module")
def books():
    return load_phrasebooks(REPO)


def test_every_event_prints_as_before_the_move(books):
    db = sample_database()
    assert render(LINES, db, books, "en", decisions=True) == OLD_EN
    assert render(LINES, db, books, "fr", decisions=True) == [french_typography(t) for t in OLD_FR]
    assert {x.get("e", "decision") for x in LINES} == set(FIELDS)  # every kind the record has
    capped = {"t": "event", "e": "capped", "reason": "decisions"}
    assert render([capped], db, books, "fr") == ["La partie est arrêtée\u00a0: limite de décisions atteinte."]
    assert render([capped], db, books, "en") == ["The game is stopped: decisions cap reached."]


def test_decisions_are_shown_only_when_asked_and_indented(books):
    db = sample_database()
    plain = render(LINES, db, books, "en")
    assert "  [Player 1 chooses buy 2]" not in plain and len(plain) == len(OLD_EN) - 1
    assert "  [Player 1 chooses buy 2]" in OLD_EN


def test_every_phrase_the_log_prints_is_in_both_locales(books):
    for lang in ("en", "fr"):
        table = books[lang].data["log"]
        assert set(table) == set(KINDS), lang
        for kind, text in table.items():
            used = {name for name in placeholders(kind) if "{" + name in text}
            assert used <= placeholders(kind), (lang, kind)


def test_faction_names_are_the_locales_factions_table(books):
    db = sample_database()
    line = {"t": "event", "e": "setup", "f0": "red", "f1": "blue", "first": 0, "expert": False}
    fr = dict(books["fr"].data, factions=dict(books["fr"].data["factions"], red="Écarlate"))
    edited = dict(books, fr=type(books["fr"])("fr", fr, "locales/fr.yaml"))
    assert LogPrinter(db, edited, "fr")(line).startswith("Mise en place\u00a0: Joueur 1 joue Écarlate,")


def test_a_phrase_missing_in_french_falls_back_to_english_and_one_missing_in_both_says_its_event(books):
    db = sample_database()
    fr = dict(books["fr"].data, log={k: v for k, v in books["fr"].data["log"].items() if k not in ("win", "capped")})
    en = dict(books["en"].data, log={k: v for k, v in books["en"].data["log"].items() if k != "capped"})
    Book = type(books["fr"])
    edited = {"en": Book("en", en, "locales/en.yaml"), "fr": Book("fr", fr, "locales/fr.yaml")}
    printer = LogPrinter(db, edited, "fr")
    assert printer({"t": "event", "e": "win", "player": 0}) == "Joueur 1 wins."
    assert printer({"t": "event", "e": "capped", "reason": "turn"}) == "[capped] reason=turn"


def test_a_placeholder_without_a_value_prints_as_written():
    assert phrase("{player} gagne {prize}.", "fr", player="Joueur 1") == "Joueur 1 gagne {prize}."
    assert phrase("{n} {n|carte|cartes}", "fr", n="beaucoup") == "beaucoup {n|carte|cartes}"
    assert phrase("{n} {n|carte|cartes}", "fr", n=0) == "0 carte" and phrase("{n} {n|card|cards}", "en", n=0) == "0 cards"
