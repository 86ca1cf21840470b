"""The termbase: each game term once, in English and French, with the French gender and inflections.

``locales/termbase.yaml`` is the one place a term's translation is decided. Parity
enforces it (``checks.terms``), the reference booklet's glossary is made from it, and
CAT tools read it as TBX (ISO 30042, the TBX-Basic dialect: part of speech, gender,
administrative status) or CSV.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from ..core.escape import neutralise
from ..core.findings import Finding
from ..carddb.model import Position
from .sources import Doc, Sources

TERMBASE = "locales/termbase.yaml"
_FIELDS = {"id", "category", "pos", "en", "fr", "gender", "locale", "en_forms", "fr_forms", "definition", "note",
           "en_forbidden", "fr_forbidden", "loose"}


@dataclass(frozen=True)
class Term:
    """One game term: headwords, every written form, the locale keys that print it, where it is defined."""

    id: str
    en: str
    fr: str
    category: str = ""
    pos: str = ""
    gender: str = ""
    definition: str = ""
    locale: tuple[str, ...] = ()
    en_forms: tuple[str, ...] = ()
    fr_forms: tuple[str, ...] = ()
    line: int = 0
    #: Variants never to be written for this term, in any string (names, flavour and headings too):
    #: another game's word ("cimetière", "mana"), a wrong form. TBX: deprecated terms.
    en_forbidden: tuple[str, ...] = ()
    fr_forbidden: tuple[str, ...] = ()
    #: A generic word ("card"): required in rules and prose, not in names and headings, which may leave it implied.
    loose: bool = False

    def forbidden(self, lang: str) -> tuple[str, ...]:
        return self.en_forbidden if lang == "en" else self.fr_forbidden

    def written(self, lang: str) -> tuple[str, ...]:
        """The headword, then its other written forms."""
        head, extra = (self.en, self.en_forms) if lang == "en" else (self.fr, self.fr_forms)
        return tuple(dict.fromkeys((head,) + extra))

    def forms(self, lang: str) -> tuple[str, ...]:
        """The headword and its inflections in one language, longest first (so a match takes the whole term)."""
        return tuple(sorted(self.written(lang), key=lambda s: (-len(s), s)))


@dataclass
class Termbase:
    """The terms, the strings printed the same in both languages on purpose, and the file's problems."""

    terms: list[Term] = field(default_factory=list)
    identical: frozenset[str] = frozenset()
    findings: list[Finding] = field(default_factory=list)
    doc: Doc | None = None

    def is_identical(self, text: str) -> bool:
        """Whether ``text`` may read the same in both languages (listed, or a term spelt the same)."""
        key = text.strip().rstrip(".!?…").strip().casefold()
        return key in self.identical or any(t.en.casefold() == key == t.fr.casefold() for t in self.terms)


def load(sources: Sources) -> Termbase:
    """Read the termbase of a project; a project without one has an empty termbase."""
    root = sources.root
    if not ((root / TERMBASE).exists() or (root / TERMBASE).is_symlink()):
        return Termbase()
    doc = sources.yaml(TERMBASE)
    if doc is None:
        return Termbase()
    tb = Termbase(doc=doc)
    identical = doc.data.get("identical") or []
    tb.identical = frozenset(str(s).casefold() for s in identical if s is not None) if isinstance(identical, list) \
        else frozenset()
    raw_terms = doc.data.get("terms")
    if not isinstance(raw_terms, list):
        tb.findings.append(Finding(doc.at(()), "termbase", "the termbase has no `terms:` list",
                                   "add `terms:` with one `{id, en, fr}` entry per game term"))
        return tb
    for i, raw in enumerate(raw_terms):
        term = _term(doc, i, raw, tb.findings)
        if term:
            tb.terms.append(term)
    tb.findings += consistency(tb, doc)
    return tb


