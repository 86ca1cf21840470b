"""French/English parity of everything the game prints, for translators.

Four sources are compared language against language: the locale phrase files,
the cards (names, flavour, hand-written wordings and their compiled text), the
books' prose (``templates/books/<book>.<lang>.md``) and the books' short labels
(``templates/books/strings.yaml``). French strings are also checked for French
typography. Each check returns findings; nothing here prints or exits.
"""
from __future__ import annotations

import difflib
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from . import safeio, yamlsrc
from .database import LoadResult, load_database, unsafe_finding
from .findings import WARNING, Finding
from .model import Card, Position
from .text import _NUMBER, _PLACEHOLDER, Phrasebook, PhraseError, load_phrasebooks, parse_markup

LANGS = ("en", "fr")
BOOKS_DIR = "templates/books"

#: Words printed the same in both languages on purpose: an identical name or flavour
#: made only of these is not "possibly untranslated".
SHARED_WORDS = frozenset({
    "poison", "verdict", "sacrifice", "rite", "rites", "rift commanders", "notes", "type", "page",
    "faction", "identité", "identity", "q", "a",
})
#: Locale keys whose values legitimately differ in shape (the language's own name).
_LOCALE_SKIP = {("language",)}
NBSPS = "\u00a0\u202f"
_FR_MARKS = ":;!?"
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ICON = re.compile(r"\[\[([a-z_]+)\]\]")
_JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
_JINJA_TAG = re.compile(r"\{%-?\s*(\w+)(?:\s+(\w+))?")
_JINJA_CALL = re.compile(r"\{\{-?\s*([\w.]+)\s*\(")
_HEADING = re.compile(r"^(#{1,6})\s")


@dataclass
class ParityReport:
    """The findings of a parity run, and how many strings were checked in each language."""

    findings: list[Finding] = field(default_factory=list)
    strings: Counter = field(default_factory=Counter)
    io_error: bool = False

    def summary(self) -> dict:
        return {
            "strings": {lang: self.strings[lang] for lang in LANGS},
            "by_rule": dict(sorted(Counter(f.rule for f in self.findings).items())),
            "errors": sum(f.severity != WARNING for f in self.findings),
            "warnings": sum(f.severity == WARNING for f in self.findings),
        }


def parity(root: Path | str) -> ParityReport:
    """Compare the English and French of the project at ``root``."""
    root = Path(root)
    report = ParityReport()
    locales = {lang: _read_yaml(root, f"locales/{lang}.yaml", report) for lang in LANGS}
    if all(locales.values()):
        report.findings += check_locales(locales, report.strings)
    load = load_database(root)
    report.findings += load.refused  # a card file that is a pipe, a device, a folder, a link out, huge
    report.io_error |= any(f.rule == "io" for f in load.refused)
    if not load.io_error:
        try:
            books = load_phrasebooks(root)
        except PhraseError:
            books = {}  # already reported above, or by `forge validate`
        report.findings += check_cards(load, books, report.strings)
    if (root / BOOKS_DIR).is_dir():
        report.findings += check_books(root, report)
    report.findings.sort(key=lambda f: (f.position.file, f.position.line, f.position.col, f.rule, f.message))
    return report


# -- reading -------------------------------------------------------------------
@dataclass
class _Yaml:
    """A parsed YAML file with its positions and lines."""

    rel: str
    data: object
    source: yamlsrc.SourceMap
    lines: list[str]

    def at(self, path: tuple, key: bool = False) -> Position:
        return Position(self.rel, *self.source.at(path, key=key))

    def at_offset(self, path: tuple, value: str, offset: int) -> Position:
        """The position of character ``offset`` of a one-line scalar (its start if it spans lines)."""
        line, col = self.source.at(path)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if "\n" in value:
            return Position(self.rel, line, col)
        quoted = col - 1 < len(text) and text[col - 1] in "'\""
        return Position(self.rel, line, col + offset + quoted)


def _read_yaml(root: Path, rel: str, report: ParityReport) -> _Yaml | None:
    try:
        text = safeio.read_text(root / rel, root)
        data, source = yamlsrc.load(text)
    except safeio.UnsafeInput as exc:
        report.io_error |= exc.rule == "io"
        report.findings.append(unsafe_finding(exc, rel))
        return None
    except UnicodeDecodeError:
        report.findings.append(Finding(Position(rel), "encoding", "the file is not UTF-8", "save it as UTF-8"))
        return None
    except yamlsrc.YamlError as exc:
        report.findings.append(Finding(Position(rel, exc.line, exc.col), exc.rule, exc.message, exc.hint))
        return None
    if not isinstance(data, dict):
        report.findings.append(Finding(Position(rel, 1, 1), "shape", "the top level must be a mapping",
                                       "start the file with `key: value` entries"))
        return None
    return _Yaml(rel, data, source, text.splitlines())


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


