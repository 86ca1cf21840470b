"""Printed card text, compiled from structured effects through per-language phrases.

One source of truth: the engine runs ``EffectLine`` objects and the printed card
shows the same lines, phrased by ``locales/<lang>.yaml``. The compiled text is a
small markup that the renderers and reporters share:

- ``**Wound**``: a keyword, emphasised when printed;
- ``[[red]]`` ``[[white]]`` ``[[black]]`` ``[[blue]]``: faction icons;
- ``[[soul]]`` the Soul dot, ``[[activate]]`` the ⟳ mark, ``[[demise]]`` the
  tombstone, ``[[trap]]`` the wolf.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..core.findings import Finding
from ..carddb.model import Card, Position
from ..carddb.vocabulary import FACTIONS, LANGUAGES, PRINTED_ORDER, EffectLine, plural_category
from ..core import safeio

ICONS: tuple[str, ...] = FACTIONS + ("soul", "activate", "demise", "trap")
_MARKUP = re.compile(r"\*\*(.+?)\*\*|\[\[([a-z_]+)\]\]")
#: A placeholder: a name, and for a count its singular and plural forms. Nothing else opens with a brace
#: (``placeholder_problems`` reports the rest when a locale is loaded; whoever fills a phrase prints it as written).
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^|{}]*)\|([^|{}]*))?\}")
#: How icons read in plain text (terminal reports, logs, the text of a PDF).
PLAIN_ICONS = {"soul": "●", "activate": "⟳", "demise": "✝", "trap": "🐺"}
#: Languages whose typography wants no capital after a colon inside a sentence (after a comma, none does).
_LOWER_AFTER_COLON = frozenset({"fr"})
#: A frame's ``{effect}`` placed after a colon or a comma, inside the sentence the frame starts.
_MID_SENTENCE_EFFECT = re.compile(r"[:,]\s*\{effect\}")
_AFTER_COMMA = re.compile(r",\s*\{effect\}")


@dataclass(frozen=True)
class Span:
    """A piece of a printed line: plain ``text``, an emphasised ``keyword``, or an ``icon`` name."""

    kind: str
    value: str


def parse_markup(line: str) -> list[Span]:
    """Split a line of markup into spans, in order."""
    spans: list[Span] = []
    pos = 0
    for m in _MARKUP.finditer(line):
        if m.start() > pos:
            spans.append(Span("text", line[pos:m.start()]))
        spans.append(Span("keyword", m.group(1)) if m.group(1) is not None else Span("icon", m.group(2)))
        pos = m.end()
    if pos < len(line):
        spans.append(Span("text", line[pos:]))
    return spans


#: The locale frame that heads each section's first printed line (None: the lines print bare).
_SECTION_FRAME = {"effects": None, "end_of_turn": "end_of_turn", "activate": "activate", "demise": "demise"}


@dataclass(frozen=True)
class PrintedLine:
    """One printed rules line and what it belongs to.

    ``block`` is the frame that heads the line's section ("activate", "demise", "trigger",
    "end_of_turn", "trap_when", "trap_each_time", a keyword name, or "effects" for bare
    played effects); ``path`` is where the line sits in the card's YAML, e.g.
    ``("activate", 1)``; ``head`` is True on the section's first line, the one the frame heads.
    """

    text: str
    block: str
    path: tuple
    head: bool
    line: EffectLine | None = None


class PhraseError(Exception):
    """A phrase is missing or malformed in a locale file.

    A locale file that cannot be read at all also says where (``file``, ``line``,
    ``col``), under which ``rule``, and what to do (``hint``), so that
    ``forge validate`` reports it like a card file.
    """

    def __init__(self, message: str, file: str = "", line: int = 0, col: int = 0,
                 rule: str = "locale", hint: str = "", reason: str = ""):
        super().__init__(message)
        self.file, self.line, self.col, self.rule, self.hint = file, line, col, rule, hint
        self.reason = reason or message

    def finding(self) -> Finding:
        """The error as a finding, at its place when it knows it."""
        hint = self.hint or "restore the locale file; see docs/card-format.md"
        if self.file:
            return Finding(Position(self.file, self.line, self.col), self.rule, self.reason, hint)
        return Finding(Position("locales"), self.rule, str(self), hint)


class Phrasebook:
    """The phrase templates of one language, and the compiler that uses them."""

    def __init__(self, lang: str, data: dict, source: str = "", where=None):
        self.lang = lang
        self.data = data
        self.source = source
        self.where = where  # the file's yamlsrc.SourceMap: a missing phrase is reported at its table
        #: Every placeholder of the file that is not forge's grammar or not one its phrase is filled with,
        #: found as the book is loaded (``placeholder_problems``), so that none waits for the card that uses it.
        self.problems: list[PhraseError] = [self._placeholder_error(path, reason) for path, reason
                                            in placeholder_problems(data)]

    def _placeholder_error(self, path: tuple, reason: str) -> PhraseError:
        line, col = self.where.at(path) if self.where is not None else (0, 0)
        dotted = ".".join(str(p) for p in path)
        return PhraseError(f"{self.source}: `{dotted}`: {reason}", self.source, line, col, "placeholder",
                           "a placeholder is `{name}` or `{name|singular|plural}` with a name the phrase is "
                           "filled with (see the comments at the top of locales/en.yaml); forge formats nothing",
                           f"`{dotted}`: {reason}")

    def _error(self, reason: str, path: tuple = ()) -> PhraseError:
        """A phrase problem at the nearest place ``path`` leads to in the locale file (its top without one)."""
        line, col = self.where.at(path, key=True) if self.where is not None and self.source else (0, 0)
        return PhraseError(f"{self.source}: {reason}", self.source, line, col, reason=reason)

    def _path_of(self, text: str) -> tuple:
        """Where a phrase is written in the file (the first place that holds exactly ``text``), or ()."""
        todo: list[tuple[tuple, object]] = [((), self.data)]
        while todo:
            path, value = todo.pop(0)
            if value == text:
                return path
            if isinstance(value, dict):
                todo += [(path + (k,), v) for k, v in value.items()]
        return ()

    # -- lookups -----------------------------------------------------------
    def section(self, name: str) -> dict:
        value = self.data.get(name)
        if not isinstance(value, dict):
            raise self._error(f"missing `{name}:` table", (name,))
        return value

    def label(self, table: str, key: str) -> str:
        try:
            return str(self.section(table)[key])
        except KeyError:
            raise self._error(f"`{table}.{key}` is missing", (table, key)) from None

    def faction_name(self, faction: str) -> str:
        return self.label("factions", faction)

    def keyword(self, key: str) -> str:
        return self.label("keywords", key)

    def type_line(self, card: Card) -> str:
        """e.g. "Creature — Red · Black"; neutral cards show their type alone."""
        kind = self.label("types", card.type)
        if card.type == "trap" and card.trap:
            kind = f"{kind} · {self.label('trap_kinds', card.trap.kind)}"
        if not card.factions:
            return kind
        return f"{kind} — " + " · ".join(self.faction_name(f) for f in card.factions)

    # -- compiling ---------------------------------------------------------
    def card_text(self, card: Card) -> list[str]:
        """Every printed rules line of ``card``, in markup, top to bottom (see ``printed_lines``)."""
        return [p.text for p in self.printed_lines(card)]

    def printed_lines(self, card: Card) -> list["PrintedLine"]:
        """The printed lines of ``card`` in the rulebook's reading order, each with what it belongs to.

        Rulebook, Reading the text box: after ⟳ "every following line, conditional lines
        included, is part of the same activation, up to a Demise line". So the keywords and
        the abilities that are not the activation (played effects, triggers, end of turn)
        come first, then the ⟳ lines, then Demise last (``PRINTED_ORDER``).
        """
        out: list[PrintedLine] = []
        kw = card.keywords
        if kw.guard:
            out.append(PrintedLine(self.frame("guard"), "guard", ("keywords",), True))
        if kw.aegis:
            out.append(PrintedLine(self.frame("aegis", n=kw.aegis), "aegis", ("keywords",), True))
        if kw.rush:
            out.append(PrintedLine(self.frame("rush"), "rush", ("keywords",), True))
        for section in PRINTED_ORDER[1:]:
            if section == "triggers":
                for t, trig in enumerate(card.triggers):
                    out += self._section(trig.lines, "trigger", ("triggers", t, "effects"),
                                         event=self.event(trig.event, trig.actor))
            elif section == "effects" and card.trap and card.trap.kind != "none":
                out += self._section(card.effects, "trap_" + card.trap.kind, ("effects",),
                                     event=self.event(card.trap.event, "opponent"))
            else:
                out += self._section(getattr(card, section), _SECTION_FRAME[section], (section,))
        return out

    def _section(self, lines, frame: str | None, path: tuple, **values) -> list["PrintedLine"]:
        """A section's lines; the first one framed by the section's header (⟳, Demise, "Each time …")."""
        out = []
        for i, line in enumerate(lines):
            text = self.line_text(line)
            if i == 0 and frame:
                text = self.frame(frame, effect=text, **values)
            out.append(PrintedLine(text, frame or "effects", path + (i,), i == 0, line))
        return out

    def line_text(self, line: EffectLine) -> str:
        """One effect line: its phrase, then threshold, "you may" and timing frames."""
        if line.override and self.lang in line.override:
            return line.override[self.lang]
        phrase, has_may_form = self.phrase(line)
        text = self.fill(phrase, line)
        if line.may and not has_may_form:
            text = self.frame("may", effect=text)
        if line.timing:
            text = self.frame(line.timing, effect=text)
        if line.threshold:
            text = self.frame("threshold", effect=text, n=line.threshold.n,
                              faction=f"[[{line.threshold.faction}]]")
        return text

    def phrase(self, line: EffectLine) -> tuple[str, bool]:
        """The template for a line's verb and variant; True when it is already a "you may" form."""
        entry = self.section("phrases").get(line.verb)
        if entry is None:
            raise self._error(f"no phrase for verb `{line.verb}`", ("phrases", line.verb))
        if isinstance(entry, dict) and not set(entry) <= {"do", "may"}:
            key = variant_key(line)
            if key not in entry:
                raise self._error(f"phrase `{line.verb}` has no `{key}` variant", ("phrases", line.verb, key))
            entry = entry[key]
        if isinstance(entry, dict):
            if line.may and "may" in entry:
                return str(entry["may"]), True
            if "do" not in entry:
                raise self._error(f"phrase for `{line.verb}` has no `do:` form", ("phrases", line.verb))
            return str(entry["do"]), False
        return str(entry), False

    def frame(self, name: str, **values) -> str:
        template = self.label("frames", name)
        if "effect" in values and (_AFTER_COMMA.search(template) or
                                   (self.lang in _LOWER_AFTER_COLON and _MID_SENTENCE_EFFECT.search(template))):
            values["effect"] = self.lower_first(values["effect"])
        return self.fill(template, None, **values)

    def lower_first(self, text: str) -> str:
        """``text`` continuing a sentence: its first word in lower case, unless it is a keyword's name
        (a name keeps its capital: "**Blessures** 2") or not a word (an icon, a number)."""
        spans = parse_markup(text)
        if not spans or spans[0].kind == "icon":
            return text
        first = spans[0].value
        if spans[0].kind == "keyword" and first in self.section("keywords").values():
            return text
        lowered = first[:1].lower() + first[1:]
        return text.replace(first, lowered, 1)

    def event(self, event: str | None, actor: str) -> str:
        entry = self.section("events").get(event)
        if not isinstance(entry, dict) or actor not in entry:
            raise self._error(f"`events.{event}.{actor}` is missing", ("events", event, actor))
        return str(entry[actor])

    def fill(self, template: str, line: EffectLine | None, **values) -> str:
        """Replace ``{name}`` and ``{n|singular|plural}`` placeholders."""
        if line is not None:
            values.setdefault("n", line.n)
            values.setdefault("souls", "[[soul]]" * line.n)
            faction = line.arg("faction")
            if faction in FACTIONS:
                values.setdefault("faction", f"[[{faction}]]")
                values.setdefault("faction_name", self.faction_name(faction))

        def sub(m: re.Match) -> str:
            name, singular, plural = m.groups()
            if name not in values:
                raise self._error(f"unknown placeholder {{{name}}} in {template!r}", self._path_of(template))
            if singular is not None:
                return singular if plural_category(self.lang, int(values[name])) == "one" else plural
            return str(values[name])

        return PLACEHOLDER.sub(sub, template)

    def plain(self, line: str) -> str:
        """A markup line as plain text, e.g. for terminals and logs."""
        parts = []
        for span in parse_markup(line):
            if span.kind == "icon":
                parts.append(self.faction_name(span.value) if span.value in FACTIONS
                             else PLAIN_ICONS.get(span.value, span.value))
            else:
                parts.append(span.value)
        return "".join(parts)


