"""``forge i18n import``: a translator's .po or XLIFF file written back into the sources.

The file is hostile until proven otherwise: it is read with a size limit, an XML
document type (entities, the "billion laughs") is refused before parsing, lxml never
resolves entities nor reaches the network, and ids are looked up in the inventory (an
id never becomes a path). Every problem is a finding at the file's line; when there is
an error nothing is written. Otherwise each changed French string is edited in place
(``yamledit`` for YAML, the prose unit's own characters for Markdown), the whole project
is read back to prove each string now holds what was imported and every other string is
unchanged, and only then are the files written, each atomically, with the fingerprints of
the English the strings were translated from (``fingerprints``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core import atomic, safeio
from ..core.findings import WARNING, Finding
from ..carddb.model import Position
from ..carddb import yamledit, yamlsrc
from . import fingerprints, inventory
from .exchange import MAX_LENGTH_FLAG, NEEDS_REVIEW, SLR_NS, TARGET, XLIFF_NS
from ..text.sources import Doc, Sources
from .confusables import describe, invisible

#: A translation file larger than this is refused (the shipped game's .po is ~0.3 MB).
MAX_IMPORT_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Incoming:
    """One translated string read from the file: its id, English, French, whether it awaits review."""

    id: str
    en: str
    fr: str
    fuzzy: bool
    line: int
    max_length: int | None = None  # the file's limit (.po ``max-length:N``, XLIFF ``slr:sizeRestriction``)


@dataclass
class ImportResult:
    findings: list[Finding] = field(default_factory=list)
    io_error: bool = False
    strings: int = 0  # read from the file
    changed: list[str] = field(default_factory=list)  # ids whose French was written
    reviewed: list[str] = field(default_factory=list)  # ids whose fingerprint was recorded
    files: list[str] = field(default_factory=list)  # sources written


# -- reading ----------------------------------------------------------------------------------
def read(path: Path) -> tuple[list[Incoming], list[Finding], bool]:
    """The strings of a .po or XLIFF file; findings (and an I/O flag) instead of exceptions."""
    shown = str(path)
    try:
        with safeio.open_input(path, None, MAX_IMPORT_BYTES) as fh:
            data = fh.read(MAX_IMPORT_BYTES + 1)
    except safeio.UnsafeInput as exc:
        return [], [Finding(Position(shown), exc.rule, exc.message, exc.hint)], exc.rule == "io"
    if len(data) > MAX_IMPORT_BYTES:
        return [], [Finding(Position(shown), "too-large", "the file grew past the limit while being read")], False
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    parse = _read_xliff if path.suffix.lower() in (".xlf", ".xliff", ".xml") or head == b"<" else _read_po
    items, found, io_error = parse(shown, data)
    return items, found + hidden_characters(shown, data, items, po=parse is _read_po), io_error


def _read_po(shown: str, data: bytes) -> tuple[list[Incoming], list[Finding], bool]:
    import polib  # lazy: loads polib only when needed

    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return [], [Finding(Position(shown), "encoding", f"the file is not UTF-8 (byte {exc.start})",
                            "save it as UTF-8 (Poedit does)")], False
    if "\n" not in text:
        text += "\n"  # polib reads a one-line string naming a file as that file: never let it
    try:
        po = polib.pofile(text, encoding="utf-8")
    except (OSError, ValueError, UnicodeError, IndexError, KeyError) as exc:
        line = re.search(r"line (\d+)", str(exc))
        return [], [Finding(Position(shown, int(line.group(1)) if line else 0, 1), "po-syntax",
                            f"not a readable .po file: {exc}",
                            "open it in Poedit or run `msgfmt --check` on it to find the fault")], False
    found = []
    lang = (po.metadata.get("Language") or "").strip()
    if lang.replace("-", "_").split("_")[0].lower() != TARGET:
        found.append(Finding(Position(shown, 1, 1), "import-language",
                             f"the file's Language is `{lang or '(none)'}`, not `{TARGET}`",
                             "import the French file exported by `forge i18n export --lang fr`"))
        return [], found, False
    items = []
    for entry in po:
        line = getattr(entry, "linenum", 0) or 0
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            found.append(Finding(Position(shown, line, 1), "import-plural",
                                 "a plural entry: forge's strings carry their plurals inside ({n|…|…})",
                                 "remove the entry; plurals are written inside the one string"))
            continue
        if not entry.msgctxt:
            found.append(Finding(Position(shown, line, 1), "import-unknown-id",
                                 f"an entry without msgctxt (the string's id): {entry.msgid[:60]!r}",
                                 "keep the msgctxt lines of the exported file"))
            continue
        items.append(Incoming(entry.msgctxt, entry.msgid, entry.msgstr, "fuzzy" in entry.flags, line,
                              _max_length(f[len(MAX_LENGTH_FLAG):] for f in entry.flags
                                          if f.startswith(MAX_LENGTH_FLAG))))
    return items, found, False


def _read_xliff(shown: str, data: bytes) -> tuple[list[Incoming], list[Finding], bool]:
    try:
        root = safeio.parse_xml(data, "an XLIFF file")  # no DTD in any encoding, no entities, no network
    except safeio.XMLRefused as exc:
        rule = {"doctype": "xliff-doctype"}.get(exc.kind, "xliff-syntax")
        hint = exc.hint if exc.kind == "doctype" else "open it in your CAT tool and export it again"
        return [], [Finding(Position(shown, exc.line, 1), rule, exc.message, hint)], False
    q = lambda tag: f"{{{XLIFF_NS}}}{tag}"
    if root.tag != q("xliff") or not str(root.get("version", "")).startswith("2."):
        return [], [Finding(Position(shown, root.sourceline or 1, 1), "xliff-version",
                            "not an XLIFF 2 document (the root must be <xliff version=\"2.x\"> in the 2.0 "
                            "namespace)", "export XLIFF 2.0 from your CAT tool")], False
    if root.get("srcLang", "").split("-")[0] != "en" or root.get("trgLang", "").split("-")[0] != TARGET:
        return [], [Finding(Position(shown, root.sourceline or 1, 1), "import-language",
                            f"the file translates {root.get('srcLang')} to {root.get('trgLang')}, not en to {TARGET}",
                            "import the French file exported by `forge i18n export --lang fr`")], False
    items, found = [], []
    for unit in root.iter(q("unit")):
        line = unit.sourceline or 0
        segments = unit.findall(q("segment"))
        sid = unit.get("name") or unit.get("id") or ""
        if len(segments) != 1:
            found.append(Finding(Position(shown, line, 1), "xliff-segments",
                                 f"unit `{sid}` has {len(segments)} segments; forge's units have one",
                                 "join the segments back into one (most CAT tools do when exporting)"))
            continue
        seg = segments[0]
        source, target = seg.find(q("source")), seg.find(q("target"))
        if any(len(el) for el in (source, target) if el is not None):
            found.append(Finding(Position(shown, line, 1), "xliff-markup",
                                 f"unit `{sid}` holds inline XLIFF markup; forge's strings are plain text",
                                 "write the markup (** **, [[icon]], {kw:…} directives) as plain text"))
            continue
        fuzzy = seg.get("state", "initial") == "initial" or seg.get("subState") == NEEDS_REVIEW
        size = unit.get(f"{{{SLR_NS}}}sizeRestriction")
        items.append(Incoming(sid, source.text or "" if source is not None else "",
                              (target.text or "") if target is not None else "", fuzzy, line,
                              _max_length([size] if size is not None else [])))
    return items, found, False


def _max_length(values) -> int | None:
    """The smallest well-formed limit given (a malformed one is ignored: the check is advice, not a gate)."""
    limits = [int(v) for v in values if str(v).strip().isdigit()]
    return min(limits) if limits else None


# -- characters -------------------------------------------------------------------------------
#: The only characters a translation may hold that a reader does not see: a tab and a line break (a
#: heading or a label that must stay on one line is refused by the edit itself, see ``_prose_problem``).
ALLOWED_INVISIBLE = frozenset("\t\n")
#: What Python's ``str.splitlines`` (polib's reader) breaks a line at, besides a line feed and a carriage return.
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: Findings placed one by one; a file with more gets one more finding that counts the rest.
MAX_REPORTED = 100


def hidden_characters(shown: str, data: bytes, items: list[Incoming], po: bool) -> list[Finding]:
    """A finding for each translation holding a control (ESC, BEL, NUL...), a bidirectional control or
    another invisible character, at the place in the file where it is written: the import then writes
    nothing (an ESC sequence would reach terminals and logs; an override reorders the printed text).
    In a .po (UTF-8 text read by lines), a character that breaks a line for polib but not for the .po
    format is one too, wherever it is written. The first ``MAX_REPORTED`` are placed, the rest counted."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # reported by the reader (a .po), or XML in another encoding (lxml decodes it)
        text, po = data.decode("utf-8", errors="replace"), False
    lines = text.removeprefix("\ufeff").split("\n")
    found, more = [], 0
    for n, line in enumerate(lines if po else (), 1):
        for m in _OTHER_LINE_BREAKS.finditer(line):
            if len(found) >= MAX_REPORTED:
                more += 1
                continue
            found.append(Finding(Position(shown, n, m.start() + 1), "import-character",
                                 f"the file holds {describe(m.group())}, a line break to some readers and not to "
                                 "others: its strings would not be read as written",
                                 "delete it in your CAT tool; a line break is written \\n"))
    for item in items:
        ch = next((c for c in item.fr if invisible(c) and c not in ALLOWED_INVISIBLE), None)
        if ch is None:
            continue
        if len(found) >= MAX_REPORTED:
            more += 1
            continue
        line, col = _written_at(lines, item.line, ch, po)
        found.append(Finding(Position(shown, line, col), "import-character",
                             f"`{item.id}`: the French holds the invisible character {describe(ch)}",
                             "delete it in your CAT tool: a translation needs no control, direction or "
                             "zero-width character (a line break and a tab are allowed)"))
    if more:
        found.append(Finding(Position(shown), "import-character",
                             f"{more} more invisible characters in the file (the first {MAX_REPORTED} are above)",
                             "delete them in your CAT tool, then import again"))
    return found


