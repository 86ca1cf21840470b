"""Every translatable string of a project, with a stable id, its file:line and its context.

The inventory is what a translator works through: card names, flavour and wording
overrides, faction names and identities, the locale phrase templates, the books' labels
(``strings.yaml``, the web edition's ``web/strings.yaml``) and prose, and the card template's labels (``templates/cards/card.yaml``:
the player aids, the calibration page's help, the Tabletop Simulator README). Strings come in pairs (English, French) under one id; a
string missing in one language is a pair with one side empty. Ids are stable while the
text changes: ``cards/<id>/name``, ``locales/phrases.wound``, ``strings/anatomy.cost.text``, ``template/aids.turn``,
``books/rulebook/<section>/<hash>`` (the section is the English heading's slug, the hash
the paragraph's English: ``prose_id``).

Checks (``forge.i18n.checks``), exports and stale tracking all read this one inventory.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
import hashlib

from ..core.findings import Finding
from .prose import Unit, align, units
from ..text.sources import Doc, Sources
from ..carddb.model import Position

LANGS = ("en", "fr")
BOOKS_DIR = "templates/books"
TEMPLATE_FILE = "templates/cards/card.yaml"
CARDS_DIR = "cards"
#: Locale keys that are not a translation of each other (each language's own name).
LOCALE_SKIP = {("language",)}
#: The sections of a card whose effect lines may carry a hand-written ``text:``.
_SECTIONS = ("effects", "activate", "demise", "end_of_turn")


@dataclass(frozen=True)
class Entry:
    """One string in one language, where it is written."""

    lang: str
    text: str
    doc: Doc
    line: int
    col: int
    offset: int | None  # where ``text`` starts in the file when written verbatim (columns, --fix)

    @property
    def file(self) -> str:
        return self.doc.rel

    def position(self, index: int = 0):
        """The position of character ``index`` of the string (its start when not verbatim)."""
        if self.offset is None:
            return Position(self.doc.rel, self.line, self.col)
        return self.doc.position(self.offset + index)


@dataclass(frozen=True)
class Pair:
    """A translatable string: its stable id, what it is, and its English and French entries."""

    id: str
    kind: str  # locale, card-name, card-flavor, card-wording, faction-name, faction-identity, label, prose-…
    context: str
    en: Entry | None
    fr: Entry | None
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def side(self, lang: str) -> Entry | None:
        return self.en if lang == "en" else self.fr


@dataclass
class Inventory:
    """All the pairs, the files they came from, and what could not be read."""

    sources: Sources
    pairs: list[Pair] = field(default_factory=list)
    #: The books' prose units, per book and language, for the structure check.
    prose: dict[str, dict[str, tuple[Doc, list[Unit]]]] = field(default_factory=dict)

    def by_kind(self, *kinds: str) -> list[Pair]:
        return [p for p in self.pairs if p.kind in kinds]


def build(root: Path | str, sources: Sources | None = None) -> Inventory:
    """Read every translated file of the project at ``root`` into an inventory."""
    inv = Inventory(sources or Sources(Path(root)))
    _locales(inv)
    _cards(inv)
    _strings(inv)
    _template(inv)
    _books(inv)
    return inv


# -- YAML ---------------------------------------------------------------------------------
def leaves(data: object, path: tuple = ()) -> dict[tuple, str]:
    """Every text of a nested mapping, by its path of keys."""
    if isinstance(data, dict):
        out: dict[tuple, str] = {}
        for key, value in data.items():
            out.update(leaves(value, path + (key,)))
        return out
    if isinstance(data, list):
        out = {}
        for i, value in enumerate(data):
            out.update(leaves(value, path + (i,)))
        return out
    return {path: "" if data is None else str(data)}


def dotted(path: tuple) -> str:
    return ".".join(map(str, path))


def entry(doc: Doc, path: tuple, lang: str, value: object) -> Entry:
    text = "" if value is None else str(value)
    line, col = doc.source.at(path) if doc.source else (1, 1)
    return Entry(lang, text, doc, line, col, doc.verbatim(path, text) if isinstance(value, str) else None)


def _locales(inv: Inventory) -> None:
    docs = {lang: inv.sources.yaml(f"locales/{lang}.yaml") for lang in LANGS}
    en, fr = docs["en"], docs["fr"]
    if en is None or fr is None:
        return
    _pair_trees(inv, "locales", "locale", en, (), fr, (), _locale_context)


def _locale_context(path: tuple) -> str:
    table = str(path[0])
    what = {"keywords": "a keyword's name, printed in bold on cards", "types": "a card type on the type line",
            "factions": "a faction's short name on the type line", "phrases": "a card text template",
            "frames": "a frame around card text", "events": "an event in a triggered ability",
            "trap_kinds": "a trap kind on the type line", "sets": "a set name",
            "play": "a word of the browser play page (`forge play`: prompts, option buttons, board labels)",
            "log": "a line of the game log (`forge replay`, the replay viewer, `forge play`): {player}, {card}, "
                   "{faction} are names, {n}/{m} counts",
            "web": "a word of the card gallery or the replay viewer (`forge render gallery`, `forge replay --html`): "
                   "{player} is a name, {n}/{total}/{page}/{turn}/{h0}/{h1} numbers",
            }.get(table, "a printed label")
    return f"locale `{dotted(path)}`: {what}"


def _pair_trees(inv: Inventory, prefix: str, kind: str, en: Doc, en_base: tuple, fr: Doc, fr_base: tuple,
                context) -> None:
    """Pair the leaves of two trees (the two locale files, or the two halves of strings.yaml)."""
    en_tree, fr_tree = en.data, fr.data
    for key in en_base:
        en_tree = en_tree.get(key) if isinstance(en_tree, dict) else None
    for key in fr_base:
        fr_tree = fr_tree.get(key) if isinstance(fr_tree, dict) else None
    a, b = leaves(en_tree or {}), leaves(fr_tree or {})
    for path in list(a) + [p for p in b if p not in a]:
        if path in LOCALE_SKIP and prefix == "locales":
            continue
        inv.pairs.append(Pair(
            f"{prefix}/{dotted(path)}", kind, context(path),
            entry(en, en_base + path, "en", _raw(en_tree, path)) if path in a else None,
            entry(fr, fr_base + path, "fr", _raw(fr_tree, path)) if path in b else None,
            {"path": path, "base": {"en": en_base, "fr": fr_base}}))


def _raw(tree: object, path: tuple) -> object:
    for key in path:
        tree = tree[key]
    return tree


def _cards(inv: Inventory) -> None:
    folder = inv.sources.root / CARDS_DIR
    try:
        files = sorted(p.name for p in folder.iterdir() if p.suffix in (".yaml", ".yml"))
    except OSError:
        return  # the card loader reports a missing or unreadable folder
    for name in files:
        doc = inv.sources.yaml(f"{CARDS_DIR}/{name}")
        if doc is None:
            continue
        for i, raw in enumerate(_items(doc.data.get("factions"))):
            fid = str(raw.get("id", f"#{i}"))
            base = ("factions", i)
            _lang_pair(inv, doc, base + ("name",), f"factions/{fid}/name", "faction-name", f"faction `{fid}`: its name")
            _lang_pair(inv, doc, base + ("identity",), f"factions/{fid}/identity", "faction-identity",
                       f"faction `{fid}`: its identity paragraph (rulebook, factions table)")
        for i, raw in enumerate(_items(doc.data.get("cards"))):
            _card(inv, doc, ("cards", i), raw)


def _items(value: object) -> list[dict]:
    return [v if isinstance(v, dict) else {} for v in value] if isinstance(value, list) else []


def _card(inv: Inventory, doc: Doc, base: tuple, raw: dict) -> None:
    cid = str(raw.get("id", f"{doc.rel}#{base[1]}"))
    what = f"card `{cid}` ({raw.get('type', '?')})"
    meta = {"card": cid, "type": raw.get("type")}
    _lang_pair(inv, doc, base + ("name",), f"cards/{cid}/name", "card-name", f"{what}: its name", meta)
    _lang_pair(inv, doc, base + ("flavor",), f"cards/{cid}/flavor", "card-flavor", f"{what}: its flavour text", meta)
    lines = [((s,), raw.get(s)) for s in _SECTIONS]
    lines += [(("triggers", t, "effects"), trig.get("effects"))
              for t, trig in enumerate(_items(raw.get("triggers")))]
    for path, items in lines:
        for i, line in enumerate(_items(items)):
            if "text" in line:
                where = dotted(path + (i,))
                _lang_pair(inv, doc, base + path + (i, "text"), f"cards/{cid}/{where}.text", "card-wording",
                           f"{what}: the printed wording of {where}", meta)


def _lang_pair(inv: Inventory, doc: Doc, path: tuple, pid: str, kind: str, context: str,
               meta: dict | None = None) -> None:
    """A ``{en: …, fr: …}`` mapping as a pair (nothing when the field is absent)."""
    value = get_path(doc.data, path)
    if value is None:
        return
    sides: dict[str, Entry | None] = {lang: None for lang in LANGS}
    if isinstance(value, dict):
        for lang in LANGS:
            if lang in value:
                sides[lang] = entry(doc, path + (lang,), lang, value[lang])
    inv.pairs.append(Pair(pid, kind, context, sides["en"], sides["fr"], {**(meta or {}), "path": path}))


def get_path(data: object, path: tuple) -> object:
    """The value at a path of keys and list indexes, or None."""
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data


#: The books' label files: (file under templates/books, id prefix, kind, what the translator is told).
LABEL_FILES = (
    ("strings.yaml", "strings", "label", "book label `{}` (strings.yaml)"),
    ("web/strings.yaml", "web", "web-label", "web edition label `{}` (web/strings.yaml: the page's search box and "
                                             "button, navigation, index; screen readers hear some)"),
)


def _strings(inv: Inventory) -> None:
    """The books' labels (``strings.yaml``) and the web edition's (``web/strings.yaml``), each an ``en:`` and ``fr:`` table."""
    for name, prefix, kind, what in LABEL_FILES:
        rel = f"{BOOKS_DIR}/{name}"
        if not (inv.sources.root / rel).exists() and not (inv.sources.root / rel).is_symlink():
            continue
        doc = inv.sources.yaml(rel)
        if doc is None:
            continue
        for lang in LANGS:
            if not isinstance(doc.data.get(lang), dict):
                inv.sources.failed.add(rel)
                inv.sources.findings.append(Finding(doc.at((lang,) if lang in doc.data else ()), "parity-key",
                                                    f"{name} has no `{lang}:` table of labels",
                                                    f"add `{lang}:` with the same keys as the other language"))
        _pair_trees(inv, prefix, kind, doc, ("en",), doc, ("fr",), lambda path, what=what: what.format(dotted(path)))


#: Where each of the card template's labels prints, for the translator (by its first key).
_TEMPLATE_WHERE = {
    "aids": "the player aids (turn summary, trackers, mat, tokens: `forge render aids`)",
    "calibration_help": "one line of the duplex calibration page's help (`forge render calibration`)",
    "tts_help": "a line of the Tabletop Simulator README.txt (plain text: spaces are layout)",
    "backs": "a card back's label", "sides": "the page label of a print-and-play sheet",
}


def _template(inv: Inventory) -> None:
    """The card template's ``labels.en`` and ``labels.fr``: aids, calibration help, TTS help, page labels.

    A missing template is the renderer's finding (``forge validate``); a template without
    a ``labels.fr`` table is left to the presence check, string by string.
    """
    if not (inv.sources.root / TEMPLATE_FILE).exists():
        return
    doc = inv.sources.yaml(TEMPLATE_FILE)
    if doc is None or not isinstance(doc.data.get("labels"), dict):
        return
    _pair_trees(inv, "template", "template-label", doc, ("labels", "en"), doc, ("labels", "fr"),
                lambda path: f"card template label `{dotted(path)}` (card.yaml): "
                             + _TEMPLATE_WHERE.get(str(path[0]), "a label the renderer prints"))


# -- prose ----------------------------------------------------------------------------------
def _books(inv: Inventory) -> None:
    folder = inv.sources.root / BOOKS_DIR
    if not folder.is_dir():
        return
    names = sorted({p.name.rsplit(".", 2)[0] for p in folder.glob("*.*.md") if p.name.count(".") == 2})
    for book in names:
        for lang in LANGS:
            rel = f"{BOOKS_DIR}/{book}.{lang}.md"
            if (folder / f"{book}.{lang}.md").exists() or (folder / f"{book}.{lang}.md").is_symlink():
                doc = inv.sources.text(rel)
                if doc is not None:
                    inv.prose.setdefault(book, {})[lang] = (doc, units(doc.text))
        sides = inv.prose.get(book, {})
        if set(sides) == set(LANGS):
            _pair_prose(inv, book, sides["en"], sides["fr"])


_TEXT_UNITS = ("heading", "paragraph", "item", "meta")


def _pair_prose(inv: Inventory, book: str, en: tuple[Doc, list[Unit]], fr: tuple[Doc, list[Unit]]) -> None:
    """Pair the units of the two languages where their structures agree (the structure check reports the rest).

    A unit's id is made from its English (``prose_id``), not from its place: a paragraph
    inserted above it leaves it unchanged. The pair also keeps the numbered id of the
    previous scheme (``legacy``), so a fingerprints file written before reads on.
    """
    (en_doc, a), (fr_doc, b) = en, fr
    section, count = "intro", 0
    taken: set[str] = set()
    for op, i1, i2, j1, j2 in align(a, b):
        if op != "equal":
            continue
        for ua, ub in zip(a[i1:i2], b[j1:j2]):
            if ua.kind == "heading":
                section, count = _slug(ua.text), 0
            if ua.kind not in _TEXT_UNITS:
                continue
            count += 1
            if ua.kind == "meta":
                pid, legacy = f"books/{book}/{ua.key}", None
            else:
                pid, legacy = prose_id(book, section, ua.text, taken), f"books/{book}/{section}/{count}"
            taken.add(pid)
            inv.pairs.append(Pair(pid, f"prose-{ua.kind}", f"book `{book}`, {ua.kind} in section `{section}`",
                                  _prose_entry(en_doc, ua, "en"), _prose_entry(fr_doc, ub, "fr"),
                                  {"book": book, "section": section, **({"legacy": legacy} if legacy else {}),
                                   **({"level": len(ua.key)} if ua.kind == "heading" else {})}))


def prose_id(book: str, section: str, english: str, taken: set[str]) -> str:
    """``books/<book>/<section>/<hash of the English>``; the same English twice gets ``-2``, ``-3``… in order.

    The hash ignores how the English is wrapped, as fingerprints do. Editing a paragraph's
    English changes its id; ``fingerprints`` finds its record again by its French.
    """
    digest = hashlib.sha256(" ".join(english.split()).encode("utf-8")).hexdigest()[:8]
    base = f"books/{book}/{section}/{digest}"
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    return pid


def _prose_entry(doc: Doc, unit: Unit, lang: str) -> Entry:
    pos = doc.position(unit.offset)
    return Entry(lang, unit.text, doc, pos.line, pos.col, unit.offset)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"\{\{.*?\}\}|\{#.*?\}", "", text).casefold()).strip("-") or "section"