def _dotted(path: tuple) -> str:
    return ".".join(map(str, path))


# -- phrases: keys, placeholders, markup -------------------------------------------
def check_locales(locales: dict[str, _Yaml], strings: Counter) -> list[Finding]:
    """The two locale files have the same keys, placeholders and markup."""
    en, fr = locales["en"], locales["fr"]
    found = _pair_leaves(en, fr, leaves(en.data), leaves(fr.data), (), strings, "locale")
    for lang, doc in locales.items():
        for path, value in leaves(doc.data).items():
            if path not in _LOCALE_SKIP:
                found += _typography(doc, path, value, lang)
    return found


def _pair_leaves(en: _Yaml, fr: _Yaml, en_leaves: dict, fr_leaves: dict, prefix: tuple,
                 strings: Counter, what: str) -> list[Finding]:
    """Keys present in both, then same placeholders and markup in each pair (paths under ``prefix``)."""
    found: list[Finding] = []
    for lang, mine, other, doc, other_doc in (("en", en_leaves, fr_leaves, en, fr),
                                               ("fr", fr_leaves, en_leaves, fr, en)):
        strings[lang] += len(mine)
        for path in mine:
            if path not in other and path not in _LOCALE_SKIP:
                olang = "fr" if lang == "en" else "en"
                found.append(Finding(doc.at(prefix + path, key=True), "parity-key",
                                     f"`{_dotted(path)}` has no `{olang}` version in {other_doc.rel}",
                                     f"add `{_dotted(path)}` to {other_doc.rel}, translated"))
    for path in sorted(set(en_leaves) & set(fr_leaves), key=lambda p: tuple(map(str, p))):
        if path in _LOCALE_SKIP:
            continue
        found += _compare_phrase(fr, prefix + path, _dotted(path), en_leaves[path], fr_leaves[path], what)
    return found


def placeholders(text: str) -> Counter:
    """The placeholders of a phrase: ``{n}`` and ``{n|a|b}`` are told apart, the words of a plural are not."""
    return Counter(f"{{{m.group(1)}|…|…}}" if m.group(2) is not None else f"{{{m.group(1)}}}"
                   for m in _PLACEHOLDER.finditer(text))


def markup(text: str) -> Counter:
    """The emphasis count and the icons of a phrase."""
    marks: Counter = Counter(_ICON.findall(text))
    marks = Counter({f"[[{k}]]": v for k, v in marks.items()})
    bold = len(_BOLD.findall(text))
    if bold:
        marks["**…**"] = bold
    return marks


def _compare_phrase(fr: _Yaml, path: tuple, name: str, en_text: str, fr_text: str, what: str) -> list[Finding]:
    found = []
    for rule, measure, label in (("parity-placeholder", placeholders, "placeholders"),
                                 ("parity-markup", markup, "markup")):
        a, b = measure(en_text), measure(fr_text)
        if a != b:
            found.append(Finding(fr.at(path), rule,
                                 f"`{name}`: different {label} in the two {what}s: en {_show(a)}, fr {_show(b)}",
                                 f"use the same {label} as the English: {_show(a)}"))
    return found


def _show(counter: Counter) -> str:
    items = [f"{k}×{v}" if v > 1 else k for k, v in sorted(counter.items())]
    return " ".join(items) if items else "none"


# -- cards --------------------------------------------------------------------------
def check_cards(load: LoadResult, books: dict[str, Phrasebook], strings: Counter) -> list[Finding]:
    """Names, flavour and wordings exist in both languages; compiled texts match line by line."""
    found: list[Finding] = []
    sources = {rel: _Yaml(rel, None, src, _file_lines(load.root, rel)) for rel, src in load.sources.items()}
    for card in load.db.cards:
        found += _card_strings(load, sources, card, strings)
        if set(LANGS) <= set(books):
            found += _card_text(load, books, card)
    return found


def _file_lines(root: Path, rel: str) -> list[str]:
    try:
        return safeio.read_text(root / rel, root).splitlines()
    except (safeio.UnsafeInput, UnicodeDecodeError):
        return []  # the file was read a moment ago; columns fall back to the value's start