def _written_at(lines: list[str], start: int, ch: str, po: bool) -> tuple[int, int]:
    """Where ``ch`` is written in the translation of the entry that starts at line ``start``: the character
    itself, or (written as an escape) where the translation opens (``msgstr``, ``<target``); the entry's
    first line when neither is found before the entry ends (a blank line, the next ``<unit``)."""
    for n in range(max(start, 1), len(lines) + 1):
        text = lines[n - 1]
        if n > start and (not text.strip() if po else "<unit" in text):
            break
        at = (0 if text.lstrip().startswith("msgstr") else -1) if po else text.find("<target")
        if at < 0:
            continue
        for m in range(n, len(lines) + 1):
            line = lines[m - 1]
            if m > n and (not line.lstrip().startswith('"') if po else "<unit" in line):
                break  # past the .po string's last line, or the unit's
            col = line.find(ch, at if m == n else 0)
            if col >= 0:
                return m, col + 1
            if not po and "</target" in line:
                break
        return n, at + 1
    return start, 1


# -- writing ----------------------------------------------------------------------------------
def _target(pair: inventory.Pair) -> tuple[str, tuple] | None:
    """The French source file and the YAML path of a pair's French (prose: the file only)."""
    path = pair.meta.get("path")
    if pair.kind == "locale":
        return "locales/fr.yaml", path
    if pair.kind in ("label", "web-label"):  # one file holds both languages: en: and fr:
        return (pair.en or pair.fr).file, ("fr",) + path
    if pair.kind == "template-label":
        return inventory.TEMPLATE_FILE, pair.meta["base"]["fr"] + path
    if path is not None and pair.en is not None:
        return pair.en.file, path + ("fr",)
    if pair.fr is not None:
        return pair.fr.file, ()
    return None


