"""A small copy of the game for the red-team tests whose attack is on a mechanism (links, manifests, special files
under output/), not on the shipped game's content: two cards and a two-section rulebook.

Rendering its cards costs about a second of CPU where the shipped game's cost seven (issue 26 §4). Its cards pass
the render's gate; they do not make a whole game (validate counts the rulebook's 80 recruitment cards), so a
book of it renders only as a DRAFT (``--force``).
"""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: The cards kept, by file: a recruitment card and a starter Soul.
KEPT = {"red.yaml": ("kindle",), "starter.yaml": ("lost-soul",)}
RULEBOOK_BODY = "# Rules of play\n\n{game} is a deckbuilding game.\n\n## Goal\n\nReduce your opponent's health to 0.\n"


def small_game(target: Path) -> Path:
    """The small game in ``target`` (the shipped locales, schema and templates, the factions, the cards of
    ``KEPT``); returns ``target``."""
    for part in ("locales", "schema", "templates"):
        shutil.copytree(REPO / part, target / part)
    (target / "cards").mkdir()
    shutil.copy(REPO / "cards" / "factions.yaml", target / "cards" / "factions.yaml")
    for name, ids in KEPT.items():  # cut as text: the cards read as written in the shipped files
        head, *cards = (REPO / "cards" / name).read_text(encoding="utf-8").split("\n  - id: ")
        kept = [card.rstrip("\n") + "\n" for card in cards if card.split("\n", 1)[0] in ids]
        assert len(kept) == len(ids), name
        (target / "cards" / name).write_text(head + "".join(f"\n  - id: {card}" for card in kept), encoding="utf-8")
    rulebook = target / "templates" / "books" / "rulebook.en.md"
    _, front, _ = rulebook.read_text(encoding="utf-8").split("---\n", 2)
    rulebook.write_text(f"---\n{front}---\n{RULEBOOK_BODY}", encoding="utf-8")
    return target
