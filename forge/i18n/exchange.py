"""The translators' files: every translatable string as a .po (gettext) or an XLIFF 2.0 document.

Each string goes out with its English source, its stable id (the .po's ``msgctxt``, the
XLIFF unit's ``name``), where it is written in both languages, what it is (the card, its
type, where it prints), a link to the card's image, the room it has where it prints (``limits``:
a note, ``max-length:N`` among the .po's flags, ``slr:sizeRestriction`` in XLIFF), the termbase
terms it contains, and
whether its French is stale (fuzzy in the .po, ``subState="forge:needs-review"`` in XLIFF).
The .po is written by polib; XLIFF 2.0 is built with lxml (no maintained Python library
writes 2.0 with notes and states: translate-toolkit's reader/writer is GPL and 1.2-first).
Output is byte-identical run to run: no dates, the inventory's order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
import os

from . import fingerprints, inventory, limits
from ..text import termbase
from .checks.terms import used_terms

PO_HEADER = "Rift Commanders: the French of every translatable string. Made by `forge i18n export`;\n" \
            "translate, then `forge i18n import FILE`. msgctxt is the string's stable id: leave it."
XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
NEEDS_REVIEW = "forge:needs-review"
#: XLIFF 2.0's Size and Length Restriction module: ``slr:sizeRestriction`` counts code points (the profile).
SLR_NS = "urn:oasis:names:tc:xliff:sizerestriction:2.0"
#: The .po flag Weblate (and ``forge i18n import``) read as the most characters a translation may have.
MAX_LENGTH_FLAG = "max-length:"
TARGET = "fr"


@dataclass
class Item:
    """One string to translate: its id, the English, today's French, the notes for the translator."""

    id: str
    en: str
    fr: str
    stale: bool
    notes: list[str] = field(default_factory=list)
    where: list[tuple[str, str]] = field(default_factory=list)  # (file, line) of the English, then the French
    max_length: int | None = None  # the most characters that fit where it prints (``limits``)


def catalog(root) -> list[Item]:
    """Every pair of the project that has an English text, in the inventory's order."""
    inv = inventory.build(root)
    tb = termbase.load(inv.sources)
    tracking = fingerprints.Tracking(inv, fingerprints.load(inv.sources))
    room = limits.compute(root, inv)
    items = []
    for pair in inv.pairs:
        if pair.en is None or not pair.en.text.strip():
            continue
        limit = room.get(pair.id)
        notes = _notes(pair, tb)
        if limit is not None:
            translated = bool(pair.fr and pair.fr.text.strip())
            notes.append(limit.note(pair.fr.text if translated else pair.en.text,
                                    "French" if translated else "English"))
        items.append(Item(pair.id, pair.en.text, pair.fr.text if pair.fr else "",
                          tracking.is_stale(pair), notes,
                          list(dict.fromkeys((e.file, str(e.line)) for e in (pair.en, pair.fr) if e is not None)),
                          limit.chars if limit is not None else None))
    return items


def _notes(pair: inventory.Pair, tb: termbase.Termbase) -> list[str]:
    notes = [pair.context[:1].upper() + pair.context[1:] + "."]
    if "card" in pair.meta:
        notes.append(f"Card image: output/gamecrafter/{TARGET}/{pair.meta['card']}.png (after `forge render cards`).")
    terms = used_terms(pair.en.text, tb) if pair.kind not in ("card-name", "faction-name") else []
    if terms:
        notes.append("Terms: " + "; ".join(_term(t) for t in terms) + ".")
    return notes


def _term(t: termbase.Term) -> str:
    gender = f" ({t.gender}.)" if t.gender else ""
    return f"{t.en} = {t.fr}{gender}"


# -- gettext ----------------------------------------------------------------------------------
def to_po(items: list[Item], stale_note: str = "The English changed since this French was written: review it.") -> str:
    import polib  # lazy: loads polib only when needed

    po = polib.POFile(wrapwidth=78)
    po.header = PO_HEADER
    po.metadata = {
        "Project-Id-Version": "Rift Commanders",
        "Language": TARGET,
        "PO-Revision-Date": _revision_date(),
        "Last-Translator": "forge i18n export",
        "Language-Team": "French",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n > 1);",
        "X-Generator": "forge i18n export",
    }
    for item in items:
        notes = item.notes + ([stale_note] if item.stale else [])
        flags = (["fuzzy"] if item.stale and item.fr else []) + \
            ([f"{MAX_LENGTH_FLAG}{item.max_length}"] if item.max_length is not None else [])
        po.append(polib.POEntry(msgctxt=item.id, msgid=item.en, msgstr=item.fr, comment="\n".join(notes),
                                occurrences=item.where, flags=flags))
    return str(po) + "\n"


def _revision_date() -> str:
    """SOURCE_DATE_EPOCH when set (reproducible builds), else the epoch: never the wall clock."""
    try:
        stamp = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    except ValueError:
        stamp = 0
    return datetime.fromtimestamp(max(stamp, 0), timezone.utc).strftime("%Y-%m-%d %H:%M+0000")


# -- XLIFF 2.0 --------------------------------------------------------------------------------
_NOT_NMTOKEN = re.compile(r"[^\w.:-]", re.UNICODE)


def unit_id(stable: str) -> str:
    """An XML NMTOKEN for a stable id (``/`` becomes ``:``); the exact id is the unit's ``name``."""
    return _NOT_NMTOKEN.sub("_", stable.replace("/", ":")) or "_"


def to_xliff(items: list[Item]) -> bytes:
    from lxml import etree  # lazy: loads lxml only when needed

    q = lambda tag: f"{{{XLIFF_NS}}}{tag}"
    root = etree.Element(q("xliff"), nsmap={None: XLIFF_NS, "slr": SLR_NS}, version="2.0", srcLang="en",
                         trgLang=TARGET)
    root.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")  # line breaks in prose are the text
    file_el = etree.SubElement(root, q("file"), id="rift-commanders", original="forge i18n export")
    # sizes are counted in Unicode code points, as the .po's max-length and Python's len()
    etree.SubElement(file_el, f"{{{SLR_NS}}}profiles", generalProfile="xliff:codepoints")
    seen: set[str] = set()
    for item in items:
        uid = unit_id(item.id)
        n = 2
        while uid in seen:
            uid, n = f"{unit_id(item.id)}-{n}", n + 1
        seen.add(uid)
        unit = etree.SubElement(file_el, q("unit"), id=uid, name=item.id)
        if item.max_length is not None:
            unit.set(f"{{{SLR_NS}}}sizeRestriction", str(item.max_length))
        notes = etree.SubElement(unit, q("notes"))
        for text in item.notes:
            etree.SubElement(notes, q("note"), category="context").text = text
        for file, line in item.where:
            etree.SubElement(notes, q("note"), category="location").text = f"{file}:{line}"
        if item.stale:
            etree.SubElement(notes, q("note"), category="review").text = \
                "The English changed since this French was written: review it."
        state = {"state": "initial"} if not item.fr else \
            {"state": "translated", "subState": NEEDS_REVIEW} if item.stale else {"state": "reviewed"}
        segment = etree.SubElement(unit, q("segment"), **state)
        etree.SubElement(segment, q("source")).text = item.en
        if item.fr:
            etree.SubElement(segment, q("target")).text = item.fr
    etree.indent(root, space="  ")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


__all__ = ["Item", "catalog", "to_po", "to_xliff", "unit_id", "NEEDS_REVIEW", "XLIFF_NS", "SLR_NS",
           "MAX_LENGTH_FLAG"]
