"""Regenerate the reference card images the render tests compare against.

    python -m tests.render.make_reference

Run it after an intended change to the card design, look at the new PNGs in
tests/render/reference/, and commit them with the change.
"""
from __future__ import annotations

from pathlib import Path

from forge.render.face import build_face
from forge.render.jobs import card_images
from forge.render.sheets import Back

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]
REFERENCE = Path(__file__).resolve().parent / "reference"
#: (file name, card id or back kind, language): one of each layout, in both languages.
CASES = [
    ("creature-en", "ember-whelp", "en"),
    ("spell-fr", "tide-turn", "fr"),
    ("trap-fr", "snare", "fr"),
    ("soul-en", "lost-wisp", "en"),
    ("rite-fr", "rite-of-sparks", "fr"),
    ("back-deck-en", "back:deck", "en"),
]
#: References are stored at half the print resolution to keep the repository small.
SCALE = 0.5


def items():
    db, bk = mini_db(), books()
    cards = db.by_id()
    out = []
    for _, ref, lang in CASES:
        if ref.startswith("back:"):
            out.append(Back(ref.split(":", 1)[1], lang))
        else:
            out.append(build_face(cards[ref], db, bk[lang], lang, REPO))
    return out


def images() -> dict[str, object]:
    """Each case rendered as the print shops get it, reduced to the reference size."""
    from PIL import Image

    rendered = card_images(items(), REPO)
    return {name: im.resize((round(im.width * SCALE), round(im.height * SCALE)), Image.LANCZOS)
            for (name, _, _), im in zip(CASES, rendered)}


def main() -> None:
    REFERENCE.mkdir(parents=True, exist_ok=True)
    for name, im in images().items():
        im.save(REFERENCE / f"{name}.png", optimize=True)
        print(f"wrote {REFERENCE / name}.png")


if __name__ == "__main__":
    main()
