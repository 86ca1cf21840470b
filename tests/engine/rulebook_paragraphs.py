"""Every paragraph of the rulebook, with a stable id, so each rule can be traced to its tests.

The rulebook exists in English and French with the same content. Its extracted text lost its
headings, so ``section`` names them here. ``en`` and ``fr`` are each paragraph's first words,
exactly as printed, so a reader can find it in either book.

A test pins paragraphs with ``@pytest.mark.rule("<id>", ...)``; ``test_rule_traceability.py``
fails while a rule paragraph has no test, and ``python -m tests.engine.rule_coverage`` writes
``docs/rule-coverage.md``.

``PARAGRAPHS`` are the rule paragraphs (bullets and numbered items that state their own rule are
paragraphs of their own). ``NOT_RULES`` are the paragraphs that state no rule the engine could
play (a title, a heading of the items that follow, a pointer to the Reference, the credits), each
with the reason.
"""
from __future__ import annotations

from typing import NamedTuple


class Paragraph(NamedTuple):
    id: str
    section: str
    en: str
    fr: str
    #: The first words as forge's own rulebook prints them, where its copyedit rewords the seed's (a heading's
    #: words no longer repeated as a bold lead-in, issue 24 §4); empty: the same words.
    book_en: str = ""
    book_fr: str = ""

    def in_book(self, lang: str) -> str:
        return getattr(self, f"book_{lang}") or getattr(self, lang)


class NotRule(NamedTuple):
    id: str
    section: str
    en: str
    fr: str
    why: str


INTRO = "Goal, factions, box"
SETUP = "Setup"
TEXT_BOX = "Reading the text box"
ESSENCE = "Soul essence"
ALLEGIANCE = "Allegiance"
TURN = "The turn"
STEPS = "The six steps of a played card or activation"
CREATURES = "Creatures"
SPELLS = "Spells"
TRAPS = "Traps"
VOCABULARY = "Vocabulary"
PRINCIPLES = "General principles"
CHAINS = "Chains"
WOUND = "Wound protection"
RITES = "Rites"
END = "End of the game"
EXPERT = "Expert variant"

P = Paragraph

