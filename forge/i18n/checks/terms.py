"""Terminology as the termbase says: locale labels print the term, texts translate it one way, names are unique.

- a locale key the termbase names (``keywords.wound``) prints the term exactly;
- an English string that uses a term (any of its forms) uses the French term in French: in
  rules, prose and labels, and in names and headings too, except for a term marked
  ``loose`` (a generic word like "card", which a title may leave implied); flavour is
  fiction and speaks freely;
- no string of any kind (flavour, names and headings included) uses a variant the
  termbase forbids for a term ("cimetière" for la défausse, "mana" for l'essence d'âme);
- two cards never share a name in one language.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ...core.findings import Finding
from ...carddb.model import Position
from ..inventory import Inventory, dotted
from ...text.termbase import Term, Termbase
from . import at, both, label, masked, readings


def check(inv: Inventory, termbase: Termbase) -> list[Finding]:
    found = _locale_labels(inv, termbase) + _unique_names(inv) + _forbidden(inv, termbase) + _keyword_case(inv)
    text_terms = [t for t in termbase.terms if t.en_forms or t.fr_forms]
    matcher = _matcher(tuple(text_terms), termbase.identical)  # once: its cache's key hashes every term
    for pair in both(inv.pairs):
        if pair.kind in _FREE:
            continue
        en = " | ".join(_norm(masked(r)) for r in readings(pair.en.text))  # a term in a plural slot counts
        fr = [_norm(masked(r)) for r in readings(pair.fr.text)]
        for term in _used(en, matcher):
            if term.loose and pair.kind in _TITLES:
                continue
            if not any(_pattern(term, "fr").search(reading) for reading in fr):
                found.append(at(pair.fr, "terminology",
                                f"{label(pair)}: the English says `{term.en}`; the French does not use "
                                f"the termbase's `{term.fr}`",
                                f"write `{term.fr}` (or one of its forms: {', '.join(term.written('fr'))}) "
                                f"as locales/termbase.yaml says"))
    return found


#: Fiction: worded freely (a flavour line uses words as a story does, not as rules).
_FREE = ("card-flavor",)
#: Titles: they translate the game's terms as the rules do, but may leave a generic word (``loose``) implied.
_TITLES = ("card-name", "faction-name", "prose-heading")


def _forbidden(inv: Inventory, termbase: Termbase) -> list[Finding]:
    """Every string, of every kind, in each language: no variant the termbase forbids."""
    rules = [(lang, t) for t in termbase.terms for lang in ("en", "fr") if t.forbidden(lang)]
    if not rules:
        return []
    found: list[Finding] = []
    patterns = {(lang, t.id): _forms_pattern(t.forbidden(lang)) for lang, t in rules}
    for pair in inv.pairs:
        texts = {lang: _norm(masked(entry.text)) for lang in ("en", "fr")  # once a string, not once a rule
                 if (entry := pair.side(lang)) is not None and entry.text.strip()}
        for lang, term in rules:
            if lang not in texts:
                continue
            entry = pair.side(lang)
            m = patterns[(lang, term.id)].search(texts[lang])
            if m:
                head = term.en if lang == "en" else term.fr
                found.append(at(entry, "terminology", f"{label(pair)}: \"{m.group(0)}\" is a variant the termbase "
                                f"forbids for `{term.en}`; the {'English' if lang == 'en' else 'French'} term is "
                                f"`{head}`", f"write `{head}` (or one of its forms: {', '.join(term.written(lang))}), "
                                "as locales/termbase.yaml says", index=m.start()))
    return found


def _forms_pattern(forms: tuple[str, ...]) -> re.Pattern:
    """Forms as whole words; capitalised forms (keywords) match their case, the others any case."""
    parts = []
    for form in sorted(forms, key=lambda f: (-len(f), f)):
        body = re.escape(_norm(form))
        parts.append(body if form[:1].isupper() else f"(?i:{body})")
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)")


def _used(en: str, matcher: tuple[re.Pattern, dict[str, Term]]) -> list[Term]:
    """The terms an English text uses, longest match first ("exile pile" is not the keyword Exile);
    ``matcher``: ``_matcher`` of the terms looked for."""
    pattern, owner = matcher
    used: dict[str, Term] = {}
    for m in pattern.finditer(en):
        term = owner.get(m.lastgroup or "")
        if term is not None:
            used.setdefault(term.id, term)
    return list(used.values())


@lru_cache(maxsize=8)
def _matcher(terms: tuple[Term, ...], identical: frozenset[str]) -> tuple[re.Pattern, dict[str, Term]]:
    """One regex for every English form (longest first, so a longer term wins), and the term of each group.

    Multi-word strings listed as identical ("Rift Commanders") come first and belong to no term.
    """
    forms = [(p, None) for p in identical if " " in p]
    forms += [(f, t) for t in terms for f in t.forms("en")]
    forms.sort(key=lambda ft: -len(ft[0]))
    parts, owner = [], {}
    for i, (form, term) in enumerate(forms):
        body = re.escape(_norm(form))
        name = f"g{i}"
        parts.append(f"(?P<{name}>{body})" if term is not None and form[:1].isupper() else f"(?P<{name}>(?i:{body}))")
        if term is not None:
            owner[name] = term
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)"), owner


def _norm(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'").replace("**", "")


@lru_cache(maxsize=None)
def _pattern(term: Term, lang: str) -> re.Pattern:
    """A term's forms as whole words; capitalised forms (keywords) match their case, the others any case."""
    return _forms_pattern(term.forms(lang))