def apply(root: Path, items: list[Incoming], shown: str, dry_run: bool = False) -> ImportResult:
    """Write the French of ``items`` into the project at ``root`` (nothing at all when there is an error)."""
    result = ImportResult(strings=len(items))
    inv = inventory.build(root)
    if inv.sources.findings:
        result.findings += inv.sources.findings
        result.io_error = inv.sources.io_error
        return result
    record = fingerprints.load(inv.sources)
    result.findings += record.findings
    tracking = fingerprints.Tracking(inv, record)
    pairs = {p.id: p for p in inv.pairs}
    new = record.copy()
    wanted: dict[str, str] = {}  # id -> the French to write
    seen: set[str] = set()
    for item in items:
        at = Position(shown, item.line, 1)
        pair = pairs.get(item.id)
        if item.id in seen:
            result.findings.append(Finding(at, "import-duplicate", f"`{item.id}` is in the file twice",
                                           "keep one entry per id"))
            continue
        seen.add(item.id)
        if pair is None or pair.en is None:
            result.findings.append(Finding(at, "import-unknown-id", f"no translatable string has the id `{item.id}`",
                                           "export the file again: the English may have been removed or moved"))
            continue
        if not item.fr.strip():
            continue  # untranslated: today's French (if any) stays
        same_source = item.en == pair.en.text
        if not same_source:
            result.findings.append(Finding(at, "import-source-changed",
                                           f"`{item.id}`: the English changed since this file was exported; "
                                           "the French is written and left to review",
                                           "export again to translate against today's English", WARNING))
        if pair.fr is None or pair.fr.text != item.fr:
            wanted[item.id] = item.fr
            if item.max_length is not None and len(item.fr) > item.max_length:
                result.findings.append(Finding(at, "import-too-long",
                                               f"`{item.id}`: the French has {len(item.fr)} characters; about "
                                               f"{item.max_length} fit where it prints", "shorten it; "
                                               "`forge parity` measures the printed width", WARNING))
        if same_source and not item.fuzzy and new.put(pair, item.fr):
            new.forget(tracking.recorded.get(item.id), item.id)  # a string whose id changed: its old entry
            result.reviewed.append(item.id)
    texts = _edited(inv, pairs, wanted, shown, {i.id: i.line for i in items}, result)
    if any(f.severity != WARNING for f in result.findings):
        result.reviewed = []
        return result
    _verify(root, inv, texts, wanted, shown, result)
    if any(f.severity != WARNING for f in result.findings):
        result.reviewed = []
        return result
    result.changed = sorted(wanted)
    result.files = sorted(texts)
    if not dry_run:
        for rel, text in sorted(texts.items()):
            atomic.write_text(root / rel, ("\ufeff" if _has_bom(root, rel) else "") + text)
        if record.tracked and (new.prints, new.french) != (record.prints, record.french):
            fingerprints.save(root, new)  # a project without the sidecar starts with `reviewed --all`
    return result