def _term(doc: Doc, i: int, raw: object, findings: list[Finding]) -> Term | None:
    at = doc.at(("terms", i))
    if not isinstance(raw, dict) or not raw.get("en") or not raw.get("fr"):
        findings.append(Finding(at, "termbase", "a term needs an `en:` and a `fr:` headword",
                                "write `{id: …, en: …, fr: …}`"))
        return None
    unknown = sorted(set(raw) - _FIELDS)
    if unknown:
        findings.append(Finding(doc.at(("terms", i, unknown[0]), key=True), "termbase",
                                f"unknown field `{unknown[0]}` in a term", f"use only {', '.join(sorted(_FIELDS))}"))
    if raw.get("gender") not in (None, "m", "f"):
        findings.append(Finding(doc.at(("terms", i, "gender")), "termbase", "the gender is `m` or `f`",
                                "write gender: m or gender: f (of the French term)"))

    def strings(key: str) -> tuple[str, ...]:
        value = raw.get(key) or []
        return tuple(str(v) for v in (value if isinstance(value, list) else [value]))

    if raw.get("loose") not in (None, True, False):
        findings.append(Finding(doc.at(("terms", i, "loose")), "termbase", "`loose` is true or false",
                                "write loose: true for a generic word names and headings may leave implied"))
    return Term(str(raw.get("id") or raw["en"]), str(raw["en"]), str(raw["fr"]), str(raw.get("category") or ""),
                str(raw.get("pos") or ""), str(raw.get("gender") or ""), str(raw.get("definition") or ""),
                strings("locale"), strings("en_forms"), strings("fr_forms"), at.line,
                strings("en_forbidden"), strings("fr_forbidden"), raw.get("loose") is True)


def consistency(tb: Termbase, doc: Doc) -> list[Finding]:
    """One French term per English term, and never one French term for two English ones."""
    found: list[Finding] = []
    by_en: dict[str, Term] = {}
    by_fr: dict[str, Term] = {}
    ids: dict[str, Term] = {}
    for term in tb.terms:
        fr_at = Position(doc.rel, *doc.source.at(("terms", _index(doc, term), "fr")))
        if term.id in ids:
            found.append(Finding(Position(doc.rel, term.line, 1), "termbase",
                                 f"the id `{term.id}` is used twice (first at line {ids[term.id].line})",
                                 "give each term its own id"))
        ids.setdefault(term.id, term)
        first = by_en.get(term.en)
        if first and first.fr != term.fr:
            found.append(Finding(fr_at, "terminology", f"`{term.en}` has two French terms: `{first.fr}` "
                                 f"(line {first.line}) and `{term.fr}`", "keep one French term per English term"))
        other = by_fr.get(term.fr)
        if other and other.en != term.en:
            found.append(Finding(fr_at, "terminology", f"the French term `{term.fr}` stands for two English ones: "
                                 f"`{other.en}` (line {other.line}) and `{term.en}`",
                                 "give each English term its own French term"))
        by_en.setdefault(term.en, term)
        by_fr.setdefault(term.fr, term)
    found += _forbidden_allowed(tb, doc)
    return found


def _forbidden_allowed(tb: Termbase, doc: Doc) -> list[Finding]:
    """A forbidden variant must not be a written form of any term (the check would contradict itself)."""
    allowed = {lang: {f.casefold(): t for t in tb.terms for f in t.written(lang)} for lang in ("en", "fr")}
    found = []
    for term in tb.terms:
        for lang in ("en", "fr"):
            for variant in term.forbidden(lang):
                other = allowed[lang].get(variant.casefold())
                if other is not None:
                    found.append(Finding(Position(doc.rel, term.line, 1), "termbase",
                                         f"`{variant}` is forbidden for `{term.id}` but is a form of `{other.id}` "
                                         f"(line {other.line})", "remove it from one of the two lists"))
    return found


def _index(doc: Doc, term: Term) -> int:
    for i, raw in enumerate(doc.data.get("terms") or []):
        if isinstance(raw, dict) and doc.source.at(("terms", i))[0] == term.line:
            return i
    return 0


