"""The effect vocabulary: every verb, keyword, trigger and event a card may use.

This module is the contract between the card database, the JSON Schema, the
printed-text compiler (``forge.text.cardtext``) and the rules engine (``forge.engine``).
It is pure data: adding a verb here makes it known to the schema and the
validator; the engine and the phrase templates in ``locales/`` must then learn it
(tests check that every verb has a handler and a phrase in each language).

An effect line in a card file is a mapping with exactly one verb key, plus
optional modifiers::

    - wound: 3                      # Wound 3
    - if: {black: 3}                # 3 Black: Poison 2
      poison: 2
    - may: true                     # You may draw 1.
      draw: 1
    - exile: {n: 2, from: your_hand, up_to: true}
    - destroy: {target: that}       # Destroy that creature (trap reacting to a summon)

A scalar verb value is shorthand for ``{n: value}``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

FACTIONS: tuple[str, ...] = ("red", "white", "black", "blue")
LANGUAGES: tuple[str, ...] = ("en", "fr")
#: CLDR's cardinal rule for "one" in each language (English: 1 only; French: 0 and 1); the rest is "other".
_PLURAL_ONE = {"en": lambda n: n == 1, "fr": lambda n: 0 <= n < 2}


def plural_category(lang: str, n: int) -> str:
    """``"one"`` or ``"other"``: the form a count takes in ``lang`` ("1 card", « 0 carte », "0 cards")."""
    return "one" if _PLURAL_ONE.get(lang, _PLURAL_ONE["en"])(n) else "other"
CARD_TYPES: tuple[str, ...] = ("soul", "creature", "spell", "trap", "rite")
CARD_SETS: tuple[str, ...] = ("starter", "recruit", "rite")

#: Allegiance, thresholds and requirement values are within 1..MAX_ALLEGIANCE.
MAX_ALLEGIANCE = 6


@dataclass(frozen=True)
class Param:
    """One parameter of a verb: its name, allowed values and default."""

    name: str
    kind: str  # "int" | "enum" | "bool"
    default: object = None
    choices: tuple[str, ...] = ()
    minimum: int = 1
    maximum: int = 20
    required: bool = False


@dataclass(frozen=True)
class Verb:
    """An effect verb.

    ``keyword`` is the rulebook keyword the verb prints as (None for plain verbs
    such as ``draw``). ``cost`` verbs are paid at step 4 of a played card, never
    conditionally. ``targets`` tells which zone the verb chooses cards from, which
    the engine uses to list legal options and the validator to check ``target``.
    """

    name: str
    params: tuple[Param, ...]
    keyword: str | None = None
    cost: bool = False
    summary: str = ""
    accepts_up_to: bool = False
    main: str = "n"  # the parameter a scalar value stands for

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


N = Param("n", "int", default=1, minimum=1, maximum=20)
TARGET = Param("target", "enum", default="choice", choices=("choice", "that"))
UP_TO = Param("up_to", "bool", default=False)

#: Zones an Exile effect may take cards from.
EXILE_ZONES = ("opponent_creature", "opponent_discard", "your_hand", "your_discard")
#: Where a Rift effect or a recovered card goes.
RETURN_ZONES = ("hand", "discard")
#: Which cards a recover effect may take back from your discard pile.
CARD_FILTERS = ("any", "creature", "spell", "trap")
ALLEGIANCE_CHOICES = FACTIONS + ("any",)

VERBS: dict[str, Verb] = {
    v.name: v
    for v in (
        Verb("essence", (N,), summary="Gain N soul essence (printed as N Soul icons)."),
        Verb("wound", (N,), keyword="wound",
             summary="Deal N damage to the opposing commander; Aegis, Divine Shield and Guard apply."),
        Verb("unblockable_wound", (N,), keyword="unblockable_wound",
             summary="Deal N damage to the opposing commander; no protection applies."),
        Verb("poison", (N,), keyword="poison",
             summary="Give the opposing commander N poison counters."),
        Verb("draw", (N,), summary="Draw N cards, reshuffling your discard pile when needed."),
        Verb("discard", (N,), keyword="discard",
             summary="The opponent discards N cards from hand; the victim chooses."),
        Verb("destroy", (N, TARGET, UP_TO), keyword="destroy", accepts_up_to=True,
             summary="Destroy N opposing creatures of your choice (or the creature of the triggering event)."),
        Verb("sacrifice", (N,), keyword="sacrifice", cost=True,
             summary="Cost: destroy N of your own creatures, paid in full at step 4."),
        Verb("exile", (N, Param("from", "enum", default="opponent_creature", choices=EXILE_ZONES), TARGET, UP_TO),
             keyword="exile", accepts_up_to=True,
             summary="Put N cards from the given zone into the shared exile pile; nothing triggers."),
        Verb("rift", (N, Param("to", "enum", default="hand", choices=RETURN_ZONES), UP_TO),
             keyword="rift", accepts_up_to=True,
             summary="Take N cards from the exile pile; they now belong to you."),
        Verb("allegiance", (N, Param("faction", "enum", default="any", choices=ALLEGIANCE_CHOICES)),
             keyword="allegiance",
             summary="Gain N allegiance, in the given faction or split as you choose; beyond 6 is lost."),
        Verb("recover", (N, Param("card", "enum", default="any", choices=CARD_FILTERS), UP_TO),
             accepts_up_to=True,
             summary="Return N cards of the given kind from your discard pile to your hand."),
        Verb("exhaust", (N, TARGET, UP_TO), accepts_up_to=True,
             summary="Exhaust N opposing ready creatures of your choice."),
        Verb("bounce", (N, TARGET, UP_TO), accepts_up_to=True,
             summary="Return N opposing creatures to their owner's hand."),
        Verb("divine_shield", (), keyword="divine_shield", main="",
             summary="Until the end of the turn, each Wound effect aimed at you is reduced by 1 (after Aegis)."),
        Verb("protect_creatures", (), main="",
             summary="Until the end of the turn, your creatures cannot be destroyed."),
    )
}

#: Modifiers an effect line may carry next to its verb.
LINE_MODIFIERS: tuple[str, ...] = ("if", "may", "timing", "text")
#: "immediately" acts at once instead of waiting; "after_effects" waits for the
#: end of the card or activation (rulebook, Chains 5).
TIMINGS: tuple[str, ...] = ("immediately", "after_effects")

#: Creature keywords (passive or Guard). Aegis takes a value.
KEYWORDS: dict[str, str] = {
    "guard": "Guard: during the opponent's turn, exhaust this ready creature to cancel one Wound effect; it is then destroyed.",
    "aegis": "Aegis X: each Wound effect aimed at you is reduced by X; only the strongest Aegis applies.",
    "rush": "Rush: enters ready and can be activated the turn it is summoned.",
}

#: Events that "each time" triggers (creatures, Rites, traps) and "when" traps react to.
EVENTS: dict[str, str] = {
    "summon": "a creature is summoned",
    "cast": "a spell is cast",
    "activate": "a creature's ability is activated",
    "play_soul": "a Soul card is played",
    "buy": "a card is bought",
    "destroy": "a creature is destroyed",
    "wound": "Wound damage is dealt to a commander",
    "allegiance": "allegiance is raised",
}
#: Whose action an event must be: the owner of the trigger ("you") or the other player.
EVENT_ACTORS: tuple[str, ...] = ("you", "opponent")
#: Kinds of trap (rulebook, Traps): no trigger, "each time…", "when…".
TRAP_KINDS: tuple[str, ...] = ("none", "each_time", "when")

#: Card sections holding effect lines, and the card types allowed to have them.
SECTIONS: dict[str, tuple[str, ...]] = {
    "effects": ("soul", "spell", "trap"),
    "activate": ("creature",),
    "demise": ("creature",),
    "end_of_turn": ("creature", "rite"),
}
#: The order in which a card's sections are printed (rulebook, Reading the text box): after ⟳
#: "every following line, conditional lines included, is part of the same activation, up to a
#: Demise line", so everything that is not the activation comes before it and Demise comes last.
PRINTED_ORDER: tuple[str, ...] = ("keywords", "effects", "triggers", "end_of_turn", "activate", "demise")
#: Sections whose lines are triggered (they wait; rulebook Chains 2).
TRIGGERED_SECTIONS: tuple[str, ...] = ("demise", "end_of_turn", "triggers")


@dataclass(frozen=True)
class Threshold:
    faction: str
    n: int


@dataclass(frozen=True)
class EffectLine:
    """One printed line of rules text, as the engine executes it."""

    verb: str
    args: dict = field(default_factory=dict, hash=False, compare=True)
    threshold: Threshold | None = None
    may: bool = False
    timing: str | None = None
    override: dict | None = field(default=None, hash=False)  # {"en": ..., "fr": ...}

    def arg(self, name: str):
        """The value of a parameter, or the verb's default for it."""
        if name in self.args:
            return self.args[name]
        p = VERBS[self.verb].param(name)
        return p.default if p else None

    @property
    def n(self) -> int:
        return int(self.arg("n") or 0)

    @property
    def optional(self) -> bool:
        return self.may or bool(self.arg("up_to"))
