"""The engine's log phrases, per language (card names come from ``card.name[lang]``)."""
from __future__ import annotations

import re

from ..vocabulary import plural_category

#: Faction colour names as the logs print them.
FACTION_NAMES: dict[str, dict[str, str]] = {
    "en": {"red": "Red", "white": "White", "black": "Black", "blue": "Blue"},
    "fr": {"red": "Rouge", "white": "Blanc", "black": "Noir", "blue": "Bleu"},
}

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "player": "Player {n}",
        "setup": "Setup: {p0} plays {f0}, {p1} plays {f1}; {first} goes first{expert}.",
        "expert": " (expert variant)",
        "turn": "— Turn {turn}: {player} —",
        "poison_damage": "{player} takes {n} poison damage.",
        "essence": "{player} gains {n} soul essence.",
        "play": "{player} plays {card}.",
        "summon": "{player} summons {card}.",
        "activate": "{player} activates {card}.",
        "buy": "{player} buys {card} for {n}.",
        "trap": "{player} springs the trap {card} and draws a card.",
        "allegiance": "{player}'s {faction} allegiance rises to {n}.",
        "wound": "{player} deals {n} Wound damage to {target}.",
        "prevented": "The Wound aimed at {player} is reduced to 0.",
        "guard": "{player} guards with {card}: the Wound is cancelled.",
        "poison": "{player} gets {n} poison {n|counter|counters}.",
        "draw": "{player} draws {n} {n|card|cards}.",
        "reshuffle": "{player} shuffles their discard pile into a new deck ({n} {n|card|cards}).",
        "discard": "{player} discards {card}.",
        "destroy": "{card} is destroyed.",
        "exile": "{card} is exiled.",
        "bounce": "{card} returns to its owner's hand.",
        "rift": "{player} takes {card} back from the exile pile.",
        "recover": "{player} returns {card} to their hand.",
        "exhaust": "{card} is exhausted.",
        "keep": "{player} keeps {n} {n|card|cards} and discards {m}.",
        "shield": "{player} is under a Divine Shield until the end of the turn.",
        "protect": "{player}'s creatures cannot be destroyed until the end of the turn.",
        "skip": "{player} skips a line of {card} (allegiance too low).",
        "rite": "{player} takes {card}.",
        "set_aside": "{player} sets aside {card}.",
        "win": "{player} wins.",
        "capped": "The game is stopped: {reason} cap reached.",
        "decision": "  [{player} chooses {action}]",
    },
    "fr": {
        "player": "Joueur {n}",
        "setup": "Mise en place : {p0} joue {f0}, {p1} joue {f1} ; {first} commence{expert}.",
        "expert": " (variante experte)",
        "turn": "— Tour {turn} : {player} —",
        "poison_damage": "{player} subit {n} {n|dégât|dégâts} de poison.",
        "essence": "{player} gagne {n} {n|essence|essences} d'âme.",
        "play": "{player} joue {card}.",
        "summon": "{player} invoque {card}.",
        "activate": "{player} active {card}.",
        "buy": "{player} achète {card} pour {n}.",
        "trap": "{player} déclenche le piège {card} et pioche une carte.",
        "allegiance": "L'allégeance {faction} de {player} monte à {n}.",
        "wound": "{player} inflige {n} {n|dégât|dégâts} de Blessures à {target}.",
        "prevented": "Les Blessures visant {player} sont réduites à 0.",
        "guard": "{player} garde avec {card} : les Blessures sont annulées.",
        "poison": "{player} reçoit {n} {n|marqueur|marqueurs} de poison.",
        "draw": "{player} pioche {n} {n|carte|cartes}.",
        "reshuffle": "{player} mélange sa défausse pour former une nouvelle pioche ({n} {n|carte|cartes}).",
        "discard": "{player} défausse {card}.",
        "destroy": "{card} est détruite.",
        "exile": "{card} est exilée.",
        "bounce": "{card} retourne dans la main de son propriétaire.",
        "rift": "{player} reprend {card} dans la pile d'exil.",
        "recover": "{player} reprend {card} en main.",
        "exhaust": "{card} est épuisée.",
        "keep": "{player} garde {n} {n|carte|cartes} et en défausse {m}.",
        "shield": "{player} est protégé par un Bouclier Divin jusqu'à la fin du tour.",
        "protect": "Les créatures de {player} ne peuvent pas être détruites jusqu'à la fin du tour.",
        "skip": "{player} saute une ligne de {card} (allégeance insuffisante).",
        "rite": "{player} prend {card}.",
        "set_aside": "{player} écarte {card}.",
        "win": "{player} gagne.",
        "capped": "La partie est arrêtée : limite de {reason} atteinte.",
        "decision": "  [{player} choisit {action}]",
    },
}


_PLACEHOLDER = re.compile(r"\{(\w+)(?:\|([^|{}]*)\|([^{}]*))?\}")


def phrase(template: str, lang: str = "en", **values) -> str:
    """Fill ``{name}`` and ``{n|singular|plural}`` placeholders, by ``lang``'s plural rules
    ("0 cards", « 0 carte »)."""
    def sub(m: re.Match) -> str:
        name, singular, plural = m.groups()
        if singular is None:
            return str(values[name])
        return singular if plural_category(lang, int(values[name])) == "one" else plural

    return _PLACEHOLDER.sub(sub, template)