# -- reading printed text as the rulebook does -------------------------------------------------
#: Frames whose words open an ability that is not the activation (rulebook: triggered effects wait).
TRIGGERED_FRAMES = ("trigger", "end_of_turn", "trap_each_time", "trap_when")
#: The keyword lines a card prints on their own (⟳ Guard is read with the ⟳ mark).
KEYWORD_FRAMES = ("aegis", "rush")
_CONDITION = re.compile(r"^\d+\s*(?:\[\[[a-z_]+\]\]\s*)+:\s*")
_SENTENCE = re.compile(r"(?:^|[.!?:;]\s+)")


def _norm(text: str) -> str:
    """Text as a reader compares it: no emphasis, one kind of space, no case."""
    return " ".join(text.replace("**", "").replace("\u00a0", " ").replace("\u202f", " ").split()).casefold()


@dataclass(frozen=True)
class Reading:
    """How a player reads one printed line: the ability it belongs to, and whether it opens it."""

    block: str
    head: bool


class LineReader:
    """Reads printed lines the way the rulebook tells a player to (Reading the text box).

    A line opening with ⟳ starts an activation (⟳ Guard excepted, a keyword), and "every
    following line, conditional lines included, is part of the same activation, up to a
    Demise line"; a line opening with a triggered frame's words ("Each time …", "End of your
    turn: …", a trap's header) starts that ability; any other line continues the ability
    above it, or is an effect of the card when nothing came before.
    """

    def __init__(self, book: "Phrasebook"):
        self.book = book
        self.heads = sorted(((name, self._head(name)) for name in TRIGGERED_FRAMES + ("demise",)),
                            key=lambda h: -len(h[1]))
        self.guard = _norm(book.keyword("guard"))
        self.keywords = [(name, _norm(self._head(name))) for name in KEYWORD_FRAMES]

    def _head(self, frame: str) -> str:
        """The words a frame opens with, before its first placeholder, without icons."""
        text = self.book.label("frames", frame).split("{", 1)[0]
        return _norm(_MARKUP.sub(lambda m: m.group(1) or "", text)).rstrip(" :")

    def opening(self, text: str) -> str | None:
        """The triggered frame (or Demise) whose words ``text`` opens with, or None."""
        plain = _norm(_MARKUP.sub(lambda m: m.group(1) or "", text))
        for name, head in self.heads:
            if head and plain.startswith(head) and (len(plain) == len(head) or not plain[len(head)].isalnum()):
                return name
        return None

    def read(self, lines: list[str]) -> list[Reading]:
        out: list[Reading] = []
        state = "effects"
        for line in lines:
            body = _CONDITION.sub("", line.lstrip())
            if body.startswith("[[activate]]"):
                if _norm(body[len("[[activate]]"):]).startswith(self.guard):
                    out.append(Reading("guard", True))
                    continue
                state = "activate"
                out.append(Reading(state, True))
                continue
            opened = "demise" if body.startswith("[[demise]]") else None
            if opened is None and state not in ("activate", "demise"):
                opened = self.opening(body)
            if opened:
                state = opened
                out.append(Reading(state, True))
                continue
            keyword = next((k for k, head in self.keywords if self._is_keyword_line(body, head)), None)
            if keyword and state == "effects":
                out.append(Reading(keyword, True))
                continue
            out.append(Reading(state, False))
        return out

    @staticmethod
    def _is_keyword_line(body: str, head: str) -> bool:
        rest = _norm(body)
        return rest == head or (rest.startswith(head + " ") and rest[len(head) + 1:].isdigit())

    def embedded(self, text: str) -> str | None:
        """A ⟳ or Demise mark, or a triggered frame's opening words, inside hand-written ``text``."""
        for icon in ("activate", "demise"):
            if f"[[{icon}]]" in text:
                return icon
        for m in _SENTENCE.finditer(text):
            found = self.opening(_CONDITION.sub("", text[m.end():]))
            if found:
                return found
        return None


