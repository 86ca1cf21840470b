"""Loading a game project's card database: files → data → schema → typed cards.

Every file is read and checked even when an earlier one fails, and every problem
becomes a ``Finding`` with its position; nothing here raises on bad input. The
semantic checks (counts, references, rules of form) live in ``forge.checks.validate``.
"""
from __future__ import annotations

import difflib
import gc
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import safeio
from . import schemacheck, yamlsrc
from ..core.findings import Finding
from .model import Card, CardDatabase, Faction, IconArt, ImageArt, Keywords, Position, TrapSpec, Trigger
from .schema import SCHEMA_PATH, build_schema
from .vocabulary import VERBS, EffectLine, Threshold

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

CARDS_DIR = "cards"
SCHEMA_LINE = f"# yaml-language-server: $schema=../{SCHEMA_PATH}"


@dataclass
class LoadResult:
    """The database built from a project folder, the findings met on the way, and where things are."""

    root: Path
    db: CardDatabase
    findings: list[Finding] = field(default_factory=list)
    io_error: bool = False
    files: list[str] = field(default_factory=list)
    sources: dict[str, yamlsrc.SourceMap] = field(default_factory=dict)
    card_paths: dict[str, tuple] = field(default_factory=dict)  # card id -> (file, path of the card)
    raw_cards: list[tuple[str, tuple, dict]] = field(default_factory=list)  # (file, path, mapping)
    refused: list[Finding] = field(default_factory=list)  # files safeio would not read (also in findings)
    unloaded: list[Position] = field(default_factory=list)  # files, cards and factions left out: they failed

    @property
    def complete(self) -> bool:
        """Every file, card and faction written was loaded: set-wide checks (counts, engine) mean something."""
        return not self.unloaded

    def where(self, file: str, path: tuple, key: bool = False) -> Position:
        """The position of a value (or of its key) in a loaded file."""
        source = self.sources.get(file)
        if source is None:
            return Position(file)
        return Position(file, *source.at(path, key=key))

    def card_position(self, card_id: str, *subpath, key: bool = False) -> Position:
        """Where a card, or a part of it such as ("activate", 0), was written."""
        file, path = self.card_paths.get(card_id, ("", ()))
        return self.where(file, path + tuple(subpath), key=key) if file else Position(file)


