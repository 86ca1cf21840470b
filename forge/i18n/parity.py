"""French/English parity of everything translated, each finding at the line a translator edits.

The inventory (``inventory.build``) reads every translated string; the check families of
``checks/`` compare its pairs; the termbase decides terminology. A file that does not
parse and a card that fails the schema are findings too: they are never silently left
out of the comparison. Nothing here prints or exits.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..text import narrate
from ..carddb.database import load_database
from ..core.findings import WARNING, Finding
from ..text.cardtext import Phrasebook
from ..web import strings as web_words
from . import booklabels, fingerprints, inventory, limits, templatelabels
from ..text import termbase
from .checks import (Fix, cards, englishword, length, numbers, plurals, presence, structure, terms, tokens,
                     typography, untranslated)

LANGS = inventory.LANGS


@dataclass
class ParityReport:
    """The findings of a parity run, the typography fixes it knows, and how many strings it checked."""

    findings: list[Finding] = field(default_factory=list)
    strings: Counter = field(default_factory=Counter)
    io_error: bool = False
    fixes: list[Fix] = field(default_factory=list)

    def summary(self) -> dict:
        return {
            "strings": {lang: self.strings[lang] for lang in LANGS},
            "by_rule": dict(sorted(Counter(f.rule for f in self.findings).items())),
            "errors": sum(f.severity != WARNING for f in self.findings),
            "warnings": sum(f.severity == WARNING for f in self.findings),
            "fixable": len(self.fixes),
        }


def parity(root: Path | str, layout: bool = True) -> ParityReport:
    """Compare the English and French of the project at ``root`` (``layout=False`` skips the text fit)."""
    root = Path(root)
    inv = inventory.build(root)
    tb = termbase.load(inv.sources)
    report = ParityReport()
    for pair in inv.pairs:
        for lang in LANGS:
            report.strings[lang] += pair.side(lang) is not None
    found = presence.check(inv) + tokens.check(inv) + numbers.check(inv) + structure.check(inv)
    found += untranslated.check(inv, tb) + englishword.check(inv, tb) + terms.check(inv, tb) + plurals.check(inv, tb)
    typo, report.fixes = typography.check(inv)
    found += typo + tb.findings
    found += fingerprints.findings(inv, fingerprints.load(inv.sources))
    found += _cards(inv, root, layout, report)
    found += inv.sources.findings
    report.io_error |= inv.sources.io_error
    report.findings = _unique(found)
    return report


def _cards(inv: inventory.Inventory, root: Path, layout: bool, report: ParityReport) -> list[Finding]:
    """The compiled card texts and their fit; the card files' own errors (parse, schema), never dropped."""
    load = load_database(root)
    report.io_error |= load.io_error
    found = [f for f in load.findings if f.severity != WARNING]
    if load.io_error or not ({"locales/en.yaml", "locales/fr.yaml"} <= set(inv.sources.docs)):
        return found
    docs = {lang: inv.sources.docs[f"locales/{lang}.yaml"] for lang in LANGS}  # read once, by the inventory
    books = {lang: Phrasebook(lang, doc.data, doc.rel, doc.source) for lang, doc in docs.items()}
    found += [problem.finding() for book in books.values() for problem in book.problems]  # their placeholders
    found += cards.check(inv, load, books) + narrate.check(books) + web_words.check(books)
    if layout:
        found += length.check(inv, load, books)
        tpl, sets = templatelabels.load(root, books, load.db.factions)
        found += limits.check(inv, limits.compute(root, inv, load, books, sets))
        found += templatelabels.check(inv, tpl, sets) if tpl is not None else []
        found += booklabels.check(inv, booklabels.placed(root, inv))
    return found


def _unique(found: list[Finding]) -> list[Finding]:
    """One finding per place and rule (a file read twice reports its fault once), sorted."""
    unique = {(f.position, f.rule, f.message): f for f in reversed(found)}
    return sorted(unique.values(), key=lambda f: (f.position.file, f.position.line, f.position.col, f.rule, f.message))