def variant_key(line: EffectLine) -> str:
    """Which variant of a verb's phrase a line needs, from its enum parameters."""
    verb = line.verb
    up_to = "_up_to" if line.arg("up_to") else ""
    if line.arg("target") == "that":
        return "that"
    if verb in ("destroy", "exhaust", "bounce"):
        return "choice" + up_to
    if verb == "exile":
        return str(line.arg("from")) + up_to
    if verb == "rift":
        return str(line.arg("to")) + up_to
    if verb == "recover":
        return str(line.arg("card")) + up_to
    if verb == "allegiance":
        return "any" if line.arg("faction") == "any" else "faction"
    return "do"


# -- the placeholder grammar, checked when a locale is loaded ---------------------------------------
_BRACES = re.compile(r"[{}]")
_MAX_PER_PHRASE = 3
#: The values forge fills each frame with (``Phrasebook.frame``'s callers) and every effect phrase with
#: (``Phrasebook.fill``); a phrase under a ``faction`` variant has the faction too (``allegiance``).
FRAME_VALUES: dict[str, frozenset[str]] = {
    **{name: frozenset({"effect"}) for name in ("may", "immediately", "after_effects", "activate", "demise",
                                                   "end_of_turn")},
    **{name: frozenset({"effect", "event"}) for name in ("trigger", "trap_each_time", "trap_when")},
    "threshold": frozenset({"n", "faction", "effect"}), "aegis": frozenset({"n"}),
    "guard": frozenset(), "rush": frozenset(),
}
PHRASE_VALUES = frozenset({"n", "souls"})
_FACTION_VALUES = frozenset({"faction", "faction_name"})
#: Tables whose words are printed as they are: no placeholder at all.
_PLAIN_TABLES = frozenset({"language", "factions", "types", "trap_kinds", "sets", "steps", "keywords", "events"})


