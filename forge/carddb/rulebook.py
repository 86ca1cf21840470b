"""Numbers the rulebook fixes about the game's contents (Setup, Traps, Rites).

``forge validate`` checks the card database against them; the books quote them.
"""

#: Setup 4: "shuffle the 80 recruitment cards".
RECRUIT_CARDS = 80
#: Traps: "The 8 traps of the game".
TRAPS = 8
#: Setup 5: "the 4 Rites", one per faction (Rites).
RITES = 4
#: Setup 2: "the 2 starter creatures of your faction".
STARTER_CREATURES_PER_FACTION = 2
#: Setup 2: a starter deck is 10 cards.
STARTER_DECK_SIZE = 10
#: Setup 2: "5 Lost Souls, 1 Essence Collector, 2 Volatile Essences".
STARTER_SOULS: dict[str, int] = {"lost-soul": 5, "essence-collector": 1, "volatile-essence": 2}
#: The three kinds of trap the rulebook describes, each used by at least one trap.
TRAP_KINDS_REQUIRED = ("none", "each_time", "when")
#: Traps the rulebook names (Setup, the opponent's window), by their English name.
NAMED_TRAPS = ("Divine Shield", "Anointing of Souls", "Call from the Grave", "Burning Hand")
#: Rites the rulebook names.
NAMED_RITES = ("Rite of the Blaze",)