def _is_whole_number(checker, instance) -> bool:
    """JSON Schema counts 2.0 as an integer; a card's `cost: 2.0` or `copies: .inf` is not one."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@lru_cache(maxsize=1)
def _validator():
    """jsonschema's validator of the card schema, with forge's integer; imported when a file fails the
    compiled check (``forge.carddb.schemacheck``), which is all a valid project needs."""
    from jsonschema import Draft202012Validator, validators  # lazy: loads jsonschema only when needed

    strict = validators.extend(
        Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number))
    return strict(build_schema())


@lru_cache(maxsize=1)
def _compiled():
    """The compiled yes/no check of the card schema, or None when the schema uses what it does not know."""
    try:
        return schemacheck.compile_schema(build_schema())
    except schemacheck.Unsupported:
        return None


def unsafe_finding(exc: safeio.UnsafeInput, rel: str) -> Finding:
    """The finding for an input safeio refused to read: its rule and hint, at the file."""
    return Finding(Position(rel), exc.rule, exc.message, exc.hint)


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small acyclic objects.

    Loading creates hundreds of thousands of containers and no cycles; the
    collector's passes over them made validation grow faster than linearly
    (about +40% at 10,000 cards).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_database(root: Path | str, texts: Mapping[str, str] | None = None) -> LoadResult:
    """Read every ``cards/*.yaml`` of the project at ``root``.

    ``texts``: a file's text by its path under ``root`` (``cards/red.yaml``), read instead of the
    disk; a caller that has read the files already (parity's ``Sources``) gives them.
    """
    with gc_paused():
        return _load_database(Path(root), texts or {})


def _load_database(root: Path, texts: Mapping[str, str]) -> LoadResult:
    result = LoadResult(root=root, db=CardDatabase())
    cards_dir = root / CARDS_DIR
    if not cards_dir.is_dir():
        result.io_error = True
        result.findings.append(Finding(Position(CARDS_DIR), "io", f"no `{CARDS_DIR}/` folder in {root}",
                                       "run forge in a game project folder, or pass --root DIR"))
        return result
    try:
        files = sorted(p for p in cards_dir.iterdir() if p.suffix in (".yaml", ".yml"))
    except OSError as exc:
        result.io_error = True
        result.findings.append(Finding(Position(CARDS_DIR), "io", f"cannot list the `{CARDS_DIR}/` folder: "
                                       f"{exc.strerror or exc}", "check the folder's permissions"))
        return result
    if not files:
        result.findings.append(Finding(Position(CARDS_DIR), "io", f"no card files (*.yaml) in {CARDS_DIR}/",
                                       "add cards/*.yaml files; see docs/card-format.md"))
    for path in files:
        rel = f"{CARDS_DIR}/{path.name}"
        result.files.append(rel)
        text = texts[rel] if rel in texts else _read(result, path, rel)
        if text is not None:
            _load_text(result, rel, text)
    return result


def _read(result: LoadResult, path: Path, rel: str) -> str | None:
    """A card file's text, or None (with a finding) when it cannot be read."""
    try:
        raw = safeio.read_bytes(path, result.root)
    except safeio.UnsafeInput as exc:
        result.io_error |= exc.rule == "io"  # unreadable: exit 2; a pipe, device, folder or link: a finding
        result.refused.append(unsafe_finding(exc, rel))
        result.findings.append(result.refused[-1])
        result.unloaded.append(Position(rel))
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        result.findings.append(Finding(Position(rel, line, col), "encoding",
                                       f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x})",
                                       "save the file as UTF-8 in your editor"))
        result.unloaded.append(Position(rel, line, col))
        return None


def _load_text(result: LoadResult, rel: str, text: str) -> None:
    try:
        data, source = yamlsrc.load(text.removeprefix("\ufeff"))
    except yamlsrc.YamlError as exc:
        result.findings.append(Finding(Position(rel, exc.line, exc.col), exc.rule, exc.message, exc.hint))
        result.unloaded.append(Position(rel, exc.line, exc.col))
        return
    result.sources[rel] = source
    if not isinstance(data, dict):
        result.findings.append(Finding(
            Position(rel, *source.at(())), "shape",
            f"the top level is a {_kind(data)}, expected a mapping with `cards:` and/or `factions:`",
            "start the file with `cards:` followed by a list of cards"))
        result.unloaded.append(Position(rel, *source.at(())))
        return
    if not text.lstrip("\ufeff").startswith(SCHEMA_LINE):
        result.findings.append(Finding(
            Position(rel, 1, 1), "schema-line", "the file does not start with the schema line",
            f"add `{SCHEMA_LINE}` as the first line so editors check the file as you type",
            severity="warning"))
    bad = _check_schema(result, rel, data, source)
    _build(result, rel, data, bad)


# -- schema ------------------------------------------------------------------
def _check_schema(result: LoadResult, rel: str, data: dict, source: yamlsrc.SourceMap) -> set[tuple]:
    """Schema findings for one file; returns the paths of cards and factions that failed."""
    findings, bad = check_schema(rel, data, source)
    result.findings += findings
    return bad


def check_schema(rel: str, data: dict, source: yamlsrc.SourceMap) -> tuple[list[Finding], set[tuple]]:
    """The schema findings of one file's data, placed by ``source`` (a YAML file's, or a sheet's rows
    and columns), and the paths (``("cards", i)``) of the cards and factions that failed."""
    findings: list[Finding] = []
    bad: set[tuple] = set()
    check = _compiled()
    if check is not None and schemacheck.is_valid(check, data):
        return findings, bad
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        for finding, path in _schema_findings(rel, error, source):
            findings.append(finding)
            if len(path) >= 2:
                bad.add(tuple(path[:2]))
    return findings, bad


def _schema_findings(rel: str, error: ValidationError, source: yamlsrc.SourceMap):
    path = tuple(error.absolute_path)
    if error.validator in ("anyOf", "oneOf") and error.context:
        error = _closest_branch(error)
        path = path + tuple(error.relative_path)
    where = _describe(path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        for extra in sorted(set(error.instance) - set(allowed), key=str):
            guess = difflib.get_close_matches(str(extra), allowed, n=1, cutoff=0.6)
            hint = f"did you mean `{guess[0]}`?" if guess else "allowed here: " + ", ".join(allowed)
            field_path = path + (extra,)
            yield (Finding(Position(rel, *source.at(field_path, key=True)), "schema",
                           f"{_describe(field_path)}: unknown field `{extra}`", hint), field_path)
        return
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        yield (Finding(Position(rel, *source.at(path)), "schema", f"{where}: missing required field `{missing}`",
                       "add the field; see docs/card-format.md"), path)
        return
    message = error.message
    if error.validator == "enum":
        choices = error.validator_value
        guess = difflib.get_close_matches(str(error.instance), [str(c) for c in choices], n=1, cutoff=0.5)
        hint = (f"did you mean `{guess[0]}`? " if guess else "") + "allowed: " + ", ".join(map(str, choices))
        message = f"{error.instance!r} is not one of the allowed values"
    elif error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        message = f"{error.instance!r} is not {' or '.join(_TYPE_WORDS.get(t, t) for t in wanted)}"
        hint = f"write {' or '.join(_TYPE_WORDS.get(t, t) for t in wanted)} here"
    elif error.validator in ("minimum", "maximum"):
        hint = f"use a value {'at least' if error.validator == 'minimum' else 'at most'} {error.validator_value}"
    elif error.validator in ("maxProperties", "minProperties") and path and path[-1] == "if":
        message = "a threshold names exactly one faction"
        hint = "write `if: {black: 3}`; split a line that needs two thresholds"
    elif error.validator == "pattern":
        hint = "ids are lower-case words joined by dashes, e.g. `ember-drake`"
    else:
        hint = "see docs/card-format.md"
    yield Finding(Position(rel, *source.at(path)), "schema", f"{where}: {message}", hint), path


_TYPE_WORDS = {"object": "a mapping", "array": "a list", "integer": "a whole number",
               "string": "a text", "boolean": "true or false", "null": "empty", "number": "a number"}


def _closest_branch(error: ValidationError) -> ValidationError:
    """Of an anyOf's branches, the error of the one whose shape fits the value best."""
    from jsonschema.exceptions import best_match  # lazy: loads jsonschema only when needed

    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0], []).append(sub)

    def fit(errs: list[ValidationError]) -> int:
        root = {e.validator for e in errs if not e.relative_path}
        if root & {"type", "const"}:
            return 0
        if "enum" in root and not isinstance(error.instance, str):
            return 1
        if "required" in root:  # a mapping missing the branch's own key (`image:` written, `icon` required)
            return 2
        return 3

    best = max(branches.values(), key=fit)  # max keeps the first of equals
    return best_match(best)


def _describe(path: tuple) -> str:
    """A readable field path, relative to its card: ``activate[0].wound``."""
    if len(path) >= 2 and path[0] in ("cards", "factions"):
        path = path[2:]
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "file"


def _kind(value: object) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "boolean"}.get(type(value), "value")


# -- building the model --------------------------------------------------------
def _build(result: LoadResult, rel: str, data: dict, bad: set[tuple]) -> None:
    for i, raw in enumerate(_list(data.get("factions"))):
        if ("factions", i) in bad or not isinstance(raw, dict):
            result.unloaded.append(result.where(rel, ("factions", i)))
            continue
        result.db.factions.append(Faction(
            id=raw["id"], name=raw["name"], color=raw["color"], icon=raw["icon"],
            identity=raw["identity"], position=result.where(rel, ("factions", i))))
    for key in ("cards", "factions"):
        if data.get(key) is not None and not isinstance(data[key], list):
            result.unloaded.append(result.where(rel, (key,)))
    for i, raw in enumerate(_list(data.get("cards"))):
        path = ("cards", i)
        if not isinstance(raw, dict):
            result.unloaded.append(result.where(rel, path))
            continue
        result.raw_cards.append((rel, path, raw))
        if path in bad:
            result.unloaded.append(result.where(rel, path))
            continue
        try:
            card = build_card(raw, result.where(rel, path))
        except (KeyError, TypeError, ValueError):
            result.unloaded.append(result.where(rel, path))
            continue  # shape problems the schema already reported
        result.db.cards.append(card)
        result.card_paths.setdefault(card.id, (rel, path))


def _list(value) -> list:
    """A list the schema expects, or nothing (the schema reports what else it was)."""
    return value if isinstance(value, list) else []


def build_card(raw: dict, position: Position) -> Card:
    """A Card from a schema-valid mapping."""
    trap = raw.get("trap")
    return Card(
        id=raw["id"], type=raw["type"], set=raw.get("set", "recruit"),
        factions=tuple(raw["factions"]), name=dict(raw["name"]), copies=raw["copies"],
        cost=raw.get("cost"), allegiance=dict(raw.get("allegiance") or {}),
        flavor=dict(raw.get("flavor") or {}), art=build_art(raw.get("art")),
        keywords=_keywords(raw.get("keywords") or []),
        effects=_lines(raw.get("effects")), activate=_lines(raw.get("activate")),
        demise=_lines(raw.get("demise")), end_of_turn=_lines(raw.get("end_of_turn")),
        triggers=tuple(Trigger(t["event"], t["by"], _lines(t["effects"])) for t in raw.get("triggers") or []),
        trap=TrapSpec(trap["kind"], trap.get("event")) if trap else None,
        position=position,
    )


def build_art(raw) -> IconArt | ImageArt | None:
    """A card's art from its schema-valid value: a path is a picture with the default crop."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return ImageArt(raw)
    if "icon" in raw:
        accents = tuple(raw.get("accents") or ())
        return IconArt(raw["icon"], accents, raw.get("layout", "flank" if len(accents) > 1 else "behind"),
                       bool(raw.get("flip", False)))
    focus = raw.get("focus") or (0.5, 0.5)
    return ImageArt(raw["image"], (float(focus[0]), float(focus[1])), raw.get("fit", "cover"), raw.get("credit"))


def _keywords(items: list) -> Keywords:
    names = {i for i in items if isinstance(i, str)}
    aegis = max((i["aegis"] for i in items if isinstance(i, dict)), default=0)
    return Keywords(guard="guard" in names, rush="rush" in names, aegis=aegis)


def _lines(items) -> tuple[EffectLine, ...]:
    lines = (build_line(raw) for raw in items or [])
    return tuple(line for line in lines if line is not None)


def build_line(raw: dict) -> EffectLine | None:
    """An EffectLine from its mapping; None without a verb, the first verb wins (validate reports both)."""
    verb = next((k for k in raw if k in VERBS), None)
    if verb is None:
        return None
    value = raw[verb]
    if isinstance(value, dict):
        args = dict(value)
    elif value is None or value is True or not VERBS[verb].main:
        args = {}
    else:
        args = {VERBS[verb].main: value}
    threshold = None
    if raw.get("if"):
        faction, n = next(iter(raw["if"].items()))
        threshold = Threshold(faction, n)
    return EffectLine(verb=verb, args=args, threshold=threshold, may=bool(raw.get("may")),
                      timing=raw.get("timing"), override=raw.get("text"))