def _card_strings(load: LoadResult, sources: dict, card: Card, strings: Counter) -> list[Finding]:
    found: list[Finding] = []
    file, base = load.card_paths.get(card.id, ("", ()))
    doc = sources.get(file)
    fields = [(("name",), card.name), (("flavor",), card.flavor)]
    fields += [(path + (i, "text"), line.override) for path, i, line in _override_lines(card)]
    for path, values in fields:
        if not values:
            continue
        where = " ".join(map(str, path))
        for lang in LANGS:
            if lang not in values:
                found.append(Finding(load.card_position(card.id, *path), "parity-language",
                                     f"`{card.id}` {where} has no `{lang}` version",
                                     f"add `{lang}:` to the {where}"))
            elif doc is not None:
                strings[lang] += 1
                found += _typography(doc, base + path + (lang,), str(values[lang]), lang)
        if path[0] in ("name", "flavor") and _untranslated(values):
            found.append(Finding(load.card_position(card.id, *path), "untranslated",
                                 f"`{card.id}` {where} is the same in English and French: \"{values['en']}\"",
                                 "translate it, or add the word to parity.SHARED_WORDS if it is shared on purpose",
                                 severity=WARNING))
    return found


def _untranslated(values: dict) -> bool:
    en, fr = str(values.get("en", "")).strip(), str(values.get("fr", "")).strip()
    return bool(en) and en == fr and en.casefold() not in SHARED_WORDS


def _override_lines(card: Card):
    for section in ("effects", "activate", "demise", "end_of_turn"):
        for i, line in enumerate(getattr(card, section)):
            if line.override:
                yield (section,), i, line
    for t, trig in enumerate(card.triggers):
        for i, line in enumerate(trig.lines):
            if line.override:
                yield ("triggers", t, "effects"), i, line


def essentials(line: str) -> tuple[Counter, Counter, int]:
    """What both languages of a printed line share: its numbers, its icons, its count of keywords."""
    spans = parse_markup(line)
    numbers = Counter(_NUMBER.findall("".join(s.value for s in spans if s.kind == "text")))
    icons = Counter(s.value for s in spans if s.kind == "icon")
    return numbers, icons, sum(s.kind == "keyword" for s in spans)


def _card_text(load: LoadResult, books: dict[str, Phrasebook], card: Card) -> list[Finding]:
    try:
        en, fr = books["en"].card_text(card), books["fr"].card_text(card)
    except PhraseError:
        return []  # a phrase that does not compile is `forge validate`'s finding
    pos = load.card_position(card.id)
    if len(en) != len(fr):
        return [Finding(pos, "parity-text", f"`{card.id}` prints {len(en)} lines in English and {len(fr)} in French",
                        "give both languages the same lines (check the `text:` wordings)")]
    found = []
    for i, (a, b) in enumerate(zip(en, fr), 1):
        for label, x, y in zip(("numbers", "icons", "keyword count"), essentials(a), essentials(b)):
            if x != y:
                shown = (lambda v: str(v)) if isinstance(x, int) else (lambda v: _show(v) if v else "none")
                found.append(Finding(pos, "parity-text",
                                     f"`{card.id}` line {i}: the {label} differ: en {shown(x)} "
                                     f"(\"{books['en'].plain(a)}\"), fr {shown(y)} (\"{books['fr'].plain(b)}\")",
                                     "make both languages say the same thing (numbers, icons and keywords)"))
    return found


# -- French and English typography ------------------------------------------------------
def typography_problems(text: str, lang: str) -> list[tuple[int, str, str]]:
    """Typographic faults of a string: (offset, message, hint) each."""
    if lang == "fr":
        return _french(text)
    if lang == "en":
        return [(i - 1, "a space before `:` (English takes none)", "remove the space before the colon")
                for i, ch in enumerate(text) if ch == ":" and i and text[i - 1] in " \t" + NBSPS]
    return []


def _french(text: str) -> list[tuple[int, str, str]]:
    out = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        if ch in _FR_MARKS and i and before not in NBSPS and not _is_exempt(text, i):
            what = "a plain space" if before in " \t" else "no space"
            out.append((i, f"{what} before `{ch}`; French takes a no-break space",
                        f"write a no-break space (U+00A0 or U+202F) before `{ch}`"))
        elif ch == "«" and after not in NBSPS:
            out.append((i, "no no-break space after `«`", "write « followed by a no-break space (U+00A0)"))
        elif ch == "»" and before not in NBSPS:
            out.append((i, "no no-break space before `»`", "write a no-break space (U+00A0) before »"))
        elif ch == '"':
            out.append((i, "a straight double quote in French", "use « guillemets » with no-break spaces"))
    return out