# -- exports -----------------------------------------------------------------------------------
def to_csv(tb: Termbase) -> str:
    """One row per term: id, category, part of speech, the two headwords, gender, forms, definition.

    A cell that a spreadsheet program would run as a formula gets a ``'`` in front (OWASP).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "category", "pos", "en", "fr", "fr_gender", "en_forms", "fr_forms", "definition",
                     "en_forbidden", "fr_forbidden"])
    for t in tb.terms:
        writer.writerow([neutralise(c) for c in (
            t.id, t.category, t.pos, t.en, t.fr, t.gender, "|".join(t.en_forms), "|".join(t.fr_forms), t.definition,
            "|".join(t.en_forbidden), "|".join(t.fr_forbidden))])
    return out.getvalue()


_TBX_NS = "urn:iso:std:iso:30042:ed-2"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_TBX_POS = {"noun": "noun", "verb": "verb", "adjective": "adjective"}
_TBX_GENDER = {"m": "masculine", "f": "feminine"}


def _xml_id(term_id: str) -> str:
    """A term's id as an XML ID (an NCName): other characters become ``-``, a leading digit gets ``term-``."""
    name = re.sub(r"[^\w.-]", "-", term_id)
    return name if re.match(r"[^\W\d]", name) else f"term-{name}"


def to_tbx(tb: Termbase) -> str:
    """The termbase as TBX-Basic (ISO 30042:2019, DCA style): one conceptEntry per term, forbidden variants
    as deprecated terms."""
    ET.register_namespace("", _TBX_NS)
    q = lambda tag: f"{{{_TBX_NS}}}{tag}"  # a qualified tag name
    root = ET.Element(q("tbx"), {"type": "TBX-Basic", "style": "dca", _XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(root, q("tbxHeader")), q("fileDesc"))
    ET.SubElement(ET.SubElement(header, q("sourceDesc")), q("p")).text = "Rift Commanders termbase (locales/termbase.yaml)"
    body = ET.SubElement(ET.SubElement(root, q("text")), q("body"))
    for t in tb.terms:
        entry = ET.SubElement(body, q("conceptEntry"), {"id": _xml_id(t.id)})
        if t.category:
            ET.SubElement(entry, q("descrip"), {"type": "subjectField"}).text = t.category
        if t.definition:
            ET.SubElement(entry, q("descrip"), {"type": "definition"}).text = t.definition
        for lang in ("en", "fr"):
            sec = ET.SubElement(entry, q("langSec"), {_XML_LANG: lang})
            for n, form in enumerate(t.written(lang)):
                term_sec = ET.SubElement(sec, q("termSec"))
                ET.SubElement(term_sec, q("term")).text = form
                if t.pos in _TBX_POS:
                    ET.SubElement(term_sec, q("termNote"), {"type": "partOfSpeech"}).text = _TBX_POS[t.pos]
                if lang == "fr" and t.gender and n == 0:
                    ET.SubElement(term_sec, q("termNote"), {"type": "grammaticalGender"}).text = _TBX_GENDER[t.gender]
                if n:
                    ET.SubElement(term_sec, q("termNote"), {"type": "termType"}).text = "variant"
                status = "preferredTerm-admn" if n == 0 else "admittedTerm-admn"
                ET.SubElement(term_sec, q("termNote"), {"type": "administrativeStatus"}).text = status
            for form in t.forbidden(lang):  # CAT tools flag a deprecated term where it is used
                term_sec = ET.SubElement(sec, q("termSec"))
                ET.SubElement(term_sec, q("term")).text = form
                ET.SubElement(term_sec, q("termNote"), {"type": "administrativeStatus"}).text = "deprecatedTerm-admn"
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def glossary_rows(tb: Termbase, lang: str) -> list[dict]:
    """The glossary of the reference booklet: each term in ``lang`` and in the other language."""
    other = "fr" if lang == "en" else "en"
    return [{"term": getattr(t, lang), "other": getattr(t, other), "table": t.category.replace(" ", "-"),
             "gender": t.gender if lang == "fr" else ""} for t in tb.terms]
