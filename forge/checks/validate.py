"""``forge validate``: everything that can be wrong with a card database, in one run.

The loader (``forge.carddb.database``) reports what cannot be read or fails the schema;
the checks here report what is well-formed but wrong for the game: duplicate
ids, sections on the wrong card type, the rulebook's counts, printed text that
cannot be compiled or a hand-written wording that disagrees with its effects,
asset paths that leave the project. Each check is a function returning findings.
"""
from __future__ import annotations

import os
import re
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from ..carddb import rulebook
from ..carddb.art import MAX_ART_PIXELS, PRINT_DPI, ArtError, art_bytes, art_dpi, is_svg, read_art, read_svg
from ..carddb.database import LoadResult, gc_paused, load_database
from ..core.findings import WARNING, Finding
from ..i18n.confusables import describe, invisible, mixed_script, scripts_of, skeleton
from ..carddb.model import Card, IconArt, ImageArt, Position
from ..text.cardtext import LineReader, Phrasebook, PhraseError, Reading, load_phrasebooks, wording_differences
from ..carddb.vocabulary import (
    CARD_TYPES, EVENTS, FACTIONS, LANGUAGES, LINE_MODIFIERS, SECTIONS, TRIGGERED_SECTIONS, VERBS,
)
from ..carddb.gameicons import has_icon, suggest_icon


@dataclass
class Report:
    """The outcome of a validation: findings plus the database summary."""

    load: LoadResult
    findings: list[Finding] = field(default_factory=list)
    books: dict[str, Phrasebook] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # checks left out: they would blame the missing cards
    seconds: dict[str, float] = field(default_factory=dict)  # each check's time (loading included), for -v

    @property
    def io_error(self) -> bool:
        return self.load.io_error

    def summary(self) -> dict:
        db = self.load.db
        by_type: Counter = Counter()
        by_faction: Counter = Counter()
        recruit_by_type: Counter = Counter()
        for card in db.cards:
            by_type[card.type] += db.box_count(card)
            by_faction[card.faction or "neutral"] += db.box_count(card)
            if card.set == "recruit":
                recruit_by_type[card.type] += card.copies
        return {
            "files": len(self.load.files),
            "card_designs": len(db.cards),
            "physical_cards": sum(db.box_count(c) for c in db.cards),
            "recruitment_cards": sum(recruit_by_type.values()),
            "by_type": dict(sorted(by_type.items())),
            "by_faction": dict(sorted(by_faction.items())),
            "recruitment_by_type": dict(sorted(recruit_by_type.items())),
            "errors": sum(f.severity == "error" for f in self.findings),
            "warnings": sum(f.severity == WARNING for f in self.findings),
            "skipped": list(self.skipped),
            "unloaded": [str(p) for p in self.load.unloaded],
        }


Check = Callable[[LoadResult, dict], Iterable[Finding]]


def check_card_proofs(load: LoadResult, books: dict) -> Iterable[Finding]:
    """The rules engine plays every line of every card (issue: every printed card resolves)."""
    from ..engine.proofs import prove_cards  # lazy: loads forge.engine only when needed

    for proof in prove_cards(load.db):
        for failure in proof.failures:
            yield Finding(load.card_position(failure.card_id, *failure.path), "engine",
                          f"`{failure.card_id}` {failure.section} line {failure.index + 1} does not resolve: "
                          f"{failure.message}",
                          "the engine cannot execute this line as printed; change the effect")