def _has_bom(root: Path, rel: str) -> bool:
    try:
        return safeio.read_bytes(root / rel, root)[:3] == b"\xef\xbb\xbf"
    except safeio.UnsafeInput:
        return False


def _edited(inv, pairs, wanted: dict[str, str], shown: str, lines: dict[str, int], result: ImportResult) -> dict[str, str]:
    """The new text of each source file the import changes."""
    edits: dict[str, list] = {}
    owner: dict[str, list[str]] = {}
    for pid, fr in wanted.items():
        pair = pairs[pid]
        target = _target(pair)
        at = Position(shown, lines.get(pid, 0), 1)
        if target is None:
            result.findings.append(Finding(at, "import-target", f"`{pid}`: forge does not know where its French goes",
                                           "add the French by hand in the source"))
            continue
        rel, path = target
        edits.setdefault(rel, []).append((pid, pair, path, fr))
        owner.setdefault(rel, []).append(pid)
    texts = {}
    for rel, todo in edits.items():
        doc = inv.sources.docs.get(rel) or inv.sources.text(rel)
        if doc is None:
            continue
        problems: list[tuple[str, str]] = []  # (id, why) of each string that cannot be written
        text = _prose(doc, todo, problems) if rel.endswith(".md") else _yaml_checked(doc, todo, problems)
        for pid, why in problems:
            result.findings.append(Finding(Position(shown, lines.get(pid, 0), 1), "import-edit",
                                           f"`{pid}`: cannot write the French into {rel}: {why}",
                                           "write this string by hand in the source"))
        if not problems:
            texts[rel] = text
    return texts


