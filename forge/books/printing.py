"""A book's print files, made from its screen PDF and its press PDF, each read back before it is written.

- ``press``: the printer's file (``forge.books.press``), held to the same rules as the cards'
  print-on-demand file (``forge.render.preflight.SHOP_RULES["pod"]``): press CMYK only, total
  ink, black text in black ink only, 3 mm of bleed, fonts embedded, PDF/X-4 with its output
  intent, transparency blending in CMYK;
- ``booklet-a4`` and ``booklet-letter``: the screen PDF imposed for home printing
  (``forge.books.impose``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

from .impose import SHEETS
from .pdf import check_pdf, read_pdf

PRINT_FILES = ("press", *(f"booklet-{name}" for name in SHEETS))


@dataclass
class PrintFile:
    """One print file's bytes and what reading it back found."""

    data: bytes
    problems: list[str] = field(default_factory=list)

    @property
    def record(self) -> dict:
        return {"size": len(self.data), "sha256": hashlib.sha256(self.data).hexdigest()}


def press_problems(data: bytes) -> list[str]:
    """What a press's preflight would refuse in a book's print file (the cards' rules and read-back)."""
    from ..render.preflight import SHOP_RULES, measure_pdf, print_problems  # lazy: loads forge.render only when needed

    reader = read_pdf(data)
    figures = measure_pdf(reader)
    return check_pdf(data, text=False, reader=reader).problems + print_problems(figures, SHOP_RULES["pod"])


def print_files(press: bytes, booklets: dict[str, bytes], draft: str = "") -> dict[str, PrintFile]:
    """The print files of a book, by name (see the module doc); each problem names its file.
    A draft's files carry the DRAFT mark too (``forge.render.draft``), so none is mistaken for the game.
    The booklets' fonts and metadata are the screen PDF's own objects, checked there."""
    if draft:
        from ..render.draft import stamp_pdf  # lazy: loads forge.carddb, forge.render only when needed

        press = stamp_pdf(press, draft)
        booklets = {name: stamp_pdf(data, draft) for name, data in booklets.items()}
    files = {"press": PrintFile(press, press_problems(press))}
    files.update((f"booklet-{name}", PrintFile(data)) for name, data in booklets.items())
    for name, file in files.items():
        file.problems = [f"{name} print file: {problem}" for problem in file.problems]
    return files


def files_on_disk(known: dict | None, on_disk: Callable[[str, dict], bool]) -> bool:
    """Every print file is in the record and on disk as the record describes it."""
    return bool(known) and set(known) >= set(PRINT_FILES) and all(on_disk(name, known[name]) for name in PRINT_FILES)