def _is_exempt(text: str, i: int) -> bool:
    """A colon in a time or a URL, or a mark after a placeholder's opening, is not punctuation."""
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    return (text[i] == ":" and (after == "/" or (before.isdigit() and after.isdigit()))) or before in "{|"


def _typography(doc: _Yaml, path: tuple, value: str, lang: str) -> list[Finding]:
    return [Finding(doc.at_offset(path, value, offset), "typography", f"`{_dotted(path)}`: {message}", hint)
            for offset, message, hint in typography_problems(value, lang)]


# -- books --------------------------------------------------------------------------------
def check_books(root: Path, report: ParityReport) -> list[Finding]:
    """Each book's two languages have the same headings and Jinja structure; strings.yaml pairs up."""
    found: list[Finding] = []
    folder = root / BOOKS_DIR
    for en_path in sorted(folder.glob("*.en.md")):
        book = en_path.name.removesuffix(".en.md")
        fr_path = folder / f"{book}.fr.md"
        en_rel, fr_rel = f"{BOOKS_DIR}/{en_path.name}", f"{BOOKS_DIR}/{fr_path.name}"
        if not os.path.lexists(fr_path):  # a French prose that is a pipe or a folder is refused below
            found.append(Finding(Position(en_rel), "parity-book", f"the book `{book}` has no French prose",
                                 f"write {fr_rel}"))
            continue
        en_text, fr_text = _read_text(root, en_rel, report), _read_text(root, fr_rel, report)
        if en_text is None or fr_text is None:
            continue
        report.strings["en"] += 1
        report.strings["fr"] += 1
        found += _compare_structure(en_rel, en_text, fr_rel, fr_text)
        found += _prose_typography(en_rel, en_text, "en")
    for fr_path in sorted(folder.glob("*.fr.md")):
        if not os.path.lexists(folder / fr_path.name.replace(".fr.md", ".en.md")):
            found.append(Finding(Position(f"{BOOKS_DIR}/{fr_path.name}"), "parity-book",
                                 "this French prose has no English original", "write the English book, or remove it"))
    if os.path.lexists(folder / "strings.yaml"):
        found += _check_strings(root, report)
    return found


def _read_text(root: Path, rel: str, report: ParityReport) -> str | None:
    try:
        return safeio.read_text(root / rel, root)
    except safeio.UnsafeInput as exc:
        report.io_error |= exc.rule == "io"
        report.findings.append(unsafe_finding(exc, rel))
    except UnicodeDecodeError:
        report.findings.append(Finding(Position(rel), "encoding", "the file is not UTF-8", "save it as UTF-8"))
    return None


@dataclass(frozen=True)
class _Token:
    """One element of a book's structure: a heading level or a Jinja construct, where it was written.

    ``inline`` is a macro call inside a sentence (a keyword, a card name): a translation may word
    around one, so a difference there is a warning; a block (``{% %}``) or a call on a line of its
    own (a table, a figure) changes what the book holds, and is an error.
    """

    kind: str
    line: int
    col: int
    inline: bool = False


def structure(text: str) -> tuple[list[_Token], list[_Token]]:
    """A book's headings (``#``×level) and its Jinja blocks and macro calls, in order."""
    headings, jinja = [], []
    in_front = text.startswith("---\n")
    for n, line in enumerate(_blank_jinja(text).splitlines(), 1):
        if in_front:
            in_front = not (n > 1 and line.strip() == "---")
            continue
        m = _HEADING.match(line)
        if m:
            headings.append(_Token(m.group(1), n, 1))
    for m in _JINJA.finditer(text):
        token = _jinja_token(text, m)
        if token:
            jinja.append(token)
    return headings, jinja


def _jinja_token(text: str, m: re.Match) -> _Token | None:
    body = " ".join(m.group(0).split())
    tag, call = _JINJA_TAG.match(body), _JINJA_CALL.match(body)
    if not (tag or call):
        return None
    line = text.count("\n", 0, m.start()) + 1
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    own_line = not text[start:m.start()].strip() and not text[m.end():len(text) if end < 0 else end].strip()
    if tag:
        name = tag.group(1) + (" " + tag.group(2) if tag.group(1) in ("set", "macro", "block") and tag.group(2) else "")
        return _Token(f"{{% {name} %}}", line, m.start() - start + 1)
    return _Token(body, line, m.start() - start + 1, inline=not own_line)


