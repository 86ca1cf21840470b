"""French/English parity of everything translated, each finding at the line a translator edits.

The inventory (``inventory.build``) reads every translated string; the check families of
``checks/`` compare its pairs; the termbase decides terminology. A file that does not
parse and a card that fails the schema are findings too: they are never silently left
out of the comparison. Nothing here prints or exits.

One table (``FAMILIES``) names each family, the rules it reports and how it runs: a full run
and a run of one family (a test's, on files given in memory) are the same code.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..text import narrate
from ..carddb.database import LoadResult, load_database
from ..core.findings import WARNING, Finding
from ..text.cardtext import Phrasebook
from ..web import strings as web_words
from . import booklabels, fingerprints, inventory, limits, templatelabels
from ..text import termbase
from ..text.sources import Sources
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


def parity(root: Path | str, layout: bool = True, *, sources: Sources | None = None,
           families: Collection[str] | None = None) -> ParityReport:
    """Compare the English and French of the project at ``root``.

    ``sources``: the files already read, or given in memory (``Sources.given``); read from ``root``
    by default. ``families``: the names of the check families to run (``FAMILIES``), all by default;
    an unknown name is a ValueError. ``layout=False`` leaves out the families that measure the text
    fit, named or not. The findings of the files a family reads (a file that does not parse, a card
    failing the schema) come with it, whichever families run.
    """
    unknown = sorted(set(families or ()) - set(FAMILIES))
    if unknown:
        raise ValueError(f"unknown parity family {', '.join(unknown)}; the families are {', '.join(FAMILIES)}")
    run = _Run(Path(root), sources, ParityReport())
    for pair in run.inv.pairs:
        for lang in LANGS:
            run.report.strings[lang] += pair.side(lang) is not None
    for name, family in FAMILIES.items():
        if (families is None or name in families) and (layout or not family.layout):
            found = family.run(run)  # may add the findings of what it reads first (``_Run.found``)
            run.found += found
    run.found += run.inv.sources.findings
    run.report.io_error |= run.inv.sources.io_error
    run.report.findings = _unique(run.found)
    return run.report


def families_of(rule: str) -> list[str]:
    """The families that report ``rule`` (none for the findings of reading a file)."""
    return [name for name, family in FAMILIES.items() if rule in family.rules]


class _Run:
    """What the families of one run share, each read or built once, when a family first needs it."""

    def __init__(self, root: Path, sources: Sources | None, report: ParityReport):
        self.root, self.report = root, report
        self.inv = inventory.build(root, sources)
        self.found: list[Finding] = []

    @cached_property
    def tb(self) -> termbase.Termbase:
        """The termbase (``locales/termbase.yaml``)."""
        return termbase.load(self.inv.sources)

    @cached_property
    def cards(self) -> tuple[LoadResult, dict[str, Phrasebook]] | None:
        """The compiled cards and the phrasebooks, or None when they cannot be built; their own errors
        (parse, schema, the phrasebooks' placeholders) are findings, never dropped."""
        load = load_database(self.root, self.inv.sources.texts())
        self.report.io_error |= load.io_error
        self.found += [f for f in load.findings if f.severity != WARNING]
        if load.io_error or not ({"locales/en.yaml", "locales/fr.yaml"} <= set(self.inv.sources.docs)):
            return None
        docs = {lang: self.inv.sources.docs[f"locales/{lang}.yaml"] for lang in LANGS}  # read once, by the inventory
        books = {lang: Phrasebook(lang, doc.data, doc.rel, doc.source) for lang, doc in docs.items()}
        self.found += [problem.finding() for book in books.values() for problem in book.problems]
        return load, books

    @cached_property
    def template(self) -> tuple[object, dict]:
        """The card template and its aid words per language ((None, {}) when it cannot be read)."""
        load, books = self.cards
        return templatelabels.load(self.root, books, load.db.factions, self.inv.sources)


@dataclass(frozen=True)
class Family:
    """A check family: the rules it reports, whether it measures the layout, and how it runs on a run."""

    rules: frozenset[str]
    run: Callable[[_Run], list[Finding]]
    layout: bool = False


def _family(rules: str, run: Callable[[_Run], list[Finding]], layout: bool = False) -> Family:
    return Family(frozenset(rules.split()), run, layout)


def _with_cards(check: Callable[[_Run, LoadResult, dict], list[Finding]]) -> Callable[[_Run], list[Finding]]:
    """A family of the compiled cards: nothing to check when they cannot be built (their errors are found)."""
    return lambda run: check(run, *run.cards) if run.cards else []


def _typography(run: _Run) -> list[Finding]:
    found, run.report.fixes = typography.check(run.inv)
    return found


def _limits(run: _Run, load: LoadResult, books: dict) -> list[Finding]:
    _tpl, sets = run.template
    return limits.check(run.inv, limits.compute(run.root, run.inv, load, books, sets))


def _template_labels(run: _Run, load: LoadResult, books: dict) -> list[Finding]:
    tpl, sets = run.template
    return templatelabels.check(run.inv, tpl, sets) if tpl is not None else []


#: Every check family by name, in the order a full run reports them: the one table parity runs.
FAMILIES: dict[str, Family] = {
    "presence": _family("parity-key parity-empty parity-language", lambda run: presence.check(run.inv)),
    "tokens": _family("parity-markup parity-placeholder parity-directive parity-card-ref parity-verbatim",
                      lambda run: tokens.check(run.inv)),
    "numbers": _family("parity-number", lambda run: numbers.check(run.inv)),
    "structure": _family("parity-structure parity-book", lambda run: structure.check(run.inv)),
    "untranslated": _family("untranslated", lambda run: untranslated.check(run.inv, run.tb)),
    "englishword": _family(englishword.RULE, lambda run: englishword.check(run.inv, run.tb)),
    "terms": _family("terminology termbase duplicate-name", lambda run: terms.check(run.inv, run.tb)),
    "plurals": _family("plural", lambda run: plurals.check(run.inv, run.tb)),
    "typography": _family("typography whitespace punctuation", _typography),
    "termbase": _family("termbase terminology", lambda run: run.tb.findings),
    "fingerprints": _family("stale-translation untracked-translation fingerprint",
                            lambda run: fingerprints.findings(run.inv, fingerprints.load(run.inv.sources))),
    "cards": _family("parity-text", _with_cards(lambda run, load, books: cards.check(run.inv, load, books))),
    "log": _family("log-phrase", _with_cards(lambda run, load, books: narrate.check(books))),
    "web": _family("web-words", _with_cards(lambda run, load, books: web_words.check(books))),
    "length": _family("length", _with_cards(lambda run, load, books: length.check(run.inv, load, books)), True),
    "limits": _family("length", _with_cards(_limits), True),
    "templatelabels": _family("length", _with_cards(_template_labels), True),
    # the books' labels need no cards, but run with them as they always have: a game whose cards cannot be
    # built reports that, not the labels' fit
    "booklabels": _family("label-length", _with_cards(
        lambda run, load, books: booklabels.check(run.inv, booklabels.placed(run.root, run.inv))), True),
}


def _unique(found: list[Finding]) -> list[Finding]:
    """One finding per place and rule (a file read twice reports its fault once), sorted."""
    unique = {(f.position, f.rule, f.message): f for f in reversed(found)}
    return sorted(unique.values(), key=lambda f: (f.position.file, f.position.line, f.position.col, f.rule, f.message))
