"""The edits the three old YAML editors made, as inputs: the corpus ``test_yaml_editor_corpus`` replays.

Each case is deterministic data (texts of the shipped files and small hand-made ones, paths,
values); the expected outputs were recorded by running the old code (``forge.i18n.yamledit``,
``forge.i18n.fix``, ``forge.spreadsheet.merge``) on them, and are stored as SHA-256 digests in
``yaml_editor_corpus.json``. The editor that replaced the three must produce the same bytes.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from forge.carddb import yamlsrc

REPO = Path(__file__).resolve().parents[2]
#: The shipped files as they were when the old editors' outputs were recorded: a card or a translation
#: edited later changes the game, not what this corpus proves.
INPUTS = Path(__file__).resolve().parent / "yaml_corpus"
SHIPPED = ["cards/black.yaml", "cards/blue.yaml", "cards/red.yaml", "cards/white.yaml", "cards/rites.yaml",
           "cards/starter.yaml", "cards/factions.yaml", "locales/fr.yaml", "templates/cards/card.yaml",
           "templates/books/strings.yaml", "templates/books/web/strings.yaml"]
#: French values that test every quoting rule: quotes, `#`, `: `, line breaks, flow characters, escapes.
VALUES = ["Étincelle", "l'eau", 'un "mot"', "deux: points", "ligne\nsuivante", "p, q", "#tag", "", " bord",
          "x #y", "fin:", "[crochet]", "true", "12", "- tiret", "\u2028sep", "tab\there", "«\u00a0Guillemets\u00a0»",
          "a\\b", "{x}", "@at", "Quoi\u00a0?", "'cité'", "multi\n\nlignes\n"]
SMALL = [
    "a: plain  # note\n",
    "a: 'single'\n",
    'a: "double"\n',
    "a: {en: x, fr: y}\n",
    "a: {en: x}\n",
    "a: {}\n",
    "a:\n  en: x\n  fr: >-\n    folded\n    text\n",
    "a:\n  en: x\n  fr: |\n    literal\n\nb: 1\n",
    "a:\n  en: x  # c\n",
    "a:\n  en: x\n  # trailing comment\nb: 2\n",
    "a:\n  en: x",
    "a: [x, 'y', \"z\"]\n",
    "- {en: x, fr: y}\n- {en: z, fr: w}\n",
    "a:\r\n  en: x\r\n  fr: y\r\n",
    "a: {en: x,\n    fr: y}  # wrapped\n",
    "a:\n\ten: x\n",
]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _strings(data, path=()):
    """Every string leaf of a document, with its path."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _strings(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _strings(v, path + (i,))
    elif isinstance(data, str):
        yield path, data