def _blank_jinja(text: str) -> str:
    """The text with Jinja constructs masked as ``x`` (newlines kept, so lines and columns stay).

    A mask of letters, not spaces, so that `{{ kw('wound') }}:` does not read as a space before a colon.
    """
    return _JINJA.sub(lambda m: re.sub(r"[^\n]", "x", m.group(0)), text)


def _compare_structure(en_rel: str, en_text: str, fr_rel: str, fr_text: str) -> list[Finding]:
    found = []
    (en_heads, en_jinja), (fr_heads, fr_jinja) = structure(en_text), structure(fr_text)
    for what, rule, a, b in (("heading", "parity-heading", en_heads, fr_heads),
                             ("Jinja block or macro call", "parity-jinja", en_jinja, fr_jinja)):
        found += _sequence_diff(what, rule, en_rel, a, fr_rel, b)
    return found


def _sequence_diff(what: str, rule: str, en_rel: str, a: list[_Token], fr_rel: str, b: list[_Token]) -> list[Finding]:
    """One finding per difference between the English and the French sequences, at the French side."""
    found = []
    matcher = difflib.SequenceMatcher(None, [t.kind for t in a], [t.kind for t in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if j1 < j2:
            at = Position(fr_rel, b[j1].line, b[j1].col)
        else:
            prev = b[j1 - 1] if j1 else None
            at = Position(fr_rel, prev.line, prev.col) if prev else Position(fr_rel, 1, 1)
        en_part = ", ".join(t.kind for t in a[i1:i2]) or "nothing"
        fr_part = ", ".join(t.kind for t in b[j1:j2]) or "nothing"
        en_at = f" (at {en_rel}:{a[i1].line})" if i1 < i2 else ""
        inline = all(t.inline for t in a[i1:i2] + b[j1:j2])
        found.append(Finding(at, rule, f"{what}s differ from the English: en has {en_part}{en_at}, fr has {fr_part}",
                             f"give {fr_rel} the same {what}s, in the same order, as {en_rel}"
                             + (" (a keyword worded around in a sentence may be fine)" if inline else ""),
                             severity=WARNING if inline else "error"))
    return found


def _prose_typography(rel: str, text: str, lang: str) -> list[Finding]:
    """English prose takes no space before a colon (French spacing is applied by the books' typesetter)."""
    found = []
    for n, line in enumerate(_blank_jinja(text).splitlines(), 1):
        if line.lstrip().startswith(":::"):
            continue
        for offset, message, hint in typography_problems(line, lang):
            found.append(Finding(Position(rel, n, offset + 1), "typography", message, hint))
    return found


def _check_strings(root: Path, report: ParityReport) -> list[Finding]:
    doc = _read_yaml(root, f"{BOOKS_DIR}/strings.yaml", report)
    if doc is None:
        return []
    data = doc.data
    missing = [lang for lang in LANGS if not isinstance(data.get(lang), dict)]
    if missing:
        return [Finding(doc.at(()), "parity-key", f"strings.yaml has no `{lang}:` table", f"add `{lang}:`")
                for lang in missing]
    en_leaves, fr_leaves = leaves(data["en"]), leaves(data["fr"])
    found: list[Finding] = []
    for lang, mine, other in (("en", en_leaves, fr_leaves), ("fr", fr_leaves, en_leaves)):
        report.strings[lang] += len(mine)
        olang = "fr" if lang == "en" else "en"
        for path in mine:
            if path not in other:
                found.append(Finding(doc.at((lang,) + path, key=True), "parity-key",
                                     f"`{_dotted(path)}` has no `{olang}` version in strings.yaml",
                                     f"add `{_dotted(path)}` under `{olang}:`, translated"))
    for path in set(en_leaves) & set(fr_leaves):
        for rule, label, measure in (("parity-placeholder", "placeholders", _label_placeholders),
                                     ("parity-markup", "markup", markup)):
            a, b = measure(en_leaves[path]), measure(fr_leaves[path])
            if a != b:
                found.append(Finding(doc.at(("fr",) + path), rule,
                                     f"`{_dotted(path)}`: different {label} in the two languages: en {_show(a)}, fr {_show(b)}",
                                     f"use the same {label} as the English: {_show(a)}"))
        found += _typography_en_only(doc, ("en",) + path, en_leaves[path])
    return found


def _label_placeholders(text: str) -> Counter:
    return Counter(re.findall(r"\{\w+(?::\w+)?\}", text))


def _typography_en_only(doc: _Yaml, path: tuple, value: str) -> Iterable[Finding]:
    return _typography(doc, path, value, "en")


__all__ = ["ParityReport", "parity", "typography_problems", "structure", "SHARED_WORDS"]
