"""What a translation copies, never translates: placeholders, directives, markup, card references, code spans.

Each is compared as a multiset between the two languages of a string (directives in
prose as a set: a sentence may name a keyword twice in one language and once in the
other). Prose directives are read by the books' own grammar (``forge.prose``): a
directive's name and arguments must be the same in both languages of a unit. The
finding is at the French string, the one a translator edits.
"""
from __future__ import annotations

import re
from collections import Counter

from ...core.findings import Finding
from ...prose import grammar
from ...text.verbatim import spans
from ..inventory import Inventory, Pair
from . import at, both, label

_PLACEHOLDER = re.compile(r"\{(\w+)(?:(:\w+)|\|[^|{}]*\|[^{}]*)?\}")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ICON = re.compile(r"\[\[([a-z_]+)\]\]")


def placeholders(text: str) -> Counter:
    """``{n}``, ``{n|…|…}`` and ``{kw:demise}`` of a phrase; the words of a plural are not compared."""
    return Counter("{%s|…|…}" % m.group(1) if "|" in m.group(0) else m.group(0) for m in _PLACEHOLDER.finditer(text))


def directives(text: str) -> Counter:
    """A unit of prose's directives, by name and arguments; card references apart (see ``card_refs``)."""
    return Counter(_shown(d) for d in grammar.directives_in(text) if d.name != "card")


def card_refs(text: str) -> Counter:
    return Counter(_shown(d) for d in grammar.directives_in(text) if d.name == "card")


def _shown(d: grammar.Directive) -> str:
    return "{" + d.name + (":" + " ".join(d.args) if d.args else "") + "}"


def markup(text: str) -> Counter:
    """The emphasis count and the icons."""
    marks = Counter(f"[[{k}]]" for k in _ICON.findall(text))
    bold = len(_BOLD.findall(text))
    if bold:
        marks["**…**"] = bold
    return marks


#: A language code standing alone in a code span: ``rift-commanders-en`` names the French file ``…-fr``.
_LANG_CODE = re.compile(r"(?<![^\W_])(?:en|fr)(?![^\W_])")


def code_spans(text: str) -> Counter:
    """Code spans (`` `~/Library/` ``, ``forge.text.verbatim``): copied character for character, spaces included,
    but for a language code standing alone (a file named after its language: ``rift-commanders-en``)."""
    return Counter(_LANG_CODE.sub("{lang}", span) for span in spans(text))


MEASURES = (("parity-placeholder", "placeholders", placeholders),
            ("parity-directive", "directives", directives),
            ("parity-card-ref", "card references", card_refs),
            ("parity-markup", "markup (bold, icons)", markup),
            ("parity-verbatim", "code spans (`…`, copied as they are)", code_spans))


def check(inv: Inventory) -> list[Finding]:
    found: list[Finding] = []
    for pair in both(inv.pairs):
        found += compare(pair)
    return found


def compare(pair: Pair) -> list[Finding]:
    found = []
    prose = pair.kind.startswith("prose")
    for rule, what, measure in MEASURES:
        if rule == ("parity-placeholder" if prose else "parity-directive") or (rule == "parity-card-ref" and not prose):
            continue  # prose has directives, phrases have placeholders: each read by its own grammar
        a, b = measure(pair.en.text), measure(pair.fr.text)
        if prose and rule != "parity-markup":
            a, b = Counter(set(a)), Counter(set(b))
        if a != b and not (rule == "parity-placeholder" and _grammar_only(a, b)):
            found.append(at(pair.fr, rule, f"{label(pair)}: different {what}: en {show(a)}, fr {show(b)}",
                            f"copy them from the English as they are: {show(a)}" if a else f"remove {show(b - a)}",
                            index=_first_difference(pair.fr.text, a, b, measure)))
    return found


def _grammar_only(a: Counter, b: Counter) -> bool:
    """The French adds only plural slots on counts the English prints: « {n} {n|dégât|dégâts} de poison » for
    "{n} poison damage", a noun English does not inflect. A slot the English has stays required."""
    extra, missing = b - a, a - b
    return not missing and all(k.endswith("|…|…}") and "{%s}" % k[1:-len("|…|…}")] in a for k in extra)


def _first_difference(text: str, a: Counter, b: Counter, measure) -> int:
    """The offset of the first token the French has and the English has not (0 when one is missing)."""
    extra = b - a
    for token in extra:
        plain = token.strip("{}%").strip().split("(")[0]
        i = text.find(plain) if plain else -1
        if i >= 0:
            return max(text.rfind("{", 0, i + 1), 0) if token.startswith("{") else i
    return 0


def show(counter: Counter) -> str:
    items = [f"{k}×{v}" if v > 1 else k for k, v in sorted(counter.items())]
    return " ".join(items) if items else "none"
