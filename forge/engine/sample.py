"""A small complete game built in code: 4 factions, starter decks, 80 recruits, 4 Rites.

Used by the engine's tests and benchmarks so they never depend on ``cards/``.
"""
from __future__ import annotations

from ..carddb.model import Card, CardDatabase, Faction, Keywords, TrapSpec, Trigger
from ..carddb.vocabulary import FACTIONS, EffectLine, Threshold


def line(verb: str, n: int | None = None, *, when: tuple[str, int] | None = None, may: bool = False,
         timing: str | None = None, **args) -> EffectLine:
    """An effect line: ``line("wound", 2, when=("red", 3))`` is "3 Red: Wound 2"."""
    if n is not None:
        args["n"] = n
    return EffectLine(verb=verb, args=args, threshold=Threshold(*when) if when else None,
                      may=may, timing=timing)


def card(id: str, type: str, factions=(), *, set: str = "recruit", cost: int | None = None,
         copies: int = 1, allegiance: dict | None = None, keywords: Keywords = Keywords(),
         effects=(), activate=(), demise=(), end_of_turn=(), triggers=(), trap: TrapSpec | None = None,
         name: str | None = None) -> Card:
    """A card with sensible defaults (name from the id in both languages)."""
    title = name or id.replace("-", " ").title()
    if cost is None and set == "recruit":
        cost = 1
    return Card(id=id, type=type, set=set, factions=tuple(factions), name={"en": title, "fr": title + " (fr)"},
                copies=copies, cost=cost, allegiance=dict(allegiance or {}), keywords=keywords,
                effects=tuple(effects), activate=tuple(activate), demise=tuple(demise),
                end_of_turn=tuple(end_of_turn), triggers=tuple(triggers), trap=trap)


def _starters() -> list[Card]:
    S = "starter"
    return [
        card("lost-soul", "soul", set=S, copies=5, effects=[line("essence", 1)]),
        card("essence-collector", "soul", set=S, effects=[line("essence", 1), line("draw", 1)]),
        card("volatile-essence", "soul", set=S, copies=2,
             effects=[line("essence", 2), line("exile", 1, **{"from": "your_hand"})]),
        card("cinder-imp", "creature", ["red"], set=S, allegiance={"red": 1}, keywords=Keywords(rush=True),
             activate=[line("wound", 1)]),
        card("ember-acolyte", "creature", ["red"], set=S, allegiance={"red": 1},
             activate=[line("essence", 1), line("wound", 1, when=("red", 2))]),
        card("temple-guard", "creature", ["white"], set=S, allegiance={"white": 1},
             keywords=Keywords(guard=True), activate=[line("essence", 1)]),
        card("shrine-keeper", "creature", ["white"], set=S, allegiance={"white": 1},
             keywords=Keywords(aegis=1), activate=[line("wound", 1)]),
        card("grave-rat", "creature", ["black"], set=S, allegiance={"black": 1}, activate=[line("poison", 1)]),
        card("bone-servant", "creature", ["black"], set=S, allegiance={"black": 1},
             activate=[line("essence", 1)], demise=[line("poison", 1)]),
        card("rift-wisp", "creature", ["blue"], set=S, allegiance={"blue": 1},
             activate=[line("wound", 1), line("exhaust", 1, when=("blue", 3))]),
        card("veil-scribe", "creature", ["blue"], set=S, allegiance={"blue": 1}, activate=[line("draw", 1)]),
    ]


