"""Translation: the inventory of every translatable string, parity checks, the termbase.

``inventory`` finds every string a translator edits, with a stable id, its file:line and
context; ``parity`` runs the check families of ``checks/`` over it; ``termbase`` holds
the game's terms in both languages. Nothing here prints or exits: the CLI lives in
``forge/commands``.
"""