def _known(path: tuple) -> frozenset[str] | None:
    """The placeholders forge fills the phrase at ``path`` with; None where the table's reader checks them
    (``log:``, ``web:``: ``localetable.check``) or prints them as written (``play:``)."""
    table = path[0] if path else None
    if table in _PLAIN_TABLES:
        return frozenset()
    if table == "frames":
        return FRAME_VALUES.get(str(path[1]), frozenset()) if len(path) > 1 else frozenset()
    if table == "phrases":
        return PHRASE_VALUES | (_FACTION_VALUES if "faction" in path[2:] else frozenset())
    return None


def placeholder_problems(data) -> list[tuple[tuple, str]]:
    """(path, why) of each placeholder in the locale ``data`` that forge's grammar refuses.

    A phrase's placeholders are ``{name}`` and ``{name|singular|plural}``, nothing else: no format spec
    (``{turn:>900000000}``), conversion (``{x!r}``), attribute or index (``{a.b}``, ``{a[0]}``), position
    (``{0}``, ``{}``), stray brace, nor a name its phrase is not filled with.
    """
    found: list[tuple[tuple, str]] = []
    todo: list[tuple[tuple, object]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            todo += [(path + (k,), v) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(path + (i,), v) for i, v in enumerate(value)]
        elif isinstance(value, str) and _BRACES.search(value):
            found += [(path, why) for why in _grammar_problems(value, _known(path))]
    return sorted(found, key=lambda item: [str(p) for p in item[0]])


def _grammar_problems(text: str, known: frozenset[str] | None) -> list[str]:
    """Why the placeholders of one phrase are refused (the first few: a phrase of a thousand stray braces
    is one phrase to rewrite, not a thousand findings)."""
    problems, pos = [], 0
    while len(problems) < _MAX_PER_PHRASE and (m := _BRACES.search(text, pos)) is not None:
        start = m.start()
        if m.group() == "}":
            problems.append(f"a `}}` closes no placeholder: {_excerpt(text, start)}")
            pos = start + 1
            continue
        good = PLACEHOLDER.match(text, start)
        if good is not None:
            if known is not None and good.group(1) not in known:
                problems.append(f"unknown placeholder {{{good.group(1)}}}: this phrase is filled with "
                                + (", ".join("{%s}" % k for k in sorted(known)) or "no placeholder"))
            pos = good.end()
            continue
        end = text.find("}", start)
        problems.append(_malformed(text[start:end + 1] if end >= 0 else text[start:]))
        pos = end + 1 if end >= 0 else len(text)
    return problems


def _malformed(token: str) -> str:
    """Why ``token`` (a brace up to the next closing one) is not a placeholder."""
    body = token[1:-1] if token.endswith("}") else token[1:]
    shown = _excerpt(token, 0)
    if not token.endswith("}"):
        return f"a `{{` opens a placeholder that is never closed: {shown}"
    if not body or body[0].isdigit():
        return f"{shown} is a positional placeholder: a placeholder has a name"
    if "!" in body:
        return f"{shown} has a conversion (`!`): a placeholder is a name"
    if ":" in body and "|" not in body:
        return f"{shown} has a format spec (`:`): forge pads and formats nothing"
    if "." in body or "[" in body:
        return f"{shown} reaches into an attribute or an index: a placeholder is a name"
    return f"{shown} is not a placeholder: write `{{name}}` or `{{name|singular|plural}}`"


def _excerpt(text: str, start: int, width: int = 40) -> str:
    piece = text[start:start + width]
    return f"`{piece}`" + ("…" if len(text) > start + width else "")


def load_phrasebooks(root: Path) -> dict[str, Phrasebook]:
    """Read ``locales/<lang>.yaml`` for every language; raises PhraseError when one is missing.

    Files are read through ``safeio``: a pipe, a device, a folder, a huge file or a
    link out of the project is refused before a byte is read.
    """
    from ..carddb import yamlsrc  # lazy: loads yaml only when needed

    books = {}
    for lang in LANGUAGES:
        path = Path(root) / "locales" / f"{lang}.yaml"
        rel = f"locales/{lang}.yaml"
        try:
            data, where = yamlsrc.load(safeio.read_text(path, root))
        except safeio.UnsafeInput as exc:
            raise PhraseError(f"{rel}: {exc.message}", rel, rule=exc.rule, hint=exc.hint,
                              reason=exc.message) from None
        except UnicodeDecodeError:
            raise PhraseError(f"{rel}: the file is not UTF-8; save it as UTF-8", rel, rule="encoding",
                              hint="save the file as UTF-8 in your editor", reason="the file is not UTF-8") from None
        except yamlsrc.YamlError as exc:
            raise PhraseError(f"{rel}:{exc.line}:{exc.col}: {exc.message}", rel, exc.line, exc.col,
                              exc.rule, exc.hint, exc.message) from None
        if not isinstance(data, dict):
            raise PhraseError(f"{rel}: the top level must be a mapping", rel, 1, 1,
                              hint="start the file with the phrase tables, e.g. `factions:`",
                              reason="the top level must be a mapping")
        books[lang] = Phrasebook(lang, data, rel, where)
    return books


# -- checking hand-written wording -----------------------------------------
_NUMBER = re.compile(r"\d+")


def essentials(line: str) -> tuple[Counter, Counter]:
    """What a wording must keep: its numbers and its keywords and icons."""
    numbers = Counter(_NUMBER.findall("".join(s.value for s in parse_markup(line) if s.kind == "text")))
    marks = Counter((s.kind, s.value.casefold()) for s in parse_markup(line) if s.kind != "text")
    return numbers, marks


def wording_differences(compiled: str, override: str) -> list[str]:
    """How an override departs from the compiled line: lost or added numbers, keywords, icons."""
    (n1, m1), (n2, m2) = essentials(compiled), essentials(override)
    problems = []
    for label, a, b in (("number", n1, n2), ("keyword or icon", m1, m2)):
        for item in sorted((a - b).elements()):
            problems.append(f"drops the {label} {_show(item)}")
        for item in sorted((b - a).elements()):
            problems.append(f"adds the {label} {_show(item)}")
    return problems


def _show(item) -> str:
    if isinstance(item, tuple):
        kind, value = item
        return f"**{value}**" if kind == "keyword" else f"[[{value}]]"
    return str(item)