def check_text_fit(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Every name and text fits its card at the smallest legible size, in every language.

    The card template is loaded first so that a template that cannot be read
    (a pipe, a link out of the project, bad YAML) is one finding at its place. What the
    layout learns is kept in validate's record (``fitmemo.validate_memo``, outside the project),
    so a re-validate lays out only the texts that changed.
    """
    if not books:
        return []
    from ..render.fitcheck import check_text_fit as fit  # lazy: loads reportlab, forge.render only when needed
    from ..render.fitmemo import validate_memo  # lazy: loads forge.render only when needed
    from ..render.template import TEMPLATE_FILE, TemplateError, load_template  # lazy: loads reportlab, forge.render only when needed

    try:
        load_template(load.root)
    except TemplateError as exc:
        return [Finding(Position(TEMPLATE_FILE.as_posix(), exc.line, exc.col), exc.rule, exc.reason,
                        exc.hint or "fix the card template, or delete it to use forge's own")]
    return fit(load.db, books, load.root, validate_memo(load.root))


#: The checks that need the engine or the layout; `forge validate --quick` skips them.
EXTRA_CHECKS: list[Check] = [check_card_proofs, check_text_fit]


def validate(root: Path | str, extra: bool = True, layout: bool = True) -> Report:
    """Load and check the project at ``root``; ``extra`` runs the engine and layout checks too
    (``layout=False`` leaves out the text fit, for a caller that lays the texts out itself)."""
    started = time.perf_counter()
    load = load_database(root)
    report = Report(load, list(load.findings))
    report.seconds["load"] = time.perf_counter() - started
    if load.io_error and not load.db.cards:
        return report
    try:
        books = load_phrasebooks(load.root)
    except PhraseError as exc:
        report.findings.append(exc.finding())
    else:  # a phrase whose placeholders forge refuses is the one finding: the card texts wait for it
        report.findings += [problem.finding() for book in books.values() for problem in book.problems]
        report.books = {lang: book for lang, book in books.items() if not book.problems}
    checks: list[Check] = [check_ids, check_confusables, check_lines, check_card_forms, check_counts, check_factions,
                           check_languages, check_text, check_printed_layout, check_characters, check_assets,
                           check_art_icons]
    if extra:
        checks += [c for c in EXTRA_CHECKS if layout or c is not check_text_fit]
    if not load.complete:  # the root cause first: a file that does not load is the one finding to fix
        report.skipped = [c.__name__.removeprefix("check_") for c in checks if c in SET_WIDE_CHECKS]
        checks = [c for c in checks if c not in SET_WIDE_CHECKS]
    with gc_paused():
        for check in checks:
            started = time.perf_counter()
            report.findings.extend(check(load, report.books))
            report.seconds[check.__name__.removeprefix("check_")] = time.perf_counter() - started
    report.findings.sort(key=lambda f: (f.position.file, f.position.line, f.position.col, f.rule, f.message))
    return report


def _at(load: LoadResult, card: Card, *path, key: bool = False) -> Position:
    return load.card_position(card.id, *path, key=key)


# -- identity ------------------------------------------------------------------
def check_ids(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Card ids are unique across all files."""
    seen: dict[str, Position] = {}
    for rel, path, raw in load.raw_cards:
        cid = raw.get("id")
        if not isinstance(cid, str):
            continue
        pos = load.where(rel, path + ("id",))
        if cid in seen:
            yield Finding(pos, "duplicate-id", f"card id `{cid}` is already used at {seen[cid]}",
                          "give each card its own id")
        else:
            seen[cid] = pos


def check_confusables(load: LoadResult, books: dict) -> Iterable[Finding]:
    """No card's id or name (in any language) reads like another card's (UTS #39 skeleton), mixes
    scripts, or holds a character a reader cannot see: a player or a reviewer could not tell them apart."""
    seen: dict[tuple[str, str], tuple[object, str, str, Position]] = {}  # (kind, skeleton) -> first holder
    for rel, path, raw in load.raw_cards:
        cid = raw.get("id")
        card = cid if isinstance(cid, str) else (rel, path)
        for kind, text, at in _identity_texts(raw, path):
            pos = load.where(rel, at)
            problem = _name_problem(text)
            if problem:
                yield Finding(pos, problem[0], f"the card's {kind} `{text}` {problem[1]}", problem[2])
            key = ("id" if kind == "id" else "name", skeleton(text))
            first = seen.setdefault(key, (card, text, kind, pos))
            if first[0] != card and first[1] != text:
                yield Finding(pos, "confusable", f"the card's {kind} `{text}` looks like `{first[1]}`, the "
                              f"{first[2]} of card `{_card_label(first[0])}` at {first[3]}",
                              f"rename one of the two cards: both read as `{key[1]}` (Unicode's confusables, UTS #39)")


def _identity_texts(raw: dict, path: tuple):
    """(what, text, YAML path) of a raw card's id and of its name in each language."""
    if isinstance(raw.get("id"), str):
        yield "id", raw["id"], path + ("id",)
    names = raw.get("name")
    if isinstance(names, dict):
        for lang, name in names.items():
            if isinstance(name, str) and name:
                yield f"name ({lang})", name, path + ("name", lang)


def _name_problem(text: str) -> tuple[str, str, str] | None:
    """(rule, what, hint) of a name or id a reader could mistake for another one, or None (the controls
    and direction characters of every text are ``check_characters``' findings)."""
    hidden = next((ch for ch in text if invisible(ch) and not _HIDDEN.match(ch)), None)
    if hidden is not None:
        return ("name-character", f"holds the invisible character {describe(hidden)}",
                "delete it: two names that differ by an invisible character look the same")
    if mixed_script(text):
        return ("mixed-script", f"mixes scripts ({', '.join(scripts_of(text))}): its look-alike letters "
                "pass for another name", "write the name in one script, e.g. Latin letters only")
    return None


def _card_label(card) -> str:
    return card if isinstance(card, str) else "(without an id)"


# -- effect lines ----------------------------------------------------------------
def check_lines(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Every effect line has exactly one known verb and sensible modifiers."""
    for rel, path, raw in load.raw_cards:
        for section in list(SECTIONS) + ["triggers"]:
            for lpath, line in _raw_lines(raw, section):
                yield from _check_raw_line(load, rel, path + lpath, line, section, raw)


def _raw_lines(raw: dict, section: str):
    if section == "triggers":
        for t, trig in enumerate(raw.get("triggers") or []):
            if isinstance(trig, dict):
                for j, line in enumerate(trig.get("effects") or []):
                    yield ("triggers", t, "effects", j), line
        return
    for j, line in enumerate(raw.get(section) or [] if isinstance(raw.get(section), list) else []):
        yield (section, j), line


def _check_raw_line(load: LoadResult, rel: str, path: tuple, line, section: str, card: dict):
    if not isinstance(line, dict):
        return
    pos = load.where(rel, path)
    verbs = [k for k in line if k in VERBS]
    unknown = [k for k in line if k not in VERBS and k not in LINE_MODIFIERS]
    if not verbs:
        if not unknown:  # unknown keys already have a schema finding with a suggestion
            yield Finding(pos, "verb", "this effect line has no verb",
                          "add one verb, e.g. `wound: 2`; verbs: " + ", ".join(sorted(VERBS)))
        return
    if len(verbs) > 1:
        yield Finding(pos, "verb", f"one effect line holds several verbs ({', '.join(verbs)})",
                      "put each verb on its own line (a `- ` item of its own)")
    verb = VERBS[verbs[0]]
    ctype = card.get("type")
    if line.get("timing") == "immediately" and section not in TRIGGERED_SECTIONS:
        yield Finding(load.where(rel, path + ("timing",)), "timing",
                      "`immediately` only changes a triggered line (demise, end_of_turn, triggers)",
                      "remove `timing`, or move the line to a triggered section")
    if line.get("timing") == "after_effects" and section in TRIGGERED_SECTIONS:
        yield Finding(load.where(rel, path + ("timing",)), "timing",
                      "`after_effects` applies to a line of a played card or an activation",
                      "remove `timing`, or move the line to `effects` or `activate`")
    if verb.cost:
        if not (section == "activate" or (section == "effects" and ctype == "spell")):
            yield Finding(pos, "cost", f"{verb.name} is a cost: it belongs to a spell's effects or a "
                          "creature's ⟳ ability", "move the line, or use `destroy` for an effect")
        if line.get("if") or line.get("may") or line.get("timing"):
            yield Finding(pos, "cost", f"{verb.name} is a cost paid in full at step 4: it cannot be "
                          "conditional, optional or delayed", "remove `if`, `may` and `timing` from this line")
    value = line.get(verbs[0])
    if isinstance(value, dict) and value.get("target") == "that":
        event = _event_of(card, path)
        if event not in ("summon", "activate", "destroy"):
            yield Finding(pos, "target", "`target: that` needs an event about a creature "
                          "(summon, activate or destroy)",
                          "use it in a trap or trigger with `event: summon`, or target by choice")


def _event_of(card: dict, path: tuple) -> str | None:
    if "triggers" in path:
        trig = card["triggers"][path[path.index("triggers") + 1]]
        return trig.get("event")
    trap = card.get("trap")
    return trap.get("event") if isinstance(trap, dict) else None


# -- card forms ------------------------------------------------------------------
def check_card_forms(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Sections, keywords, costs and sets fit each card's type (rulebook, Reading the text box)."""
    for card in load.db.cards:
        yield from _card_form(load, card)


def _card_form(load: LoadResult, card: Card) -> Iterable[Finding]:
    at = lambda *p, key=False: _at(load, card, *p, key=key)
    for section, types in SECTIONS.items():
        if getattr(card, section) and card.type not in types:
            yield Finding(at(section), "section", f"a {card.type} cannot have `{section}` lines",
                          f"`{section}` is for: {', '.join(types)}")
    if card.triggers and card.type not in ("creature", "rite"):
        yield Finding(at("triggers"), "section", f"a {card.type} cannot have `triggers`",
                      "triggers are for creatures and Rites; a trap uses `trap: {kind, event}`")
    if card.keywords.names() and card.type != "creature":
        yield Finding(at("keywords"), "keyword", f"{', '.join(card.keywords.names())}: keywords only go on creatures",
                      "remove `keywords`, or make the card a creature")
    if card.type == "trap":
        if card.trap is None:
            yield Finding(at(), "trap", "a trap must declare its kind",
                          "add `trap: {kind: none}`, `{kind: each_time, event: EVENT}` or `{kind: when, event: EVENT}`")
        elif card.trap.kind != "none" and not card.trap.event:
            yield Finding(at("trap"), "trap", f"a `{card.trap.kind}` trap needs the event it reacts to",
                          "add `event:` with one of: " + ", ".join(EVENTS))
        elif card.trap.kind == "none" and card.trap.event:
            yield Finding(at("trap", "event"), "trap", "a trap without trigger reacts to no event",
                          "remove `event:`, or make it `kind: each_time` or `kind: when`")
        if not card.effects:
            yield Finding(at(), "trap", "a trap needs `effects`", "add the lines it resolves")
    elif card.trap is not None:
        yield Finding(at("trap"), "trap", f"only traps have `trap:`; this card is a {card.type}",
                      "remove `trap:` or set `type: trap`")
    if card.type in ("soul", "spell") and not card.effects:
        yield Finding(at(), "section", f"a {card.type} needs `effects`", "add the lines it resolves")
    if card.type == "soul" and not any(ln.verb == "essence" for ln in card.effects):
        yield Finding(at("effects"), "soul", "a Soul card must give essence",
                      "add an `essence: N` line (N Soul icons)")
    if card.type == "creature" and not (card.activate or card.keywords.names() or card.triggers
                                        or card.end_of_turn or card.demise):
        yield Finding(at(), "creature", "this creature has no ability: creatures never fight, they act",
                      "give it an `activate` ability or a keyword", severity=WARNING)
    yield from _set_form(load, card, at)


def _set_form(load: LoadResult, card: Card, at) -> Iterable[Finding]:
    if (card.type == "rite") != (card.set == "rite"):
        yield Finding(at("set"), "set", "Rites, and only Rites, belong to the `rite` set",
                      "set `type: rite` and `set: rite` together")
    if card.set == "recruit" and card.cost is None:
        yield Finding(at(), "cost", "a recruitment card needs a soul cost (its purchase price)",
                      "add `cost: N`")
    if card.set != "recruit" and card.cost is not None:
        yield Finding(at("cost"), "cost", f"{card.set} cards are never bought: they have no soul cost",
                      "remove `cost`")
    if card.set == "rite":
        if len(card.factions) != 1:
            yield Finding(at("factions"), "rite", "a Rite belongs to exactly one faction",
                          "list one faction")
        if card.allegiance:
            yield Finding(at("allegiance"), "rite", "a Rite is taken, not played: it has no allegiance requirement",
                          "remove `allegiance`")
    if card.set == "starter" and card.type == "creature" and len(card.factions) != 1:
        yield Finding(at("factions"), "starter", "a starter creature belongs to exactly one faction",
                      "list its faction")
    if card.set == "recruit" and not card.factions:
        yield Finding(at("factions"), "faction", "a recruitment card belongs to at least one faction",
                      "list its faction(s)")
    for faction in card.allegiance:
        if faction not in card.factions:
            yield Finding(at("allegiance", faction, key=True), "allegiance",
                          f"requires {faction} allegiance but {faction} is not among the card's factions",
                          f"add {faction} to `factions`, or remove the requirement")


# -- the rulebook's counts ---------------------------------------------------------
def check_counts(load: LoadResult, books: dict) -> Iterable[Finding]:
    """The contents the rulebook fixes: 80 recruitment cards, 8 traps, 4 Rites, the starter decks."""
    db = load.db
    recruit = db.of_set("recruit")
    anchor = _set_anchor(load, recruit)
    total = sum(c.copies for c in recruit)
    if total != rulebook.RECRUIT_CARDS:
        yield Finding(anchor, "count", f"{total} recruitment cards (copies counted); the rulebook has "
                      f"{rulebook.RECRUIT_CARDS}", "adjust `copies` or add/remove cards (Setup 4)")
    traps = [c for c in recruit if c.type == "trap"]
    n_traps = sum(c.copies for c in traps)
    if n_traps != rulebook.TRAPS:
        yield Finding(_set_anchor(load, traps or recruit), "count", f"{n_traps} traps among the recruitment cards; the rulebook has "
                      f"{rulebook.TRAPS}", "the rulebook lists \"the 8 traps of the game\"")
    kinds = {c.trap.kind for c in traps if c.trap}
    for kind in rulebook.TRAP_KINDS_REQUIRED:
        if traps and kind not in kinds:
            yield Finding(anchor, "count", f"no trap of kind `{kind}`",
                          "the rulebook describes three kinds of trap: none, each_time, when")
    names = {c.name.get("en") for c in db.cards}
    for name in rulebook.NAMED_TRAPS + rulebook.NAMED_RITES:
        if db.cards and name not in names:
            yield Finding(anchor, "count", f"the rulebook names \"{name}\", but no card has that name",
                          "add the card, or fix its English name")
    yield from _rite_counts(load, _set_anchor(load, db.rites()))
    yield from _starter_counts(load, _set_anchor(load, db.of_set("starter")))


def _set_anchor(load: LoadResult, cards: list[Card]) -> Position:
    """Where a count about ``cards`` is reported: at the last of them, where a missing one would go.

    With none of them written, at the first card file's `cards:` list (or its first line).
    """
    if cards:
        return _at(load, cards[-1])
    for rel in load.files:
        if rel in load.sources:
            line, col = load.sources[rel].at(("cards",), key=True)
            return Position(rel, line or 1, col or 1)
    return Position(load.files[0] if load.files else "cards/", 1, 1)


def _rite_counts(load: LoadResult, anchor: Position) -> Iterable[Finding]:
    rites = load.db.rites()
    if len(rites) != rulebook.RITES:
        yield Finding(anchor, "count", f"{len(rites)} Rites; the rulebook has {rulebook.RITES}, one per faction",
                      "Setup 5: \"Place the 4 Rites\"")
    per = Counter(c.faction for c in rites)
    for faction in FACTIONS:
        if per[faction] > 1:
            yield Finding(anchor, "count", f"{per[faction]} Rites for {faction}; each faction has one",
                          "remove the extra Rite")
        elif rites and per[faction] == 0:
            yield Finding(anchor, "count", f"no Rite for {faction}", "add the faction's Rite")


def _starter_counts(load: LoadResult, anchor: Position) -> Iterable[Finding]:
    db = load.db
    starters = db.of_set("starter")
    for cid, n in rulebook.STARTER_SOULS.items():
        card = next((c for c in starters if c.id == cid), None)
        if card is None:
            yield Finding(anchor, "starter", f"the starter card `{cid}` is missing",
                          f"Setup 2: each starter deck holds {n} of it")
        elif card.copies != n or card.factions:
            yield Finding(_at(load, card, "copies"), "starter",
                          f"`{cid}`: a starter deck holds {n}, shared by every faction",
                          f"set `copies: {n}` and `factions: []`")
    for faction in FACTIONS:
        creatures = [c for c in starters if c.type == "creature" and c.faction == faction]
        n = sum(c.copies for c in creatures)
        if n != rulebook.STARTER_CREATURES_PER_FACTION:
            yield Finding(anchor, "starter", f"{n} starter creatures for {faction}; the rulebook gives each "
                          f"faction {rulebook.STARTER_CREATURES_PER_FACTION}", "Setup 2")
        deck = db.starter_deck(faction)
        if starters and len(deck) != rulebook.STARTER_DECK_SIZE:
            yield Finding(anchor, "starter", f"the {faction} starter deck has {len(deck)} cards; it must have "
                          f"{rulebook.STARTER_DECK_SIZE}", "Setup 2")
    for card in starters:
        if card.type not in ("soul", "creature"):
            yield Finding(_at(load, card, "type"), "starter", "starter decks hold only Souls and creatures",
                          "move the card to the recruitment set")


# -- factions ------------------------------------------------------------------------
def check_factions(load: LoadResult, books: dict) -> Iterable[Finding]:
    """The four factions are each defined once."""
    seen: dict[str, Position] = {}
    for faction in load.db.factions:
        if faction.id in seen:
            yield Finding(faction.position, "faction", f"faction `{faction.id}` is defined twice (also at "
                          f"{seen[faction.id]})", "keep one definition")
        seen.setdefault(faction.id, faction.position)
    if not load.complete:
        return  # a faction in a file that does not load is not missing
    anchor = _factions_anchor(load)
    for fid in FACTIONS:
        if fid not in seen:
            yield Finding(anchor, "faction", f"faction `{fid}` is not defined",
                          "add it to cards/factions.yaml with its name, colour, icon and identity")


def _factions_anchor(load: LoadResult) -> Position:
    """The `factions:` list where factions are defined, else the first card file's first line."""
    for rel in load.files:
        source = load.sources.get(rel)
        if source is not None:
            line, col = source.at(("factions",), key=True)
            if line:
                return Position(rel, line, col)
    return _set_anchor(load, [])


# -- languages and text ------------------------------------------------------------
def check_languages(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Every name, flavour and wording exists, non-blank, in every language."""
    for card in load.db.cards:
        for fld in ("name", "flavor"):
            values = getattr(card, fld)
            for lang in LANGUAGES:
                if values and not str(values.get(lang, "")).strip():
                    yield Finding(_at(load, card, fld), "language", f"{fld} is blank in `{lang}`",
                                  f"write the {fld} in {lang}")
    for faction in load.db.factions:
        for fld in ("name", "identity"):
            for lang in LANGUAGES:
                if not getattr(faction, fld).get(lang, "").strip():
                    yield Finding(faction.position, "language", f"faction {fld} is blank in `{lang}`",
                                  f"write it in {lang}")


#: Characters no card text needs and an attacker might: C0/C1 controls (a NUL, a bell, an escape that
#: turns a terminal's colours) and the bidirectional overrides and isolates that make text read in an
#: order other than the one it is stored in ("Trojan Source"), and the implicit direction marks
#: (LRM, RLM, ALM) that move neutral characters. A line break and a tab are allowed.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def check_characters(load: LoadResult, books: dict) -> Iterable[Finding]:
    """No control or bidirectional-override character in any text of a card (written as a YAML escape)."""
    def walk(value, path: tuple, rel: str):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from walk(v, path + (k,), rel)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from walk(v, path + (i,), rel)
        elif isinstance(value, str) and (m := _HIDDEN.search(value)):
            yield Finding(load.where(rel, path), "text-character",
                          f"the text holds the invisible character U+{ord(m.group()):04X} "
                          f"({unicodedata.name(m.group(), 'a control character')})",
                          "delete it: a card text needs no control or direction-override character")

    for rel, path, raw in load.raw_cards:
        yield from walk(raw, path, rel)


def check_text(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Each card's text compiles in every language; hand-written wordings keep numbers and keywords."""
    if not books:
        return
    for card in load.db.cards:
        for lang, book in sorted(books.items()):
            try:
                book.card_text(card)
                book.type_line(card)
            except PhraseError as exc:
                yield Finding(_at(load, card), "locale", f"cannot print this card in `{lang}`: {exc}",
                              f"add the phrase to locales/{lang}.yaml")
        for section, index, line in _indexed_lines(card):
            if not line.override:
                continue
            for lang, book in sorted(books.items()):
                yield from _check_override(load, card, section, index, line, lang, book)


def _check_override(load, card, section, index, line, lang, book) -> Iterable[Finding]:
    pos = _at(load, card, *section, index, "text")
    if lang not in line.override:
        yield Finding(pos, "language", f"the wording has no `{lang}` version", f"add `{lang}:`")
        return
    try:
        compiled = book.line_text(_without_override(line))
    except PhraseError:
        return  # reported by the compile check above
    problems = wording_differences(compiled, line.override[lang])
    if problems:
        yield Finding(pos, "wording", f"the `{lang}` wording {', '.join(problems)} "
                      f"(the effect reads \"{book.plain(compiled)}\")",
                      "keep the numbers, keywords and icons of the effect, or change the effect itself")


def _without_override(line):
    return replace(line, override=None)


def _indexed_lines(card: Card):
    for section in ("effects", "activate", "demise", "end_of_turn"):
        for i, line in enumerate(getattr(card, section)):
            yield (section,), i, line
    for t, trig in enumerate(card.triggers):
        for i, line in enumerate(trig.lines):
            yield ("triggers", t, "effects"), i, line


# -- printed layout ----------------------------------------------------------------------
#: What a printed line belongs to, in words (``Reading.block``, opening it or continuing it).
_ABILITY = {
    "activate": ("the start of a ⟳ activation", "part of the ⟳ activation above it"),
    "demise": ("a Demise line", "part of the Demise above it"),
    "trigger": ("the start of an \"each time\" ability", "part of the \"each time\" ability above it"),
    "end_of_turn": ("the start of an end-of-turn ability", "part of the end-of-turn ability above it"),
    "trap_when": ("the trap's \"when\" header", "part of the trap's effects"),
    "trap_each_time": ("the trap's \"each time\" header", "part of the trap's effects"),
    "effects": ("an effect of the card as it is played", "an effect of the card as it is played"),
    "guard": ("the ⟳ Guard keyword", "the ⟳ Guard keyword"),
    "aegis": ("the Aegis keyword", "the Aegis keyword"),
    "rush": ("the Rush keyword", "the Rush keyword"),
}
#: The ⟳ and Demise marks and the triggered openings a reader sees, as named in a finding.
_MARK = {"activate": "the ⟳ mark", "demise": "the Demise mark or word", "trigger": "an \"each time\" opening",
         "end_of_turn": "an end-of-turn opening", "trap_when": "a trap's \"when\" header",
         "trap_each_time": "a trap's \"each time\" header"}


def _describe(reading: Reading) -> str:
    opening, continuing = _ABILITY.get(reading.block, (reading.block, reading.block))
    return opening if reading.head else continuing


def check_printed_layout(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Every printed line reads, by the rulebook, as the ability the engine runs it in (rule printed-layout).

    Rulebook, Reading the text box: a line opening with ⟳ starts an activation and every line
    after it is part of it up to a Demise line. A wording override that carries a ⟳ or Demise
    mark or an "Each time …" / "End of your turn: …" opening, or a locale frame that loses its
    mark, would make a player read a line as another ability than the one the engine resolves.
    """
    for card in load.db.cards:
        for lang, book in sorted(books.items()):
            try:
                printed = book.printed_lines(card)
                reader = LineReader(book)
            except PhraseError:
                continue  # reported by check_text
            readings = reader.read([p.text for p in printed])
            for p, got in zip(printed, readings):
                want = Reading(p.block, p.head and p.block != "effects")
                override = p.line.override.get(lang) if p.line and p.line.override else None
                body = book.line_text(p.line) if p.line else ""  # the line without its section's header
                mark = reader.embedded(body)
                if got == want and mark is None:
                    continue
                path = p.path + ("text", lang) if override is not None else p.path
                shown = book.plain(p.text)
                if got != want:
                    message = (f"in `{lang}` the line \"{shown}\" reads as {_describe(got)}, "
                               f"but the engine resolves it as {_describe(want)}")
                else:
                    message = (f"in `{lang}` the line \"{shown}\" carries {_MARK[mark]} in its effect, "
                               f"so it reads as another ability than {_describe(want)}, the one the "
                               "engine resolves")
                yield Finding(_at(load, card, *path),
                              "printed-layout", message, _layout_hint(p, lang, override))
                break  # the lines below follow from this one; one finding per card and language


def _layout_hint(p, lang: str, override) -> str:
    if override is not None:
        return ("reword the `text:` override without a ⟳ or Demise mark and without an \"Each time\" or "
                "\"End of your turn\" opening: the section the line sits in prints its own header; "
                "to make it another ability, move the line to that section (`activate`, `triggers`, "
                "`end_of_turn`, `demise`)")
    return (f"the line comes from locales/{lang}.yaml: keep [[activate]] at the start of `frames.activate` "
            "and `frames.guard`, [[demise]] at the start of `frames.demise`, and no ⟳ or Demise mark nor a "
            "triggered frame's opening words in other phrases")


# -- assets ----------------------------------------------------------------------------
def check_assets(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Art pictures stay inside the project folder, are images forge can print, sharp enough at 300 DPI."""
    root = load.root.resolve()
    windows: dict | None = None  # the template is loaded only for a card with a picture
    for card in load.db.cards:
        if not isinstance(card.art, ImageArt):
            continue
        if windows is None:
            windows = _art_windows(root)
        rel = card.art.image
        pos = _art_position(load, card, "image")
        problem = asset_problem(root, rel)
        if problem:
            yield Finding(pos, "asset", f"art `{rel}`: {problem}",
                          "use a path relative to the project folder, e.g. art/my-card.png")
            continue
        try:
            if is_svg(rel):
                read_svg(art_bytes(root, rel))
                continue
            with read_art(root, rel) as image:
                size = image.size
        except ArtError as exc:
            yield Finding(pos, "art", f"art `{rel}`: {exc}",
                          "save the art again as a PNG, JPEG or WebP image of at most "
                          f"{MAX_ART_PIXELS // 1_000_000} megapixels, or as an SVG that refers to no other file")
            continue
        window = windows.get(card.type)
        if window:
            dpi = art_dpi(size, window, card.art.fit)
            if dpi < PRINT_DPI - 0.5:
                need = (round(window[0] / 25.4 * PRINT_DPI), round(window[1] / 25.4 * PRINT_DPI))
                yield Finding(pos, "art-resolution",
                              f"art `{rel}` ({size[0]} × {size[1]} px) prints at {dpi:.0f} dpi in the "
                              f"{window[0]:.1f} × {window[1]:.1f} mm art window ({card.art.fit}); print needs "
                              f"{PRINT_DPI} dpi",
                              f"use a picture of at least {need[0]} × {need[1]} pixels"
                              + (" (or `fit: cover`)" if card.art.fit == "contain" else ""))


def check_art_icons(load: LoadResult, books: dict) -> Iterable[Finding]:
    """Icon compositions name icons forge has, and no two card designs share the same picture."""
    seen: dict[tuple, Card] = {}
    for card in load.db.cards:
        art = card.art
        if isinstance(art, IconArt):
            for i, name in enumerate(art.icons()):
                if has_icon(name):
                    continue
                guess = suggest_icon(name)
                where = _art_position(load, card, "icon") if i == 0 else _art_position(load, card, "accents", i - 1)
                yield Finding(where, "art-icon", f"`{card.id}`: icon `{name}` is not one forge has",
                              (f"did you mean `{guess}`? " if guess else "")
                              + "pick a game-icons.net name and vendor it: python -m forge.render.vendor")
            picture: tuple = ("icons", art.icon, tuple(sorted(art.accents)))
        elif isinstance(art, ImageArt):
            picture = ("image", os.path.normpath(art.image))
        else:
            continue
        first = seen.setdefault(picture, card)
        if first is not card:
            yield Finding(_art_position(load, card), "art-duplicate",
                          f"`{card.id}` has the same picture as `{first.id}` ({first.position})",
                          "give every card design its own art: another icon, or other accents")


def _art_position(load: LoadResult, card: Card, *sub) -> Position:
    """Where a card's art is, or a part of it when written as a mapping (else the nearest place)."""
    return _at(load, card, "art", *sub)


def _art_windows(root: Path) -> dict[str, tuple[float, float]]:
    """Each card type's art window in millimetres, from the card template (none when it cannot be read)."""
    from ..render.template import TemplateError, load_template  # lazy: loads reportlab, forge.render only when needed

    try:
        tpl = load_template(root)
    except TemplateError:
        return {}  # check_text_fit reports the template
    return {t: tuple(float(v) for v in tpl.layout(t)["art"][2:4]) for t in CARD_TYPES}


def asset_problem(root: Path, rel: str) -> str | None:
    """Why an asset path is refused, or None: absolute, escaping with ../ or a link, or missing."""
    if os.path.isabs(rel) or rel.startswith(("~", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        return "absolute paths are not allowed"
    if ".." in Path(rel).parts:
        return "the path leaves the project folder"
    target = (root / rel)
    try:
        resolved = target.resolve()
    except (OSError, RuntimeError):
        return "the path cannot be resolved (a link loop?)"
    if not resolved.is_relative_to(root):
        return "the path leads outside the project folder (through a link)"
    if not resolved.exists():
        return "no such file"
    return None


__all__ = ["Report", "validate", "EXTRA_CHECKS"]


#: Checks over the whole set: with a file, card or faction left out, they would report what is
#: missing because it failed, not what is wrong; they wait until everything loads.
SET_WIDE_CHECKS: tuple[Check, ...] = (check_counts, check_card_proofs)
