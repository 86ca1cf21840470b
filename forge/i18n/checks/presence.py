"""Every string exists in both languages: a missing key or language, or an empty translation."""
from __future__ import annotations

from ...core.findings import Finding
from ..inventory import Inventory, dotted
from . import at, label


def check(inv: Inventory) -> list[Finding]:
    found: list[Finding] = []
    for pair in inv.pairs:
        for lang, mine, other in (("en", pair.en, pair.fr), ("fr", pair.fr, pair.en)):
            olang = "fr" if lang == "en" else "en"
            if mine is None and other is not None:
                found.append(_missing(pair, other, lang, olang))
            elif mine is not None and other is not None and not mine.text.strip() and other.text.strip():
                found.append(at(mine, "parity-empty", f"{label(pair)} is empty in `{lang}`",
                                f"translate it: \"{other.text[:60]}\""))
    return found


def _missing(pair, other, lang: str, olang: str) -> Finding:
    path = pair.meta.get("path", ())
    if pair.kind in ("locale", "label", "template-label"):
        where = other.doc.at(pair.meta["base"][olang] + path, key=True)
        home = {"label": "strings.yaml", "template-label": "card.yaml"}.get(pair.kind, f"locales/{lang}.yaml")
        target = f"to locales/{lang}.yaml" if pair.kind == "locale" else \
            f"under `{dotted(pair.meta['base'][lang])}:` in {home}"
        return Finding(where, "parity-key", f"`{dotted(path)}` has no `{lang}` version in {home}",
                       f"add `{dotted(path)}` {target}, translated")
    return Finding(other.doc.at(path), "parity-language", f"{label(pair)} has no `{lang}` version",
                   f"add `{lang}:` next to `{olang}:`, translated")