def _yaml_checked(doc: Doc, todo: list, problems: list) -> str:
    """The edited YAML, in the old quoting styles when they read back right, else all double-quoted."""
    text = _yaml(doc, todo, problems)
    if problems or _reads_back(text, todo):
        return text
    return _yaml(doc, todo, problems, quoted_only=True)


def _reads_back(text: str, todo: list) -> bool:
    try:
        data, _ = yamlsrc.load(text)
    except yamlsrc.YamlError:
        return False
    return all(inventory.get_path(data, path) == fr for _pid, _pair, path, fr in todo)


def _yaml(doc: Doc, todo: list, problems: list, quoted_only: bool = False) -> str:
    try:
        tree = yamledit.compose(doc.text)
    except yamledit.EditError:
        problems.append((todo[0][0], "the file does not parse"))
        return doc.text
    edits = []
    for pid, pair, path, fr in todo:
        try:
            if pair.fr is not None:
                edits.append(yamledit.replace(doc.text, tree, path, fr, quoted_only))
            else:
                edits.append(yamledit.insert(doc.text, tree, path[:-1], str(path[-1]), fr, quoted_only))
        except yamledit.EditError as exc:
            problems.append((pid, str(exc)))
    return yamledit.apply(doc.text, edits)


def _prose(doc: Doc, todo: list, problems: list) -> str:
    edits = []
    for pid, pair, _path, fr in todo:
        why = _prose_problem(doc, pair, fr)
        if why:
            problems.append((pid, why))
        else:
            edits.append((pair.fr.offset, pair.fr.offset + len(pair.fr.text), fr))
    return yamledit.apply(doc.text, edits)


def _prose_problem(doc: Doc, pair: inventory.Pair, fr: str) -> str:
    """Why ``fr`` cannot replace the pair's French unit in place ("" when it can)."""
    entry = pair.fr
    if entry is None or entry.offset is None:
        return "the French paragraph is missing; add it by hand"
    if doc.text[entry.offset:entry.offset + len(entry.text)] != entry.text:
        return "the paragraph holds a {# comment #}; edit it by hand"
    one_line = pair.kind in ("prose-heading", "prose-meta")
    if ("\n" in fr and one_line) or "\n\n" in fr or fr != fr.strip("\n") or not fr.strip():
        return "a heading is one line, and a paragraph has no blank line in it"
    if pair.kind == "prose-meta" and not _front_matter_safe(fr):
        return "a front-matter value is read as YAML: it cannot hold `: ` or ` #`, nor start with a quote or a sign"
    return ""


def _front_matter_safe(value: str) -> bool:
    """Whether ``key: value`` reads back as the text ``value`` (the books read their front matter as YAML)."""
    if not yamledit.plain_ok(value, False):
        return False
    try:
        data, _ = yamlsrc.load(f"k: {value}\n")
    except yamlsrc.YamlError:
        return False
    return data == {"k": value}


def _verify(root: Path, inv, texts: dict[str, str], wanted: dict[str, str], shown: str, result: ImportResult) -> None:
    """Read the project back with the new texts: each imported string as written, every other one unchanged."""
    sources = Sources(root)
    for rel, text in texts.items():
        sources.docs[rel] = Doc(rel, text)
    after = inventory.build(root, sources)
    bad = [f for f in sources.findings if f.position.file in texts]
    for f in bad:
        result.findings.append(Finding(Position(shown), "import-verify",
                                       f"the import would leave {f.position} unreadable: {f.message}",
                                       "report this as a bug of forge i18n import; nothing was written"))
    before = {p.id: (p.en.text if p.en else None, p.fr.text if p.fr else None) for p in inv.pairs}
    now = {p.id: (p.en.text if p.en else None, p.fr.text if p.fr else None) for p in after.pairs}
    expected = {pid: (en, wanted.get(pid, fr)) for pid, (en, fr) in before.items()}
    for pid in sorted(set(expected) | set(now)):
        if expected.get(pid) != now.get(pid):
            result.findings.append(Finding(Position(shown), "import-verify",
                                           f"`{pid}` would read {now.get(pid)!r} after the import, "
                                           f"not {expected.get(pid)!r}",
                                           "write this string by hand; nothing was written"))


__all__ = ["Incoming", "ImportResult", "read", "apply", "hidden_characters", "MAX_IMPORT_BYTES"]
