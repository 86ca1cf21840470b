"""Plural forms in the right slot: ``{n|singular|plural}`` read at n = 0, 1 and 2.

The phrase compiler prints the first slot for n ≤ 1 and the second for n ≥ 2. A slot is
wrong when what it prints is the other number's form: a termbase inflection of the
other number, or a word that is the other slot's word with the plural ending (s, x)
added or removed.
"""
from __future__ import annotations

import re

from ...core.findings import Finding
from ..inventory import Inventory
from ...text.termbase import Termbase
from . import at, both, label

_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^{}]*)\}")
_ENDINGS = ("s", "x")


def render(slots: tuple[str, str], n: int) -> str:
    """What the compiler prints for ``n`` (``text.Phrasebook.fill``: singular up to 1)."""
    return slots[0] if n <= 1 else slots[1]


def _is_plural_of(word: str, other: str) -> bool:
    return any(word == other + e for e in _ENDINGS) and word != other


def _number(slot: str, other: str, forms: dict[str, str]) -> str | None:
    """``singular`` or ``plural`` when ``slot`` is recognisably one, from the other slot or the termbase."""
    words, others = slot.split(), other.split()
    if len(words) == len(others) and words != others:
        if all(_is_plural_of(w, o) or w == o for w, o in zip(words, others)):
            return "plural"
        if all(_is_plural_of(o, w) or w == o for w, o in zip(words, others)):
            return "singular"
    last = words[-1].casefold() if words else ""
    return forms.get(last)


def _forms(termbase: Termbase, lang: str) -> dict[str, str]:
    """Single-word termbase forms whose number is clear: the form differs from the headword by -s/-x."""
    out: dict[str, str] = {}
    for term in termbase.terms:
        head = (term.en if lang == "en" else term.fr).casefold()
        for form in term.written(lang):
            f = form.casefold()
            if " " not in f and _is_plural_of(f, head):
                out.setdefault(f, "plural")
                out.setdefault(head, "singular")
    return out


def check(inv: Inventory, termbase: Termbase) -> list[Finding]:
    found: list[Finding] = []
    forms = {lang: _forms(termbase, lang) for lang in ("en", "fr")}
    for pair in both(inv.pairs):
        for lang in ("en", "fr"):
            entry = pair.side(lang)
            for m in _PLURAL.finditer(entry.text):
                slots = (m.group(2), m.group(3))
                for n in (0, 1, 2):
                    printed = render(slots, n)
                    other = slots[1] if printed is slots[0] else slots[0]
                    want = "singular" if n <= 1 else "plural"
                    got = _number(printed, other, forms[lang])
                    if got and got != want:
                        found.append(at(entry, "plural", f"{label(pair)}: `{m.group(0)}` prints \"{n} {printed}\" "
                                        f"(n = {n} takes the {want}, this is the {got})",
                                        f"write {{{m.group(1)}|singular|plural}}: "
                                        f"{{{m.group(1)}|{m.group(3)}|{m.group(2)}}}?", index=m.start()))
                        break
    return found