def _mappings(data, path=()):
    if isinstance(data, dict):
        yield path, data
        for k, v in data.items():
            yield from _mappings(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _mappings(v, path + (i,))


def scalar_cases():
    """(name, text, ops): ops are ("replace", path, value, quoted_only) or ("insert", parent, key, value, quoted_only)."""
    texts = [(rel, (INPUTS / rel).read_text(encoding="utf-8").removeprefix("\ufeff")) for rel in SHIPPED]
    texts += [(f"small{i}", t) for i, t in enumerate(SMALL)]
    n = 0
    for name, text in texts:
        try:
            data, _ = yamlsrc.load(text)
        except yamlsrc.YamlError:
            continue
        leaves = list(_strings(data))
        step = max(1, len(leaves) // 60)
        for path, _old in leaves[::step]:
            n += 1
            yield f"{name}:{path}", text, [("replace", path, VALUES[n % len(VALUES)], n % 5 == 0)]
        tables = [p for p, m in _mappings(data) if m]
        for path in tables[::max(1, len(tables) // 15)]:
            n += 1
            yield f"{name}:+{path}", text, [("insert", path, "zz", VALUES[n % len(VALUES)], n % 7 == 0)]
        ops = [("replace", p, VALUES[(i * 3) % len(VALUES)], False) for i, (p, _o) in enumerate(leaves[::step * 2])]
        yield f"{name}:all", text, ops
    for i, (text, ops) in enumerate(REFUSED):
        yield f"refused{i}", text, ops


#: Edits the old editor refused (EditError): a table that is not there, a value that is not a scalar.
REFUSED = [("a: 1\n", [("insert", ("missing",), "fr", "x", False)]),
           ("a: {en: x}\n", [("replace", ("a",), "x", False)]),
           ("a: [x]\n", [("insert", ("a",), "fr", "x", False)]),
           ("a: {en: x}\n", [("replace", ("a", "fr"), "x", False)])]


def _changed(card: dict, i: int) -> dict:
    new = dict(card)
    kind = i % 5
    if kind == 0 and isinstance(new.get("name"), dict):
        new["name"] = {**new["name"], "fr": new["name"].get("fr", "") + " (nouveau)"}
    elif kind == 1:
        new["cost"] = (new.get("cost") or 0) + 1
        new["effects"] = [{"wound": 2}, {"draw": 1, "effects": [{"heal": 1}]}]
    elif kind == 2:
        new.pop("flavor", None)
        new["copies"] = 1
    elif kind == 3:
        new["triggers"] = [{"when": "played", "effects": [{"wound": 1}]}]
        new["name"] = {"en": "Odd: name", "fr": "Nom « étrange »"}
    else:
        new = {"id": new.get("id"), **{k: v for k, v in reversed(list(new.items())) if k != "id"}}
    return new


NEW_CARD = {"id": "zz-new", "type": "spell", "factions": ["red"], "cost": 2, "allegiance": {"red": 1},
            "copies": 2, "name": {"en": "New: Card", "fr": "Nouvelle carte"}, "effects": [{"wound": 1}],
            "flavor": {"en": "Say \"hi\"", "fr": "l'écho"}}
MERGE_SMALL = [
    "cards:\n  - id: a  # first\n    cost: 1\n\n  # about b\n  - id: b\n    cost: 2\n",
    "cards:\n- id: a\n  cost: 1\n  name: {en: A, fr: A}\n",
    "cards:\n  - {id: a, cost: 1}\n  - id: b\n    cost: 2\n",
    "# header only\ncards: []\n",
    "cards:\n  - id: a\n    flavor: |\n      text\n      # inside\n  - id: b\n    cost: 2\n",
]


def merge_cases():
    """(name, text or None, changes by index, additions)."""
    texts = [(rel, (INPUTS / rel).read_text(encoding="utf-8")) for rel in SHIPPED if rel.startswith("cards/")]
    texts += [(f"msmall{i}", t) for i, t in enumerate(MERGE_SMALL)]
    for name, text in texts:
        data, _ = yamlsrc.load(text)
        cards = list((data or {}).get("cards") or [])
        for i, card in enumerate(cards):
            yield f"{name}#{i}", text, {i: _changed(card, i)}, []
        if cards:
            yield f"{name}#all", text, {i: _changed(c, i + 1) for i, c in enumerate(cards)}, [NEW_CARD]
        yield f"{name}#add", text, {}, [NEW_CARD, {**NEW_CARD, "id": "zz-two"}]
    yield "none#add", None, {}, [NEW_CARD]


#: French typography the fixes put right: each replacement makes one kind of problem in the shipped French.
TYPOS = [("\u00a0:", " :"), ("\u00a0;", ";"), ("’", "'"), ("\u00a0!", "  !"), (". ", " . "), ("« ", "«"),
         ("\u00a0?", "\t?")]


def damage(root: Path) -> None:
    """Put typography problems into the French of a copy of the project (every third occurrence of each)."""
    for rel in SHIPPED:
        if rel.startswith("templates/") or rel == "cards/factions.yaml":
            continue
        path = root / rel
        text = path.read_text(encoding="utf-8")
        for good, bad in TYPOS:
            parts = text.split(good)
            text = parts[0] + "".join((bad if i % 3 == 0 else good) + p for i, p in enumerate(parts[1:]))
        if rel == "cards/red.yaml":
            text = text.replace("\n", "\r\n")  # a CRLF file
        if rel == "cards/blue.yaml":
            text = "\ufeff" + text  # a BOM
        path.write_text(text, encoding="utf-8", newline="")