PARAGRAPHS: tuple[Paragraph, ...] = (
    # -- Goal, factions, box ---------------------------------------------------------------
    P("intro", INTRO, "Rift Commanders is a deckbuilding game for 2 players",
      "Rift Commanders est un jeu de deckbuilding pour 2 joueurs"),
    P("goal", INTRO, "Goal: reduce your opponent's health to 0.",
      "But du jeu : réduire à 0 les points de vie de votre adversaire.",
      "To win, reduce your opponent's health to 0.", "Pour gagner, réduisez à 0 les points de vie de votre adversaire."),
    P("factions", INTRO, "Four factions clash:", "Quatre factions s'affrontent :"),
    P("factions-allegiance", INTRO, "Your starting faction is not a prison.",
      "Votre faction de départ n'est pas une prison."),
    P("box", INTRO, "The box contains the 4 starter decks, one per faction",
      "La boîte contient de quoi former les 4 decks de départ"),
    P("exile-pile", INTRO, "Exile pile: a shared face-up pile where every exiled card goes.",
      "Pile d'exil : une pile commune, face visible, où vont toutes les cartes exilées."),
    # -- Setup -------------------------------------------------------------------------------
    P("setup-1", SETUP, "Pick a commander.", "Choisissez un commandant."),
    P("setup-2", SETUP, "Build your starter deck (10 cards)", "Formez votre deck de départ (10 cartes)"),
    P("setup-3", SETUP, "Set your counters: 40 health", "Réglez vos compteurs : 40 points de vie"),
    P("setup-4", SETUP, "Prepare the recruitment zone", "Préparez la zone de recrutement"),
    P("setup-5", SETUP, "Place the 4 Rites face up", "Posez les 4 Rites face visible"),
    P("setup-6", SETUP, "Pick the first player at random", "Choisissez le premier joueur au hasard"),
    P("setup-7", SETUP, "Draw: 3 cards for the first player, 5 for the second.",
      "Piochez : 3 cartes pour le premier joueur, 5 pour le second."),
    # -- Reading the text box ------------------------------------------------------------------
    P("text-box-activate", TEXT_BOX, "⟳: what follows is an activated ability.",
      "⟳ : la suite est une capacité activable."),
    P("text-box-demise", TEXT_BOX, "Demise (tombstone): the effect triggers when the creature is destroyed.",
      "Trépas (pierre tombale) : l'effet se déclenche quand la créature est détruite."),
    P("text-box-conditional", TEXT_BOX, "Conditional line: a line that starts with a number",
      "Ligne conditionnelle : une ligne qui commence par un seuil chiffré"),
    P("text-box-soul", TEXT_BOX, "Soul icon (blue dot): each dot gives you 1 soul essence.",
      "Icône Âme (pastille bleue) : chaque pastille vous donne 1 essence d'âme."),
    P("text-box-optional", TEXT_BOX, "\"You may\", \"up to X\": the effect is optional.",
      "« Vous pouvez », « jusqu'à X » : l'effet est facultatif."),
    P("text-box-example", TEXT_BOX, "Example: a card that requires 2 Red icons and 1 White icon",
      "Exemple : une carte qui demande 2 icônes Rouge et 1 icône Blanc"),
    # -- Soul essence ----------------------------------------------------------------------------
    P("essence", ESSENCE, "Soul essence is used to buy cards and raise your allegiance.",
      "L'essence d'âme sert à acheter des cartes et à augmenter votre allégeance."),
    P("essence-free-play", ESSENCE, "Playing a card costs nothing.", "Jouer une carte ne coûte rien."),
    P("buying", ESSENCE, "Buying: pay the soul cost of a card in the recruitment zone",
      "Acheter : payez le coût en âme d'une carte de la zone de recrutement"),
    # -- Allegiance ------------------------------------------------------------------------------
    P("allegiance", ALLEGIANCE, "Allegiance measures your bond with each faction, from 0 to 6.",
      "L'allégeance mesure votre lien avec chaque faction, de 0 à 6."),
    P("allegiance-raise", ALLEGIANCE, "Once per turn, during the strategy phase, you may pay 1 essence",
      "Une fois par tour, pendant la phase stratégique, vous pouvez payer 1 essence"),
    P("allegiance-effects", ALLEGIANCE, "Allegiance X effects on cards are added on top of this action",
      "Les effets Allégeance X des cartes s'ajoutent à cette action"),
    P("allegiance-cap", ALLEGIANCE, "Any point beyond 6 in a faction is lost.",
      "Tout point au-delà de 6 dans une faction est perdu."),
    P("allegiance-checked", ALLEGIANCE, "Allegiance is checked once when you play a card",
      "L'allégeance est vérifiée une seule fois au moment de jouer une carte"),
    P("allegiance-threshold", ALLEGIANCE, "Threshold: on cards,", "Seuil chiffré : sur les cartes,"),
    # -- The turn ----------------------------------------------------------------------------------
    P("turn", TURN, "Each turn has three phases, always in this order",
      "Chaque tour comporte trois phases, toujours dans cet ordre"),
    P("initiation-1", TURN, "Poison: if you have at least one poison counter",
      "Poison : si vous avez au moins un marqueur de poison"),
    P("initiation-2", TURN, "If your health drops to 0, you are eliminated immediately",
      "Si vos points de vie tombent à 0, vous êtes éliminé immédiatement"),
    P("strategy", TURN, "You take the following actions as many times as you want",
      "Vous effectuez les actions suivantes autant de fois que vous le voulez"),
    P("strategy-soul", TURN, "Play a Soul card: gain the essence shown.",
      "Jouer une carte Âme : gagnez l'essence indiquée."),
    P("strategy-raise", TURN, "Raise your allegiance: 1 essence for +1 in a faction, once per turn.",
      "Augmenter votre allégeance : 1 essence pour +1 dans une faction, une fois par tour."),
    P("strategy-spell", TURN, "Cast a spell: resolve its effects, then put it in your discard pile.",
      "Jouer une magie : résolvez ses effets, puis placez-la dans votre défausse."),
    P("strategy-summon", TURN, "Summon a creature: put it on your battlefield, exhausted.",
      "Invoquer une créature : posez-la sur votre champ de bataille, épuisée."),
    P("strategy-activate", TURN, "Activate a creature: exhaust a ready creature and resolve its ⟳ ability.",
      "Activer une créature : épuisez une créature prête et résolvez sa capacité ⟳."),
    P("strategy-buy", TURN, "Buy cards from the recruitment zone.",
      "Acheter des cartes dans la zone de recrutement."),
    P("strategy-sequence", TURN, "An action only starts once the previous one is over",
      "Une action ne commence que lorsque la précédente est terminée"),
    P("cleanup", TURN, "No cards are played during this phase.",
      "On ne joue aucune carte pendant cette phase."),
    P("cleanup-1", TURN, "Ready all your creatures.", "Redressez toutes vos créatures."),
    P("cleanup-2", TURN, "Resolve \"end of your turn\" effects.", "Résolvez les effets « fin de votre tour »."),
    P("cleanup-3", TURN, "Unspent soul essence is lost.", "L'essence d'âme non dépensée est perdue."),
    P("cleanup-4", TURN, "Keep 0, 1 or 2 cards from your hand, your choice.",
      "Gardez 0, 1 ou 2 cartes de votre main, au choix."),
    P("cleanup-5", TURN, "Draw until you have 5 cards in hand.", "Piochez jusqu'à avoir 5 cartes en main."),
    P("cleanup-hand", TURN, "So during the opponent's turn, you hold the 5 cards of your next turn.",
      "Pendant le tour adverse, vous tenez donc en main les 5 cartes de votre prochain tour."),
    # -- The six steps -----------------------------------------------------------------------------
    P("six-steps", STEPS, "Every card played and every ability activated follows the same steps.",
      "Toute carte jouée et toute capacité activée suivent les mêmes étapes."),
    P("six-steps-1", STEPS, "Announce. Show the card or point at the creature.",
      "Annoncer. Montrez la carte ou désignez la créature."),
    P("six-steps-2", STEPS, "The card is played. It leaves your hand", "La carte est jouée. Elle quitte votre main"),
    P("six-steps-3", STEPS, "Opponent's window. Before anything resolves",
      "Fenêtre de l'adversaire. Avant toute résolution"),
    P("six-steps-4", STEPS, "Pay the cost. Every Sacrifice on the card is paid now, together",
      "Payer le coût. Tous les Sacrifices de la carte se paient maintenant, ensemble"),
    P("six-steps-5", STEPS, "Resolve. Read the lines from top to bottom.", "Résoudre. Lisez les lignes de haut en bas."),
    P("six-steps-6", STEPS, "Finish. A spell goes to the discard pile", "Terminer. Une magie va dans la défausse"),
    P("six-steps-summon-trap", STEPS, "A summon has nothing to resolve", "Une invocation n'a rien à résoudre"),
    # -- Creatures ---------------------------------------------------------------------------------
    P("creatures-summon", CREATURES, "Summon: a summoned creature enters your battlefield exhausted",
      "Invoquer : une créature invoquée arrive sur votre champ de bataille épuisée"),
    P("creatures-activate", CREATURES, "Activate: a ready (upright) creature can be activated once per turn",
      "Activer : une créature prête (droite) peut être activée une fois par tour"),
    P("creatures-rush", CREATURES, "Rush: a creature with Rush enters ready",
      "Ruée : une créature avec Ruée arrive prête"),
    P("creatures-ready", CREATURES, "Ready: your creatures are readied at the end of your turn.",
      "Redresser : vos créatures se redressent à la fin de votre tour."),
    P("creatures-passive", CREATURES, "Passive abilities (Aegis, Rush): they work while the creature is in play",
      "Capacités passives (Égide, Ruée) : elles agissent tant que la créature est en jeu"),
    P("creatures-destroyed", CREATURES, "Destroyed: the creature goes straight to its owner's discard pile",
      "Détruite : la créature va aussitôt dans la défausse de son propriétaire"),
    P("creatures-new-card", CREATURES, "A card that changes zones is a new card.",
      "Une carte qui change de zone est une nouvelle carte."),
    # -- Spells ------------------------------------------------------------------------------------
    P("spells", SPELLS, "A spell is cast during your strategy phase, if you have the required allegiance.",
      "Une magie se joue pendant votre phase stratégique, si vous avez l'allégeance requise."),
    # -- Traps -------------------------------------------------------------------------------------
    P("traps", TRAPS, "A trap (wolf icon) is played from your hand during your opponent's turn",
      "Un piège (icône loup) se joue depuis votre main pendant le tour de votre adversaire"),
    P("traps-none", TRAPS, "No trigger (Divine Shield, Anointing of Souls): play it when nothing is resolving",
      "Sans déclencheur (Bouclier Divin, Onction des Âmes) : jouez-le quand rien ne se résout"),
    P("traps-each-time", TRAPS, "\"Opponent's turn: each time…\": same timing.",
      "« Tour adverse : chaque fois que… » : même moment."),
    P("traps-when", TRAPS, "\"Opponent's turn: when…\": play it right after the described event",
      "« Tour adverse : quand… » : jouez-le juste après l'événement décrit"),
    P("traps-several", TRAPS, "You can play several traps during the same opponent's turn",
      "Vous pouvez jouer plusieurs pièges pendant le même tour adverse"),
    P("traps-keeping", TRAPS, "Keeping cards in hand at the end of your turn (up to 2)",
      "Garder des cartes en main à la fin de votre tour (jusqu'à 2)"),
    # -- Vocabulary --------------------------------------------------------------------------------
    P("vocabulary", VOCABULARY, "Only commanders have health.", "Seuls les commandants ont des points de vie."),
    P("destroy-exile", VOCABULARY, "Destroying and exiling: a destroyed creature goes to its owner's discard pile",
      "Détruire et exiler : une créature détruite va dans la défausse de son propriétaire",
      "A destroyed creature goes to its owner's discard pile",
      "Une créature détruite va dans la défausse de son propriétaire"),
    # -- General principles ------------------------------------------------------------------------
    P("principle-1", PRINCIPLES, "The card text takes precedence over the rulebook.",
      "Le texte de la carte prime sur le livret."),
    P("principle-2", PRINCIPLES, "One duel, two players.", "Un duel, deux joueurs."),
    P("principle-3", PRINCIPLES, "Every effect is mandatory, unless it says",
      "Tout effet est obligatoire, sauf s'il dit"),
    P("principle-4", PRINCIPLES, "As much as possible.", "Au maximum possible."),
    P("principle-5", PRINCIPLES, "No action during a resolution.", "Pas d'action pendant une résolution."),
    P("principle-6", PRINCIPLES, "Who chooses.", "Qui choisit."),
    P("principle-7", PRINCIPLES, "Public information.", "Informations publiques."),
    P("principle-8", PRINCIPLES, "Immediate end.", "Fin immédiate."),
    # -- Chains ------------------------------------------------------------------------------------
    P("chains", CHAINS, "A card always resolves fully before anything else happens.",
      "Une carte se résout toujours en entier avant que quoi que ce soit d'autre ne se produise."),
    P("chains-1", CHAINS, "A card or activation resolves completely, effect by effect, from top to bottom.",
      "Une carte ou une activation se résout entièrement, effet par effet, de haut en bas."),
    P("chains-2", CHAINS, "Triggered effects wait.", "Les effets déclenchés attendent."),
    P("chains-3", CHAINS, "The active player goes first.", "Le joueur actif passe en premier."),
    P("chains-4", CHAINS, "A waiting effect always resolves, even if its source left play.",
      "Un effet en attente se résout toujours, même si sa source a quitté le jeu."),
    P("chains-5", CHAINS, "A card's text can make an exception.", "Le texte d'une carte peut faire exception."),
    P("chains-6", CHAINS, "Conditional lines are checked as they are read.",
      "Les lignes conditionnelles se vérifient en les lisant."),
    P("chains-7", CHAINS, "Guard, Aegis and Divine Shield are not triggered effects.",
      "Garde, Égide et Bouclier Divin ne sont pas des effets déclenchés."),
    # -- Wound protection --------------------------------------------------------------------------
    P("wound", WOUND, "Three things protect your commander against Wound",
      "Trois choses protègent votre commandant contre les Blessures"),
    P("wound-guard", WOUND, "⟳ Guard: during your opponent's turn, when a Wound effect targets you",
      "⟳ Garde : pendant le tour de votre adversaire, quand un effet de Blessures vous vise"),
    P("wound-aegis", WOUND, "Aegis X: while this creature is in play", "Égide X : tant que cette créature est en jeu"),
    P("wound-order-1", WOUND, "Aegis reduces the damage.", "L'Égide réduit les dégâts."),
    P("wound-order-2", WOUND, "Divine Shield, if active, reduces the remaining damage by 1 more.",
      "Bouclier Divin, s'il est actif, réduit encore les dégâts restants de 1."),
    P("wound-order-3", WOUND, "You decide whether to use a Guard to cancel what remains.",
      "Vous décidez si vous utilisez une Garde pour annuler ce qui reste."),
    P("wound-order-4", WOUND, "The remaining damage is dealt.", "Les dégâts restants sont infligés."),
    P("wound-zero", WOUND, "Damage cancelled or reduced to 0 is not dealt and triggers nothing.",
      "Des dégâts annulés ou réduits à 0 ne sont pas infligés et ne déclenchent rien."),
    # -- Rites -------------------------------------------------------------------------------------
    P("rites", RITES, "The first player to reach 6 allegiance in a faction takes that faction's Rite",
      "Le premier joueur qui atteint 6 d'allégeance dans une faction prend le Rite de cette faction"),
    P("rites-timing", RITES, "A Rite is taken the moment 6 is reached",
      "Un Rite est pris à l'instant où le 6 est atteint"),
    # -- End of the game ---------------------------------------------------------------------------
    P("defeat", END, "Defeat: a commander whose health drops to 0 loses immediately",
      "Défaite : un commandant dont les points de vie tombent à 0 perd immédiatement"),
    P("victory", END, "Victory: the commander still alive wins.", "Victoire : le commandant encore en vie gagne."),
    # -- Expert variant ----------------------------------------------------------------------------
    P("expert-1", EXPERT, "After setup and before the first turn, each player, starting with the first player",
      "Après la mise en place, et avant le premier tour, chaque joueur, en commençant par le premier joueur"),
    P("expert-2", EXPERT, "Each card set aside is replaced immediately by the top card of the recruit deck",
      "Chaque carte écartée est remplacée immédiatement par la carte du dessus de la pioche de recrutement"),
    P("expert-3", EXPERT, "When both players are done, shuffle the cards set aside into the recruit deck.",
      "Quand les deux joueurs ont fini, mélangez les cartes écartées dans la pioche de recrutement."),
    P("expert-scope", EXPERT, "This variant only affects the recruitment zone.",
      "Cette variante ne concerne que la zone de recrutement."),
)