def _locale_labels(inv: Inventory, termbase: Termbase) -> list[Finding]:
    pairs = {p.id: p for p in inv.by_kind("locale")}
    found: list[Finding] = []
    for term in termbase.terms:
        for key in term.locale:
            pair = pairs.get(f"locales/{key}")
            if pair is None:
                if pairs:  # the locales were read: the key is a typo or was renamed
                    found.append(Finding(Position(termbase.doc.rel, term.line, 1), "termbase",
                                         f"the term `{term.id}` names the locale key `{key}`, which no locale has",
                                         "write the key as in locales/en.yaml (e.g. keywords.wound), or remove it"))
                continue
            for lang, entry in (("en", pair.en), ("fr", pair.fr)):
                want = getattr(term, lang)
                if entry is not None and entry.text != want:
                    found.append(at(entry, "terminology", f"`{key}` prints \"{entry.text}\"; the termbase's "
                                    f"{lang} term for `{term.en}` is \"{want}\"",
                                    f"write \"{want}\", or change the term in locales/termbase.yaml "
                                    f"(line {term.line}) for every text at once"))
    return found


_BOLD = re.compile(r"\*\*([^*]+)\*\*")


def _keyword_case(inv: Inventory) -> list[Finding]:
    """A keyword in bold is written as the keywords table writes it (« **Poison** », never « **poison** »)."""
    found: list[Finding] = []
    for lang in ("en", "fr"):
        doc = inv.sources.docs.get(f"locales/{lang}.yaml")
        table = doc.data.get("keywords") if doc is not None and isinstance(doc.data, dict) else None
        names = {str(v).casefold(): str(v) for v in (table or {}).values() if isinstance(v, str)}
        for pair in inv.pairs:
            entry = pair.side(lang)
            if entry is None:
                continue
            for m in _BOLD.finditer(entry.text):
                name = names.get(m.group(1).casefold())
                if name is not None and m.group(1) != name:
                    found.append(at(entry, "terminology", f"{label(pair)}: the keyword is written \"{m.group(1)}\"; "
                                    f"the keywords table writes \"{name}\"", f"write **{name}**", index=m.start(1)))
    return found


def _unique_names(inv: Inventory) -> list[Finding]:
    found: list[Finding] = []
    for lang in ("en", "fr"):
        seen: dict[str, object] = {}
        for pair in inv.by_kind("card-name"):
            entry = pair.side(lang)
            if entry is None or not entry.text.strip():
                continue
            key = " ".join(entry.text.casefold().split())
            first = seen.get(key)
            if first is not None:
                found.append(at(entry, "duplicate-name",
                                f"{label(pair)}: two cards are called \"{entry.text}\" in `{lang}` "
                                f"(also {first.id}, {first.side(lang).file}:{first.side(lang).line})",
                                "give each card its own name"))
            else:
                seen[key] = pair
    return found


__all__ = ["check", "dotted"]


def used_terms(en: str, termbase: Termbase) -> list[Term]:
    """The termbase terms an English text uses (for the translators' notes in an export)."""
    terms = [t for t in termbase.terms if t.en_forms or t.fr_forms or t.en]
    return _used(_norm(masked(en)), _matcher(tuple(terms), termbase.identical))
