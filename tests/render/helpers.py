"""A small game built from Card objects and a fake phrasebook, so render tests never depend on the
shipped cards or on the locale files' wording."""
from __future__ import annotations

from forge.carddb.model import Card, CardDatabase, Faction, IconArt, Keywords, TrapSpec, Trigger
from forge.text.cardtext import parse_markup
from forge.carddb.vocabulary import EffectLine, Threshold

FACTIONS = [
    Faction("red", {"en": "The Ember Host", "fr": "L'Ost des Braises"}, "#b3261e", "burning-embers", {}),
    Faction("blue", {"en": "The Rift Conclave", "fr": "Le Conclave de la Faille"}, "#2f63a8", "portal", {}),
]

#: The printed text of each card, per language, in the shared markup.
TEXT = {
    "ember-whelp": {
        "en": ["**Rush**", "[[activate]] **Wound** 2", "3 [[red]]: **Wound** 1", "[[demise]] **Demise**: Draw 1 card."],
        "fr": ["**Ruée**", "[[activate]] **Blessures** 2", "3 [[red]] : **Blessures** 1",
               "[[demise]] **Trépas** : Piochez 1 carte."],
    },
    "tide-turn": {
        "en": ["Return 1 opposing creature to its owner's hand.", "Draw 1 card."],
        "fr": ["Renvoyez 1 créature adverse dans la main de son propriétaire.", "Piochez 1 carte."],
    },
    "snare": {
        "en": ["[[trap]] Opponent's turn: when your opponent summons a creature: **Destroy** that creature."],
        "fr": ["[[trap]] Tour adverse : quand votre adversaire invoque une créature : **Destruction** : "
               "détruisez cette créature."],
    },
    "lost-wisp": {"en": ["[[soul]]"], "fr": ["[[soul]]"]},
    "rite-of-sparks": {
        "en": ["Each time you cast a spell: **Wound** 1"],
        "fr": ["Chaque fois que vous jouez une magie : **Blessures** 1"],
    },
}
TYPES = {"en": {"soul": "Soul", "creature": "Creature", "spell": "Spell", "trap": "Trap", "rite": "Rite"},
         "fr": {"soul": "Âme", "creature": "Créature", "spell": "Magie", "trap": "Piège", "rite": "Rite"}}
FACTION_NAMES = {"en": {"red": "Red", "blue": "Blue"}, "fr": {"red": "Rouge", "blue": "Bleu"}}
#: Keywords the player aids name (the turn summary's Wound protection order).
KEYWORDS = {"en": {"wound": "Wound", "unblockable_wound": "Unblockable Wound", "poison": "Poison", "aegis": "Aegis",
                   "guard": "Guard", "divine_shield": "Divine Shield"},
            "fr": {"wound": "Blessures", "unblockable_wound": "Blessures Imparables", "poison": "Poison",
                   "aegis": "Égide", "guard": "Garde", "divine_shield": "Bouclier Divin"}}


class FakeBook:
    """Implements what the renderer uses of forge.text.cardtext.Phrasebook, from the tables above."""

    def __init__(self, lang: str, text: dict | None = None):
        self.lang = lang
        self.text = text if text is not None else TEXT

    def card_text(self, card: Card) -> list[str]:
        return list(self.text[card.id][self.lang])

    def type_line(self, card: Card) -> str:
        kind = TYPES[self.lang][card.type]
        if not card.factions:
            return kind
        return f"{kind} — " + " · ".join(self.faction_name(f) for f in card.factions)

    def faction_name(self, fid: str) -> str:
        return FACTION_NAMES[self.lang][fid]

    def keyword(self, key: str) -> str:
        return KEYWORDS[self.lang][key]

    def label(self, table: str, key: str) -> str:
        return {"types": TYPES}[table][self.lang][key]

    def plain(self, line: str) -> str:
        return "".join(s.value for s in parse_markup(line) if s.kind != "icon")


def books(text: dict | None = None) -> dict[str, FakeBook]:
    return {"en": FakeBook("en", text), "fr": FakeBook("fr", text)}


def mini_db() -> CardDatabase:
    """One card of each type: a creature, a spell, a trap, a neutral Soul and a Rite."""
    cards = [
        Card("ember-whelp", "creature", "recruit", ("red",), {"en": "Ember Whelp", "fr": "Dragonnet des Braises"},
             copies=3, cost=2, allegiance={"red": 1}, keywords=Keywords(rush=True),
             art=IconArt("fire-dash", ("burning-embers",)),
             flavor={"en": "Small, hot, and furious.", "fr": "Petit, brûlant et furieux."},
             activate=(EffectLine("wound", {"n": 2}), EffectLine("wound", {"n": 1}, threshold=Threshold("red", 3))),
             demise=(EffectLine("draw", {"n": 1}),)),
        Card("tide-turn", "spell", "recruit", ("blue",), {"en": "Tide Turn", "fr": "Renverse-Marée"},
             copies=2, cost=3, allegiance={"blue": 2},
             effects=(EffectLine("bounce", {"n": 1}), EffectLine("draw", {"n": 1}))),
        Card("snare", "trap", "recruit", ("red", "blue"), {"en": "Rift Snare", "fr": "Collet de la Faille"},
             copies=1, cost=4, allegiance={"red": 1, "blue": 1}, trap=TrapSpec("when", "summon"),
             effects=(EffectLine("destroy", {"target": "that"}),)),
        Card("lost-wisp", "soul", "starter", (), {"en": "Lost Wisp", "fr": "Feu Follet Perdu"}, copies=2,
             art=IconArt("ghost"),
             effects=(EffectLine("essence", {"n": 1}),)),
        Card("rite-of-sparks", "rite", "rite", ("red",), {"en": "Rite of Sparks", "fr": "Rite des Étincelles"},
             triggers=(Trigger("cast", "you", (EffectLine("wound", {"n": 1}),)),)),
    ]
    return CardDatabase(list(FACTIONS), cards)


def physical_count(db: CardDatabase) -> int:
    return sum(db.box_count(c) for c in db.cards)


def aid_count() -> int:
    """Physical player-aid cards in the box: each card-size aid once per player."""
    from forge.engine.state import PLAYERS
    from forge.render.aids import FRONTS

    return len(FRONTS) * PLAYERS


def shop_aid_count(lang: str = "en") -> int:
    """Physical aid cards the print shops get: the players' aids, a Rite slot each, and the token cards
    (tests/render/test_aids.py reads their contents back against the engine's constants)."""
    from pathlib import Path

    from forge.render.aids import aid_cards, aid_set, shop_aid_cards
    from forge.render.template import load_template

    tpl = load_template(Path(__file__).resolve().parents[2])
    a = aid_set(tpl, FakeBook(lang), lang, mini_db().factions)
    return sum(f.copies for f in aid_cards(a) + shop_aid_cards(tpl, a))


def aid_ids() -> set[str]:
    """Both sides of every card-size aid, as the shops get them (theirs included)."""
    from forge.render.aids import FRONTS, SHOP_FRONTS

    sides = {**FRONTS, **SHOP_FRONTS}
    return {f"aid-{k}" for k in sides} | {f"aid-{v}" for v in sides.values()}
