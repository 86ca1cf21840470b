"""A small books project: the shipped game with a few paragraphs of prose per book, for the book tests
about a mechanism (incremental rebuilds, errors, I/O, drafts, composing once) rather than the shipped
books' content.

Its four books (rulebook and reference, English and French) are four pages each, forge's cover, back
cover and extra pages included: the English rulebook builds in 2.2 s of CPU instead of 7.4 s.
The cards, locales, strings, stylesheet, rulings and example game are the shipped ones, so a test may
edit a card of the game as it would in the real project; only the prose is short
(``tests/data/minibooks``). The rulebooks name a creature (Carrion Crow), a spell (Kindle) and a trap
(Burning Hand) under "## Spells" / "## Sorts", and end with a credits block; the references end with
the glossary ("## Glossary" / "## Glossaire").
"""
from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import copy_project

#: The short prose of the four books, as committed test data.
MINI_PROSE = Path(__file__).resolve().parents[1] / "data" / "minibooks"
#: The cards the short rulebooks name, by id.
MINI_CARDS = ("kindle", "carrion-crow", "burning-hand")


def mini_project(target: Path) -> Path:
    """A copy of the shipped project (cards, locales, templates, docs) at ``target`` whose books' prose
    is the short one; safe to modify."""
    copy_project(target)
    for prose in sorted(MINI_PROSE.glob("*.md")):
        shutil.copyfile(prose, target / "templates" / "books" / prose.name)
    return target
