"""The numbered rulings of ``docs/rulings.md``, which the reference's FAQ answers for players.

Only the numbers and questions are read: the FAQ of each language is written for
players in ``templates/books/reference.<lang>.md`` and names the ruling each answer
comes from, so a ruling added to the docs shows up as a FAQ entry still to write.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

RULINGS_FILE = Path("docs") / "rulings.md"
_RULING = re.compile(r"^\*\*(\d+)\.\s+(.+?)\*\*", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Ruling:
    number: int
    question: str
    line: int
    digest: str = ""  # of the whole ruling, so an answer written from it can tell it changed


def parse_rulings(text: str) -> dict[int, Ruling]:
    """Every ``**N. Question?**`` of the rulings document, by number."""
    out: dict[int, Ruling] = {}
    matches = list(_RULING.finditer(text))
    for i, m in enumerate(matches):
        number = int(m.group(1))
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = re.split(r"\n## |\*Why:\*| — `", text[m.start():end], maxsplit=1)[0]  # the ruling, not its tests
        digest = hashlib.sha256(" ".join(body.split()).encode("utf-8")).hexdigest()[:8]
        out.setdefault(number, Ruling(number, " ".join(m.group(2).split()), text.count("\n", 0, m.start()) + 1, digest))
    return out
