"""Words: printed card text, the game log in sentences, locale tables, verbatim code spans.

Beside the engine (the log narrates its events), above the card database.
"""