NOT_RULES: tuple[NotRule, ...] = (
    NotRule("title", INTRO, "Rules of play", "Règles du jeu", "the book's title"),
    NotRule("traps-kinds", TRAPS, "There are three kinds of traps:", "Il existe trois sortes de pièges :",
            "the heading of traps-none, traps-each-time and traps-when"),
    NotRule("traps-list", TRAPS, "The 8 traps of the game:", "Les 8 pièges du jeu :",
            "a list of cards (lost in extraction); the count is the card database's, checked by forge validate "
            "(forge.carddb.rulebook.TRAPS)"),
    NotRule("traps-reference", TRAPS, "The clarifications for each trap are in the Reference.",
            "Les précisions sur chaque piège sont dans la Référence.", "a pointer to the Reference"),
    NotRule("keywords-reference", VOCABULARY, "Each keyword has its full entry in the Reference.",
            "Chaque mot-clé a sa fiche complète dans la Référence.", "a pointer to the Reference"),
    NotRule("wound-order", WOUND, "Facing a Wound effect aimed at you:", "Face à un effet de Blessures qui vous vise :",
            "the heading of wound-order-1 to wound-order-4"),
    NotRule("expert", EXPERT, "For experienced players who want to depend less on the starting luck.",
            "Pour les joueurs confirmés, qui veulent moins dépendre du hasard de départ.",
            "who the variant is for; whether it is used is a setup option (expert=True)"),
    NotRule("credits", EXPERT, "Design: Benoît Morin.", "Conception : Benoît Morin.",
            "the credits (design, icons, fonts)"),
)

BY_ID: dict[str, Paragraph] = {p.id: p for p in PARAGRAPHS}

__all__ = ["BY_ID", "NOT_RULES", "NotRule", "PARAGRAPHS", "Paragraph"]