def _recruits() -> list[Card]:
    C = "creature"
    return [
        # Red: Wound, Rush (20)
        card("kindle", "spell", ["red"], cost=1, copies=3, allegiance={"red": 1},
             effects=[line("essence", 1), line("wound", 1)]),
        card("ash-runner", C, ["red"], cost=2, copies=3, allegiance={"red": 1}, keywords=Keywords(rush=True),
             activate=[line("wound", 1), line("wound", 1, when=("red", 3))]),
        card("flame-lash", "spell", ["red"], cost=2, copies=3, allegiance={"red": 1}, effects=[line("wound", 2)]),
        card("war-drummer", C, ["red"], cost=3, copies=3, allegiance={"red": 2},
             activate=[line("wound", 1), line("allegiance", 1, faction="red")]),
        card("feed-the-flames", "spell", ["red"], cost=3, copies=2, allegiance={"red": 2},
             effects=[line("sacrifice", 1), line("wound", 4)]),
        card("pyre-berserker", C, ["red"], cost=4, copies=2, allegiance={"red": 2}, keywords=Keywords(rush=True),
             activate=[line("wound", 2)], demise=[line("wound", 2, timing="immediately")]),
        card("backdraft", "trap", ["red"], cost=3, copies=1, allegiance={"red": 2},
             trap=TrapSpec("each_time", "activate"), effects=[line("wound", 1)]),
        card("burning-hand", "trap", ["red"], cost=4, copies=1, allegiance={"red": 2},
             trap=TrapSpec("when", "summon"), effects=[line("wound", 3)]),
        card("inferno", "spell", ["red"], cost=6, copies=2, allegiance={"red": 4},
             effects=[line("unblockable_wound", 3), line("wound", 2, when=("red", 5))]),
        # White: Guard, Aegis, protection (20)
        card("prayer", "spell", ["white"], cost=1, copies=3, allegiance={"white": 1},
             effects=[line("essence", 1), line("allegiance", 1)]),
        card("oathsworn-shieldbearer", C, ["white"], cost=2, copies=3, allegiance={"white": 1},
             keywords=Keywords(guard=True), activate=[line("essence", 2)]),
        card("divine-shield", "trap", ["white"], cost=2, copies=1, allegiance={"white": 1},
             trap=TrapSpec("none"), effects=[line("divine_shield")]),
        card("radiant-lancer", C, ["white"], cost=3, copies=3, allegiance={"white": 2},
             activate=[line("wound", 2), line("draw", 1, when=("white", 3), may=True)]),
        card("sanctuary-warden", C, ["white"], cost=4, copies=3, allegiance={"white": 2},
             keywords=Keywords(aegis=2), activate=[line("allegiance", 1, faction="white")]),
        card("anointing-of-souls", "trap", ["white"], cost=3, copies=1, allegiance={"white": 2},
             trap=TrapSpec("none"), effects=[line("protect_creatures")]),
        card("judgement", "spell", ["white"], cost=4, copies=3, allegiance={"white": 2},
             effects=[line("destroy", 1), line("wound", 2, when=("white", 4))]),
        card("seraph", C, ["white", "red"], cost=6, copies=3, allegiance={"white": 3, "red": 1},
             keywords=Keywords(aegis=1, guard=True),
             activate=[line("wound", 3)],
             triggers=[Trigger("cast", "you", (line("essence", 1),))]),
        # Black: Poison, Destroy, Sacrifice (20)
        card("grave-tithe", "spell", ["black"], cost=1, copies=3, allegiance={"black": 1},
             effects=[line("poison", 1), line("discard", 1, when=("black", 3))]),
        card("plague-rat", C, ["black"], cost=2, copies=3, allegiance={"black": 1},
             activate=[line("poison", 1)], demise=[line("poison", 1)]),
        card("last-breath", "trap", ["black"], cost=3, copies=1, allegiance={"black": 2},
             trap=TrapSpec("each_time", "destroy"), effects=[line("poison", 1)]),
        card("death-knell", "spell", ["black"], cost=3, copies=3, allegiance={"black": 2},
             effects=[line("destroy", 1, up_to=True), line("poison", 2, when=("black", 4))]),
        card("ossuary-sentinel", C, ["black"], cost=3, copies=3, allegiance={"black": 2},
             keywords=Keywords(guard=True), activate=[line("sacrifice", 1), line("unblockable_wound", 3)],
             demise=[line("recover", 1, card="creature", up_to=True)]),
        card("call-from-the-grave", "trap", ["black"], cost=5, copies=1, allegiance={"black": 3},
             trap=TrapSpec("when", "summon"), effects=[line("destroy", 1, target="that")]),
        card("lich", C, ["black", "blue"], cost=6, copies=3, allegiance={"black": 3, "blue": 1},
             activate=[line("poison", 2), line("exile", 1, **{"from": "opponent_discard"})],
             triggers=[Trigger("destroy", "opponent", (line("draw", 1),))]),
        card("soul-harvest", "spell", ["black"], cost=4, copies=3, allegiance={"black": 3},
             effects=[line("sacrifice", 1), line("poison", 3), line("essence", 2)]),
        # Blue: draw, exile, Rift, tempo (20)
        card("insight", "spell", ["blue"], cost=1, copies=3, allegiance={"blue": 1},
             effects=[line("draw", 2), line("essence", 1, when=("blue", 3))]),
        card("tide-caller", C, ["blue"], cost=2, copies=3, allegiance={"blue": 1},
             activate=[line("exhaust", 1), line("draw", 1, timing="after_effects")]),
        card("mind-snare", "trap", ["blue"], cost=3, copies=1, allegiance={"blue": 2},
             trap=TrapSpec("when", "cast"), effects=[line("discard", 1), line("draw", 1)]),
        card("rift-walker", C, ["blue"], cost=3, copies=3, allegiance={"blue": 2},
             activate=[line("rift", 1, up_to=True), line("wound", 1)]),
        card("banish", "spell", ["blue"], cost=4, copies=3, allegiance={"blue": 2},
             effects=[line("exile", 1, **{"from": "opponent_creature"}), line("draw", 1)]),
        card("mirror-veil", "trap", ["blue"], cost=3, copies=1, allegiance={"blue": 2},
             trap=TrapSpec("each_time", "buy"), effects=[line("draw", 1)]),
        card("tempest", "spell", ["blue"], cost=5, copies=3, allegiance={"blue": 3},
             effects=[line("bounce", 2, up_to=True), line("wound", 2)]),
        card("archivist", C, ["blue", "white"], cost=6, copies=3, allegiance={"blue": 3, "white": 1},
             keywords=Keywords(aegis=1), activate=[line("draw", 2), line("recover", 1, card="spell")],
             end_of_turn=[line("essence", 1)]),
    ]


def _rites() -> list[Card]:
    R = "rite"
    return [
        card("rite-of-the-blaze", R, ["red"], set=R, triggers=[Trigger("cast", "you", (line("wound", 1),))]),
        card("rite-of-dawn", R, ["white"], set=R, end_of_turn=[line("draw", 1)]),
        card("rite-of-the-grave", R, ["black"], set=R,
             triggers=[Trigger("destroy", "opponent", (line("poison", 1),))]),
        card("rite-of-the-tide", R, ["blue"], set=R, end_of_turn=[line("essence", 1), line("draw", 1)]),
    ]


def sample_database() -> CardDatabase:
    """The sample game (80 recruitment cards, 4 starter decks of 10, 4 Rites)."""
    factions = [Faction(id=f, name={"en": f.title(), "fr": f.title()}, color="#000000", icon="x",
                        identity={"en": "", "fr": ""}) for f in FACTIONS]
    db = CardDatabase(factions=factions, cards=_starters() + _recruits() + _rites())
    assert len(db.recruit_pool()) == 80, len(db.recruit_pool())
    return db
