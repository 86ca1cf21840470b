"""The play page's own words, in English and French (the log's come from forge.engine.phrases).

``{card}`` is a card's name in the page's language, ``{faction}`` a faction's,
``{n}``/``{k}`` counts; ``{n|one|many}`` picks the plural form as the logs do.
"""
from __future__ import annotations

from ..engine.phrases import phrase

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Rift Commanders — play",
        "you": "You", "ai": "AI", "player": "Player {n}",
        # prompts
        "main": "Your strategy phase: play cards, buy, raise an allegiance, or end the turn.",
        "window:idle": "It is your opponent's turn: you may spring a trap.",
        "window:step3": "Your opponent played {card}: you may spring a trap.",
        "window:step3_summon": "Your opponent acted: you may spring a trap.",
        "window:when": "You may spring a trap in answer.",
        "guard": "A Wound of {n} is coming at you: guard with a creature, or take it.",
        "pick:keep": "Cleanup: choose up to {k} {k|card|cards} to keep; the rest is discarded.",
        "pick:set_aside": "Expert setup: set aside up to {k} {k|card|cards} of the recruitment row.",
        "pick:allegiance": "{card}: choose a faction to gain 1 allegiance ({k} left).",
        "pick": "{card}: {text} — choose {k} more{optional}.",
        "optional": " (or stop)",
        "may": "{card}: you may {text}",
        "order": "Several effects wait: choose the one that resolves first.",
        "waiting": "{player} is deciding…",
        "over_win": "{player} wins the game.",
        "over_capped": "The game stopped: its {reason} cap was reached.",
        "over_error": "The game stopped: the rules engine failed ({error}).",
        # option labels
        "opt:play": "Play {card}", "opt:summon": "Summon {card}", "opt:activate": "Activate {card}",
        "opt:buy": "Buy {card} ({n} essence)", "opt:raise": "Raise {faction} allegiance (1 essence)",
        "opt:end": "End the turn", "opt:trap": "Spring the trap {card}", "opt:pass": "Play no trap",
        "opt:guard": "Guard with {card}", "opt:take": "Take the Wound ({n})",
        "opt:pick": "{card}", "opt:stop": "Stop choosing", "opt:keep_none": "Keep no more",
        "opt:faction": "{faction}", "opt:yes": "Yes", "opt:no": "No",
        "opt:order": "{card} first",
        # board
        "health": "Health", "poison": "Poison", "essence": "Essence", "allegiance": "Allegiance",
        "rite": "Rite", "no_rite": "no Rite yet", "hand": "Hand", "deck": "Deck", "discard": "Discard",
        "battlefield": "Battlefield", "played": "Played this turn", "row": "Recruitment zone",
        "recruit_deck": "Recruit deck", "exile": "Exile", "log": "Game log", "turn": "Turn {n}",
        "exhausted": "exhausted", "empty": "empty", "shield": "Divine Shield", "protect": "Creatures protected",
        "decision": "Your decision", "new_game": "New game", "record": "Download the record",
        "cards_in_hand": "{n} {n|card|cards} in hand",
        # the new-game form and the page
        "setup": "A new game", "mode": "Opponent", "mode_ai": "The AI", "mode_hotseat": "Hot-seat: two people, one screen",
        "your_faction": "Your faction (Player 1)", "other_faction": "Opponent's faction (Player 2)",
        "first": "Who goes first", "first_0": "Player 1", "first_1": "Player 2",
        "seed": "Deal number (empty: the game's number)", "expert": "Expert variant (set-asides at setup)",
        "start": "Start the game", "language": "Language", "opponent": "Opponent", "board": "Board",
        "cover": "{player}: it is your decision. Hand the screen over, then show the hand.", "reveal": "Show my hand",
        "error": "Refused: {reason}", "loading": "Loading…", "options": "Options",
        "keys": "Keys: Tab moves between options, Enter chooses; 1–9 choose an option directly.",
        "last_ai": "The AI's last moves are in the log.",
    },
    "fr": {
        "title": "Rift Commanders — jouer",
        "you": "Vous", "ai": "IA", "player": "Joueur {n}",
        "main": "Votre phase de stratégie : jouez des cartes, achetez, montez une allégeance ou finissez le tour.",
        "window:idle": "C’est le tour de votre adversaire : vous pouvez déclencher un piège.",
        "window:step3": "Votre adversaire a joué {card} : vous pouvez déclencher un piège.",
        "window:step3_summon": "Votre adversaire a agi : vous pouvez déclencher un piège.",
        "window:when": "Vous pouvez déclencher un piège en réponse.",
        "guard": "Des Blessures de {n} vous visent : gardez avec une créature, ou subissez-les.",
        "pick:keep": "Nettoyage : choisissez jusqu’à {k} {k|carte|cartes} à garder ; le reste est défaussé.",
        "pick:set_aside": "Mise en place experte : écartez jusqu’à {k} {k|carte|cartes} de la zone de recrutement.",
        "pick:allegiance": "{card} : choisissez une faction qui gagne 1 allégeance (encore {k}).",
        "pick": "{card} : {text} — choisissez-en encore {k}{optional}.",
        "optional": " (ou arrêtez)",
        "may": "{card} : vous pouvez — {text}",
        "order": "Plusieurs effets attendent : choisissez celui qui se résout d’abord.",
        "waiting": "{player} décide…",
        "over_win": "{player} gagne la partie.",
        "over_capped": "La partie est arrêtée : limite de {reason} atteinte.",
        "over_error": "La partie est arrêtée : le moteur de règles a échoué ({error}).",
        "opt:play": "Jouer {card}", "opt:summon": "Invoquer {card}", "opt:activate": "Activer {card}",
        "opt:buy": "Acheter {card} ({n} essence)", "opt:raise": "Monter l’allégeance {faction} (1 essence)",
        "opt:end": "Finir le tour", "opt:trap": "Déclencher le piège {card}", "opt:pass": "Ne pas jouer de piège",
        "opt:guard": "Garder avec {card}", "opt:take": "Subir les Blessures ({n})",
        "opt:pick": "{card}", "opt:stop": "Arrêter de choisir", "opt:keep_none": "Ne plus rien garder",
        "opt:faction": "{faction}", "opt:yes": "Oui", "opt:no": "Non",
        "opt:order": "{card} d’abord",
        "health": "Vie", "poison": "Poison", "essence": "Essence", "allegiance": "Allégeance",
        "rite": "Rite", "no_rite": "pas encore de Rite", "hand": "Main", "deck": "Pioche", "discard": "Défausse",
        "battlefield": "Champ de bataille", "played": "Jouées ce tour", "row": "Zone de recrutement",
        "recruit_deck": "Pioche de recrutement", "exile": "Exil", "log": "Journal de la partie", "turn": "Tour {n}",
        "exhausted": "épuisée", "empty": "vide", "shield": "Bouclier Divin", "protect": "Créatures protégées",
        "decision": "Votre décision", "new_game": "Nouvelle partie", "record": "Télécharger l’enregistrement",
        "cards_in_hand": "{n} {n|carte|cartes} en main",
        "setup": "Nouvelle partie", "mode": "Adversaire", "mode_ai": "L’IA", "mode_hotseat": "Chacun son tour : deux personnes, un écran",
        "your_faction": "Votre faction (Joueur 1)", "other_faction": "Faction adverse (Joueur 2)",
        "first": "Qui commence", "first_0": "Joueur 1", "first_1": "Joueur 2",
        "seed": "Numéro de donne (vide : le numéro de la partie)", "expert": "Variante experte (cartes écartées à la mise en place)",
        "start": "Commencer la partie", "language": "Langue", "opponent": "Adversaire", "board": "Plateau",
        "cover": "{player} : c’est votre décision. Passez l’écran, puis montrez la main.", "reveal": "Montrer ma main",
        "error": "Refusé : {reason}", "loading": "Chargement…", "options": "Options",
        "keys": "Clavier : Tab passe d’une option à l’autre, Entrée choisit ; 1 à 9 choisissent une option.",
        "last_ai": "Les derniers coups de l’IA sont dans le journal.",
    },
}
LANGS = tuple(WORDS)


def say(lang: str, key: str, **values) -> str:
    """The page's phrase ``key`` in ``lang``, filled."""
    return phrase(WORDS[lang][key], lang, **values)
