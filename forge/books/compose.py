"""From prose and cards to one HTML document per book and language.

The prose (``templates/books/<book>.<lang>.md``) is data: ``forge.prose`` parses it
(CommonMark, ``:::`` blocks, a closed set of ``{name:args}`` directives) and this module
prints each directive from the cards and the locales, escaping every contributor
string. Jinja renders only forge's own layout (``forge/books/layout/``: the cover, the
contents, the tables, the back cover), which no project can replace. Every problem met
on the way is a ``Finding`` at its line; nothing here raises on bad prose.
"""
from __future__ import annotations

import base64
import functools
import html
import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
import sys

import jinja2
import jinja2.bccache
from markupsafe import Markup

from ..core import safeio, sandbox, seal
from ..carddb import yamlsrc
from ..engine.state import PLAY_STEPS, TURN_PHASES, WOUND_PROTECTION
from ..core.findings import WARNING, Finding
from ..carddb.model import Card, CardDatabase, Position, collector_order
from ..prose import grammar
from ..prose.grammar import Container, Directive
from ..prose.render import render, slugify
from ..text.cardtext import Phrasebook, PhraseError, parse_markup
from ..carddb.vocabulary import TRAP_KINDS, plural_category
from . import content, example, extras, table
from .anatomy import (
    choose_cards,
    cover_cards,
    place_callouts,
    render_card,
    render_figure,
)
from .fetch import UrlPolicy, scan_html
from .icons import IconSet, Palette
from .pdf import leftover_syntax
from .rulings import RULINGS_FILE, Ruling, parse_rulings
from .typography import typeset
from .whole import mark_whole
from ..core.seal import SealedRecord
from ..render.template import load_template
from ..text import termbase
from ..text.sources import Sources

BOOKS_DIR = Path("templates") / "books"
#: forge's own copies of the prose, strings, styles, game record and rulings, for any file a project does not
#: have: package data, so a wheel carries them (in the checkout, links to the shipped game's files: one copy).
BUILTIN_DIR = Path(str(resources.files(__package__) / "defaults"))
#: forge's layouts (Jinja, autoescaped): the cover, contents, tables, back cover and web page. Never a project's.
LAYOUT_DIR = Path(str(resources.files(__package__) / "layout"))
#: Layout files a project may still carry from older versions of forge: ignored, with a warning.
LAYOUT_FILES = ("book.html.j2", "macros.html.j2", "web/page.html.j2", "web/web.js")
BUILTIN_RULINGS = BUILTIN_DIR / RULINGS_FILE.name
BOOKS: tuple[str, ...] = ("rulebook", "reference")
#: The anatomy figure: its width (the A5 text width) and the card's width by number of cards, in mm.
ANATOMY_WIDTH = 120.0
ANATOMY_CARD_WIDTH = {1: 58.0, 2: 45.0}
ANATOMY_RATIO = 88.9 / 63.5
#: Width of the cards shown on the cover, in pixels.
COVER_CARD_PX = 420
FONTS_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"


#: The verbs that deal Wound damage (the quick reference names the traps that wound you on your own turn).
WOUND_VERBS = frozenset({"wound", "unblockable_wound"})
_NAME_REF = re.compile(r"\{(kw|type|n):(\w+)\}")
_LEFTOVER_TOKEN = re.compile(r"\[\[[a-z_]+\]\]|\{\{|\{%|:::|\*\*")
#: A placeholder of strings.yaml: a name, a plural choice ``{n|card|cards}``, or a name from the locale or the cards.
_GOOD_PLACEHOLDER = re.compile(r"\{(?:(\w+)|(\w+)\|[^|{}]*\|[^{}]*|(?:kw|type|n):\w+)\}")
_STYLE_END = re.compile(r"</\s*style", re.IGNORECASE)
_ANY_PLACEHOLDER = re.compile(r"\{[^{}]*\}?")
#: Every name a strings.yaml phrase may hold; forge fills them, never str.format.
PLACEHOLDERS = frozenset({"player", "other", "n", "m", "max", "card", "target", "health", "faction_name", "faction",
                          "trigger", "turn", "allegiance", "field", "step", "count", "quote", "icon", "icons", "only",
                          "needs", "source", "summon", "traps"})
#: How many times one book may print the same generated block (a table, a figure drawn from the cards).
MAX_BLOCK_REPEAT = 2
#: The ``:::`` blocks prose may open besides the reference's (a box, a tip, a block kept on one page...).
PLAIN_CONTAINERS = ("example", "tip", "keep", "credits", "reminder", "note")


class BookIOError(Exception):
    """A template, the strings or the rulings cannot be read: exit 2, with this message."""


# -- the project, loaded once for every book -------------------------------------------------
@dataclass
class Project:
    """What every book of a project reads: cards, phrasebooks, strings, rulings and where templates are."""

    root: Path
    db: CardDatabase
    books: dict[str, Phrasebook]
    strings: dict
    rulings: dict[int, Ruling]
    rulings_file: str
    palette: Palette
    template_dirs: tuple[Path, ...]
    #: What loading the project found (a broken strings.yaml): every composed book reports it.
    findings: list[Finding] = field(default_factory=list)
    #: A draft (``--force`` on cards validate refuses, stamped DRAFT on every page): a worked example that
    #: those cards cannot replay is then left out with a warning, since the draft is never the game's book.
    draft: bool = False

    def source(self, name: str) -> Path | None:
        """A template file from the project, else from forge.

        Anything present under the name counts (a FIFO or a folder too), so that reading it is
        refused rather than silently replaced by forge's own file.
        """
        return next((d / name for d in self.template_dirs if os.path.lexists(d / name)), None)

    def rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return (BOOKS_DIR / path.name).as_posix()


def load_project(root: Path, db: CardDatabase, books: dict[str, Phrasebook]) -> Project:
    """Read the strings and rulings next to a loaded database; raises BookIOError when one is unreadable."""
    dirs = tuple(d for d in (Path(root) / BOOKS_DIR, BUILTIN_DIR) if d.is_dir())
    project = Project(Path(root), db, books, {}, {}, RULINGS_FILE.as_posix(), _palette(root), dirs)
    strings_path = project.source("strings.yaml")
    if strings_path is None:
        raise BookIOError(f"{BOOKS_DIR / 'strings.yaml'}: not found")
    project.strings, project.findings = load_strings(read_source(project, strings_path), project.rel(strings_path))
    if project.findings and strings_path.parent != BUILTIN_DIR:
        # The book stops on these findings; forge's own labels let it report everything else too.
        project.strings = load_strings(safeio.read_text(BUILTIN_DIR / "strings.yaml", BUILTIN_DIR))[0]
    project.findings += [Finding(Position(project.rel(path), 0, 0), "book",
                                 f"`{name}` is forge's layout: a project's copy is ignored",
                                 "delete it; style the books with book.css and web/web.css, word them with "
                                 "strings.yaml", WARNING)
                         for name in LAYOUT_FILES if os.path.lexists(path := Path(root) / BOOKS_DIR / name)]
    rulings_path = Path(root) / RULINGS_FILE
    if not os.path.lexists(rulings_path):
        rulings_path = BUILTIN_RULINGS
    project.rulings = parse_rulings(read_source(project, rulings_path, RULINGS_FILE.as_posix()))
    return project


def load_strings(text: str, rel: str = "templates/books/strings.yaml") -> tuple[dict, list[Finding]]:
    """strings.yaml through the hardened YAML loader, each phrase's placeholders checked: ({}, findings) when
    it cannot be read. A placeholder is a known name, never a format (``{turn:>9}``), an index or an attribute."""
    try:
        data, where = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        return {}, [Finding(Position(rel, exc.line, exc.col), exc.rule, exc.message, exc.hint)]
    if not isinstance(data, dict):
        return {}, [Finding(Position(rel, 1, 1), "book", "strings.yaml must map each language to its labels",
                            "write `en:` and `fr:` at the top, each with its labels")]
    findings: list[Finding] = []

    def walk(value, path: tuple) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, path + (i,))
        elif isinstance(value, str):
            for m in _ANY_PLACEHOLDER.finditer(value):
                good = _GOOD_PLACEHOLDER.fullmatch(m.group(0))
                name = good and (good.group(1) or good.group(2))
                if good and (not name or name in PLACEHOLDERS):
                    continue
                line, col = where.at(path)
                findings.append(Finding(Position(rel, line, col), "book",
                                        f"`{'.'.join(map(str, path))}`: `{m.group(0)}` is not a placeholder forge fills",
                                        "placeholders are names only ({player}, {card}, {n|card|cards}, {kw:wound}); "
                                        "known names: " + ", ".join(sorted(PLACEHOLDERS))))

    walk(data, ())
    return data, findings


def read_source(project: Project, path: Path, rel: str | None = None) -> str:
    """A template, strings or rulings file as text, read through ``forge.core.safeio``; BookIOError otherwise."""
    rel = rel or project.rel(path)
    try:
        return safeio.read_text(path, project.root)
    except safeio.UnsafeInput as exc:
        raise BookIOError(f"{rel}: [{exc.rule}] {exc.message}" + (f"\n    hint: {exc.hint}" if exc.hint else "")) from None
    except UnicodeDecodeError:
        raise BookIOError(f"{rel}: cannot read (the file is not UTF-8; save it as UTF-8)") from None


def check_sources(project: Project, kinds: tuple[str, ...], langs: tuple[str, ...]) -> None:
    """Every file the asked books need exists and reads as UTF-8; raises BookIOError naming the first that doesn't."""
    names = ["book.css"] + [f"{k}.{lang}.md" for k in kinds for lang in langs]
    for name in names:
        path = project.source(name)
        if path is None:
            raise BookIOError(f"{BOOKS_DIR / name}: not found")
        read_source(project, path)


def _palette(root: Path) -> Palette:
    """The icon colours of the card template, so the books' icons match the cards'."""
    try:
        tpl = load_template(root)
        return Palette(**{k: tpl.color(k) for k in ("ink", "gold", "soul", "soul_light", "soul_dark", "neutral")})
    except Exception:  # a broken card template is the card renderer's finding, not ours
        return Palette()


# -- one book in one language ------------------------------------------------------------------
@dataclass
class Composed:
    """A book's HTML, ready for WeasyPrint, with what was found on the way."""

    kind: str
    lang: str
    html: str = ""
    tail_html: Callable[[int], str] | None = None
    title: str = ""
    policy: UrlPolicy | None = None
    findings: list[Finding] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    context: dict = field(default_factory=dict)  # what the layout was given (the web edition lays it out too)

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


class _LayoutLoader(jinja2.BaseLoader):
    """forge's own layouts, read from its package (``forge/books/layout/``): never a project's file."""

    def get_source(self, environment, template):
        path = LAYOUT_DIR / template
        if "/.." in f"/{template}" or not path.is_file():
            raise jinja2.TemplateNotFound(template)
        return safeio.read_text(path, LAYOUT_DIR), str(path), lambda: False


class _CompiledLayouts(jinja2.BytecodeCache):
    """forge's layouts compiled once, kept in memory and on disk: each book's environment (its own, so no state
    of one book's rendering reaches another) loads their code from here instead of compiling the same files
    again, which was a third of composing the four books; a new process (each `forge check`, `forge build`)
    loads what an earlier one compiled, since compiling them is a tenth of the books check.

    On disk the code is a record sealed with this machine's key (``forge.core.seal``), next to that key
    outside any project: a record this machine did not write is no record, and its code is never loaded.
    Jinja keys each entry by the template's name and the checksum of its source, so a changed file is
    compiled anew; the record also names Jinja's and Python's versions. A record that cannot be read or
    written is no loss: the layouts are compiled."""

    #: The largest record read (the layouts' code is ~300 KB).
    MAX_BYTES = 8 << 20

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}
        self.read = False

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if not self.read:
            self.read = True
            self.code = {**self._stored(), **self.code}
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()
        self._store()

    @staticmethod
    def path() -> Path:
        return seal.key_path().parent / "layouts.json"

    def record(self):
        return SealedRecord(self.path(), "compiled layouts", self._version(), limit=self.MAX_BYTES)

    @staticmethod
    def _version() -> str:
        return f"jinja2 {jinja2.__version__}, python {sys.version}"

    def _stored(self) -> dict[str, bytes]:
        record = self.record().load()  # a record of other Jinja or Python versions is no record
        if record is None or not isinstance(record.get("code"), dict):
            return {}
        try:
            return {key: base64.b64decode(code, validate=True) for key, code in record["code"].items()}
        except (TypeError, ValueError):
            return {}

    def _store(self) -> None:
        code = {key: base64.b64encode(data).decode("ascii") for key, data in sorted(self.code.items())}
        # unsaved in a read-only cache, or by a command whose writes are confined to its output folder
        self.record().save({"code": code}, quiet=True)


_COMPILED_LAYOUTS = _CompiledLayouts()


def layout_environment(keep_trailing_newline: bool = True) -> jinja2.Environment:
    """The autoescaped environment of forge's layouts (the book's page and macros; the web page without
    its last newline, as it always was written)."""
    return sandbox.environment(_LayoutLoader(), undefined=jinja2.StrictUndefined, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=keep_trailing_newline,
                               bytecode_cache=_COMPILED_LAYOUTS)


class Book:
    """What one book in one language prints for each directive, for one project."""

    def __init__(self, project: Project, kind: str, lang: str):
        self.project = project
        self.kind = kind
        self.lang = lang
        other = next((b for l, b in project.books.items() if l != lang), project.books[lang])
        self.L = content.Language(lang, project.db, project.books[lang], other)
        self.icons = IconSet(tuple((f.id, f.color, f.icon) for f in project.db.factions), project.palette)
        self.s = _strings(project.strings, lang)
        self.findings: list[Finding] = []
        self.cards = project.db.by_id()
        self.env = layout_environment()
        self.macros = None
        self.faq_seen: set[int] = set()
        self.meta: dict = {}
        self.at: tuple[int, int] = (0, 0)  # the line and column of the directive being printed
        self.blocks_printed: dict[str, int] = {}
        self._example: example.Example | None = None
        self._example_failed = False
        # Kept by card object (the database keeps each alive, so its id is not reused): the reference lists a
        # card under every entry it shows, and computing its constructs and its view again was a tenth of it
        self._constructs: dict[int, set[str]] = {}
        self._views: dict[tuple[int, str | None], dict] = {}

    def constructs(self, card: Card) -> set[str]:
        """``content.card_constructs(card)``, computed once per card."""
        if id(card) not in self._constructs:
            self._constructs[id(card)] = content.card_constructs(card)
        return self._constructs[id(card)]

    @functools.cached_property
    def counts(self) -> content.Counts:
        """``content.counts`` of the database, which the labels' ``{n:KEY}`` quote again and again."""
        return content.counts(self.project.db)

    def users(self, key: str) -> list[Card]:
        """``content.cards_using(db, key)``: the cards that show the construct ``key``, in database order."""
        return [c for c in self.project.db.cards if key in self.constructs(c)]

    # -- findings ----------------------------------------------------------------------
    def problem(self, message: str, hint: str = "", severity: str = "error", rule: str = "book",
                where: tuple[str, int] | None = None) -> None:
        """A finding at ``where`` (file, line), else at the directive being printed."""
        if where is None:
            file, (line, col) = self.source_rel, self.at
        else:
            (file, line), col = where, 1 if where[1] else 0
        self.findings.append(Finding(Position(file, line, col), rule, message, hint, severity))

    @property
    def source_rel(self) -> str:
        return (BOOKS_DIR / f"{self.kind}.{self.lang}.md").as_posix()

    def block_at(self, block: Container) -> tuple[str, int]:
        """Where a ``::: name args`` block opens in the prose file."""
        return self.source_rel, block.line

    # -- the resolver the prose renderer calls -------------------------------------------
    def directive(self, d: Directive) -> str:
        """What a directive prints, as HTML; a problem at its line when its ids or keys are unknown."""
        self.at = (d.line, d.col)
        return str(getattr(self, "d_" + d.name)(*d.args))

    def icon_at(self, name: str, line: int, col: int) -> str:
        self.at = (line, col)
        return self.markup_icon(name)

    def slug(self, heading_html: str) -> str:
        return slugify(heading_html)

    def phrase(self, key: str, **values) -> Markup:
        """A strings.yaml phrase, escaped, its ``{name}`` placeholders filled with ``values`` (HTML already)."""
        template = self.s.get(key, "") if isinstance(key, str) else key
        return self.fill(str(template), **values)

    def fill(self, template: str, **values) -> Markup:
        return Markup(Phrasebook(self.lang, {}, "strings.yaml").fill(str(self.words(template)), None, **values))

    def macro(self, name: str) -> Callable:
        if self.macros is None:
            self.macros = self.env.get_template("macros.html.j2").make_module(self.helpers())
        return getattr(self.macros, name)

    def render_macro(self, name: str, *args, **kwargs) -> Markup:
        """A macro's HTML on one line (the web edition's rewriter reads it line by line)."""
        out = str(self.macro(name)(*args, **kwargs))
        return Markup(" ".join(line.strip() for line in out.splitlines() if line.strip()))

    def helpers(self) -> dict:
        """What forge's layouts call or read (they are forge's files; the prose never sees these)."""
        return {
            "lang": self.lang, "other_lang": self.L.other.lang, "s": self.s, "author": self.s.get("author", ""),
            "game": self.s.get("game", "Rift Commanders"), "n": self.counts,
            "faction": self.faction, "faction_title": self.faction_title, "icon": self.icon,
            "names": self.names, "trap_kind": self.L.trap_kind, "count": self.count, "plural": self.plural,
            "quick_reference": self.quick_reference, "box_contents": self.box_contents,
        }

    # -- directives (forge/prose/directives.py lists them; templates/books/README.md documents them) --
    def d_card(self, card_id: str) -> Markup:
        return self.card(card_id)

    def d_kw(self, key: str) -> Markup:
        return self.kw(key)

    def d_type(self, key: str) -> str:
        return self._label("types", key, self.L.type_word)

    def d_faction(self, fid: str) -> Markup:
        return self.faction(fid)

    def d_step(self, key: str) -> str:
        return html.escape(self.step(key), quote=False)

    def d_frame(self, key: str) -> str:
        return self._label("frames", key, self.L.frame_title)

    def d_trap_kind(self, kind: str) -> str:
        return self._label("trap_kinds", kind, self.L.trap_kind)

    def _label(self, table: str, key: str, get: Callable[[str], str]) -> str:
        try:
            return html.escape(get(key), quote=False)
        except PhraseError:
            keys = ", ".join(sorted(self.L.book.section(table)))
            self.problem(f"no `{table}.{key}` in locales/{self.lang}.yaml", f"the keys: {keys}")
            return html.escape(key, quote=False)

    def d_trigger(self, event: str, actor: str, lower: str | None = None) -> Markup:
        return self.trigger(event, actor, capital=lower is None)

    def d_effect(self, card_id: str) -> Markup:
        return self.effect_text(card_id)

    def numbers(self) -> dict[str, int]:
        """Every number prose may print by name: the counts of the cards and the engine, and a few derived."""
        n = self.counts
        out = {f.name: getattr(n, f.name) for f in fields(n) if isinstance(getattr(n, f.name), int)}
        souls = self.soul_cards()
        out.update(cards=len(self.project.db.cards), other_factions=n.factions - 1,
                   recruit_soul_copies=souls["recruit_copies"])
        return out

    def number(self, name: str) -> int:
        numbers = self.numbers()
        if name not in numbers:
            self.problem(f"no number `{name}`", "the numbers: " + ", ".join(sorted(numbers)))
            return 0
        return numbers[name]

    def d_n(self, name: str) -> str:
        return str(self.number(name))

    def d_count(self, name: str, noun: str) -> str:
        return html.escape(self.count(self.number(name), noun), quote=False)

    def d_plural(self, name: str, noun: str) -> str:
        return html.escape(self.plural(self.number(name), noun), quote=False)

    def d_spell(self, name: str, capital: str | None = None) -> str:
        return html.escape(self.spell(self.number(name), capital is not None), quote=False)

    def d_traps(self, kind: str, event: str | None = None) -> Markup:
        return self.names([c.id for c in self.traps(kind, event)])

    def d_souls(self) -> Markup:
        """Every source of soul essence, grouped and named (strings.yaml ``souls:``), none left out."""
        souls, phrases = self.soul_cards(), self.s.get("souls") or {}
        parts = []
        for group, cards in (("starter", souls["starter"]), ("starter_other", souls["starter_other"]),
                             ("recruit", souls["recruit"]), ("other", souls["other"])):
            if cards:
                parts.append(self.fill(str(self.words(phrases.get(group, "{card}"))), card=self.names([c.id for c in cards]),
                                       count=self.count(sum(c.copies for c in cards), "recruitment_card")))
        return self.join(parts)

    def d_ruling(self, number: str) -> Markup:
        """A clarification's visible mark: it is a ruling of docs/rulings.md, not a rule of the rulebook."""
        rulings = self.project.rulings
        if not number.isdigit() or int(number) not in rulings:
            self.problem(f"`{{ruling:{number}}}`: no ruling with this number in {self.project.rulings_file}",
                         "write the number of the ruling (docs/rulings.md) the clarification comes from")
        label = self.fill(str(self.s.get("clarification", "Clarification, ruling {n}")), n=int(number) if number.isdigit() else 0)
        return Markup(f'<span class="clarification">{label}</span>')

    def d_game(self) -> str:
        return html.escape(str(self.s.get("game", "")), quote=False)

    def d_author(self) -> str:
        return html.escape(str(self.s.get("author", "")), quote=False)

    def d_starter_list(self) -> Markup:
        n = self.counts
        more = self.phrase("starter_more", count=html.escape(self.count(n.starter_creatures, "starter_creature")))
        # a recipe of unbreakable names (5 × Lost Soul…): its paragraph is set ragged right (book.css), as a
        # justified line there gaped
        return Markup('<span class="recipe">') + self.starter_list(more) + Markup("</span>")

    def d_threshold_example(self) -> Markup:
        te = self.threshold_example()
        if te is None:
            return Markup("")
        return self.phrase("threshold_example", quote=te["line"], card=self.card(te["card"].id),
                           faction=self.faction(te["faction"]))

    def d_threshold(self, form: str) -> Markup:
        te = self.threshold_example()
        if te is None:
            return self.phrase(f"threshold_{form}_none")
        shown = self.icon(te["faction"]) if form == "icon" else self.faction(te["faction"])
        return self.phrase(f"threshold_{form}", n=te["n"], **{"icon" if form == "icon" else "faction": shown})

    def d_components(self) -> Markup:
        if self.blocks_printed.get("components"):
            self.problem("`{components}` is printed twice in this book", "print it once")
            return Markup("")
        self.blocks_printed["components"] = 1
        return self.render_macro("components", extras.components_view(self))

    def d_block(self, name: str) -> Markup:
        printers = {"factions": self.factions_table, "starter": self.starter_table, "box_contents": self.box_contents,
                    "setup": self.setup_table, "anatomy": self.anatomy, "traps": self.traps_table,
                    "rites": self.rites_table, "worked_example": self.worked_example, "glossary": self.glossary,
                    "card_list": self.card_list, "art_credits": self.art_credits,
                    "allegiance_example": self.allegiance_block}
        if name not in printers:
            self.problem(f"no generated block `{name}`", "the blocks: " + ", ".join(sorted(printers)))
            return Markup("")
        self.blocks_printed[name] = self.blocks_printed.get(name, 0) + 1
        if self.blocks_printed[name] > MAX_BLOCK_REPEAT:  # each draws cards: a thousand would hang the build
            self.problem(f"`{{block:{name}}}` is printed more than {MAX_BLOCK_REPEAT} times in this book",
                         "print each generated block once")
            return Markup("")
        return printers[name]()

    def allegiance_block(self) -> Markup:
        """The rulebook's example of a card that needs two allegiances, in a box; nothing when no card does."""
        ae = self.allegiance_example()
        if ae is None:
            return Markup("")
        words = self.s.get("allegiance_example") or {}
        glue = Markup(f" {html.escape(str(self.s.get('and', 'and')), quote=False)} ")
        icons = glue.join(self.fill(str(words.get("icon", "")), n=k, icon=self.icon(f)) for f, k in ae.allegiance.items())
        needs = glue.join(self.fill(str(words.get("need", "")), n=k, faction=self.faction(f))
                          for f, k in ae.allegiance.items())
        text = self.fill(str(words.get("text", "")), card=self.card(ae.id), icons=icons,
                         only=html.escape(self.play_only_if(ae), quote=False), needs=needs)
        label = html.escape(str(words.get("label", "")), quote=False)
        return Markup(f'<div class="example"><p><strong>{label}</strong> {text}</p></div>')

    # -- numbers ---------------------------------------------------------------------------
    def plural(self, n: int, noun: str) -> str:
        """The form of ``noun`` (a key of strings.yaml's ``nouns:``) that ``n`` takes in this language's plural
        rules: "1 physical card", "2 physical cards"; in French "0 carte", "1 carte", "2 cartes"."""
        forms = (self.s.get("nouns") or {}).get(noun)
        if not isinstance(forms, dict) or "one" not in forms or "other" not in forms:
            self.problem(f"strings.yaml has no noun `{noun}` with `one:` and `other:` forms in `{self.lang}`",
                         f"add `nouns: {{{noun}: {{one: …, other: …}}}}` under `{self.lang}:`")
            return noun
        return str(forms[plural_category(self.lang, int(n))])

    def count(self, n: int, noun: str) -> str:
        """A number and its noun, agreeing and kept on one line: "5\u00a0cards"."""
        return f"{n}\u00a0{self.plural(n, noun)}"

    def spell(self, n: int, capital: bool = False) -> str:
        """A number in words ("four", « Quatre » with ``capital``), for a sentence that starts with it;
        strings.yaml's ``numbers:`` lists the words, and a larger number stays in digits."""
        words = self.s.get("numbers") or []
        text = str(words[n]) if isinstance(n, int) and 0 <= n < len(words) else str(n)
        return text[:1].upper() + text[1:] if capital else text

    def trigger(self, event: str, actor: str = "you", capital: bool = True) -> Markup:
        """A trigger's words as the cards print them: "Each time a creature of yours is destroyed"
        (``capital=False`` inside a sentence: "each time…")."""
        try:
            text = self.L.book.frame("trigger", event=self.L.book.event(event, actor), effect="")
        except PhraseError:
            self.problem(f"no event `{event}` for `{actor}` in locales/{self.lang}.yaml",
                         "events: summon, cast, activate, play_soul, buy, destroy, wound, allegiance")
            return Markup(html.escape(event))
        text = text.rstrip().rstrip(":").rstrip("\u00a0 ")
        return self.markup_html(text if capital else text[:1].lower() + text[1:])

    def effect_text(self, card_id: str, index: int = 0) -> Markup:
        """The words one of a card's played effect lines prints, without its frame or final stop:
        "Destroy that creature", for prose that quotes a card."""
        card = self.find(card_id)
        if card is None or not 0 <= index < len(card.effects):
            if card is not None:
                self.problem(f"`{card_id}` has no effect line {index}")
            return Markup("")
        return self.markup_html(self.L.book.line_text(card.effects[index]).rstrip("."))

    def step(self, key: str) -> str:
        """One of the six steps (the engine's ``PLAY_STEPS``) as the locale titles it: "Opponent's window";
        the rulebook's list and the back cover both print it, so they cannot disagree."""
        try:
            return self.L.book.label("steps", key)
        except PhraseError:
            self.problem(f"no step `{key}` in locales/{self.lang}.yaml", f"the steps: {', '.join(PLAY_STEPS)}")
            return key

    def play_only_if(self, card: Card) -> str:
        """How a card becomes playable, by its type: "it can only be cast", « cette créature ne s'invoque que »…"""
        phrases = self.s.get("play_only_if") or {}
        return str(phrases.get(getattr(card, "type", ""), phrases.get("card", "")))

    # -- names -----------------------------------------------------------------------------
    def find(self, card_id: str) -> Card | None:
        card = self.cards.get(card_id)
        if card is None:
            self.problem(f"no card has the id `{card_id}`",
                         "use the id of a card in cards/*.yaml; the book prints its name from there")
        return card

    def card(self, card_id: str) -> Markup:
        """A card's name in this language, by id."""
        card = self.find(card_id)
        if card is None:
            return Markup(f'<span class="card missing">{html.escape(card_id)}</span>')
        return Markup(f'<span class="card">{html.escape(self.L.name(card), quote=False)}</span>')

    def card_names(self, items) -> Markup:
        """Cards (ids or cards) as names joined with commas and "and"."""
        out = []
        for item in items:
            out.append(self.card(item) if isinstance(item, str) else self.card(item.id))
        return self.join(out)

    names = card_names

    def join(self, items) -> Markup:
        items = [str(i) for i in items]
        if len(items) <= 1:
            return Markup("".join(items))
        glue = html.escape(str(self.s.get("and", "and")), quote=False)
        return Markup(", ".join(items[:-1]) + f" {glue} " + items[-1])

    def kw(self, key: str) -> Markup:
        """A keyword's name in this language (locales/<lang>.yaml)."""
        try:
            return Markup(f'<span class="kw">{html.escape(self.L.keyword(key), quote=False)}</span>')
        except PhraseError:
            self.problem(f"no keyword `{key}` in locales/{self.lang}.yaml",
                         "use a key of the `keywords:` table, e.g. {kw:wound}")
            return Markup(f'<span class="kw missing">{html.escape(key)}</span>')

    def faction(self, fid: str) -> Markup:
        """A faction's colour word, with its icon."""
        try:
            word = self.L.faction_word(fid)
        except PhraseError:
            self.problem(f"no faction `{fid}` in locales/{self.lang}.yaml", "use red, white, black or blue")
            return Markup(html.escape(fid))
        return Markup(f'{self.icon(fid)}\u00a0{html.escape(word, quote=False)}')

    def faction_title(self, fid: str) -> Markup:
        return Markup(html.escape(self.L.faction_title(fid), quote=False))

    def markup_icon(self, name: str) -> str:
        """A ``[[name]]`` of the prose (the converter's, after Jinja), reported at its line when unknown."""
        if self.icons.uri(name) is None:
            self.problem(f"no icon `{name}`", "icons: the factions' ids, soul, activate, demise, trap")
        return self.icons.img(name)

    def icon(self, name: str, css: str = "icon") -> Markup:
        if self.icons.uri(name) is None:
            self.problem(f"no icon `{name}`", "icons: red, white, black, blue, soul, activate, demise, trap")
        return Markup(self.icons.img(name, css=css))

    def words(self, text: str) -> str:
        """A label of strings.yaml with its ``{kw:KEY}`` and ``{type:KEY}`` names from the locale and its
        ``{n:KEY}`` numbers from the cards and the engine (``{n:hand}``: 5)."""
        def name(m: re.Match) -> str:
            if m.group(1) == "n":
                value = getattr(self.counts, m.group(2), None)
                if not isinstance(value, int):
                    self.problem(f"strings.yaml: no number `{m.group(2)}`",
                                 where=((BOOKS_DIR / "strings.yaml").as_posix(), 0))
                    return m.group(2)
                return str(value)
            table = "keywords" if m.group(1) == "kw" else "types"
            try:
                word = html.escape(self.L.book.label(table, m.group(2)), quote=False)
                return f'<span class="kw-name">{word}</span>' if table == "keywords" else word
            except PhraseError:
                self.problem(f"strings.yaml: no `{table}.{m.group(2)}` in locales/{self.lang}.yaml",
                             where=((BOOKS_DIR / "strings.yaml").as_posix(), 0))
                return m.group(2)

        return Markup(_NAME_REF.sub(name, html.escape(str(text), quote=False)))

    # -- card text -----------------------------------------------------------------------
    def markup_html(self, line: str, strong: str = "kw") -> Markup:
        """One line of card markup as HTML: keywords emphasised, icons drawn."""
        out = []
        for span in parse_markup(line):
            if span.kind == "keyword":
                out.append(f'<b class="{strong}">{html.escape(span.value, quote=False)}</b>')
            elif span.kind == "icon":
                out.append(self.icons.img(span.value))
            else:
                out.append(html.escape(span.value, quote=False))
        return Markup("".join(out))

    def card_text_html(self, card: Card, highlight: str | None = None) -> list[Markup]:
        """A card's printed lines as HTML; lines showing ``highlight`` are marked."""
        lines = self.L.text(card)
        tags = content.printed_tags(card)
        out = []
        for i, line in enumerate(lines):
            marked = highlight and i < len(tags) and len(tags) == len(lines) and highlight in tags[i]
            body = self.markup_html(line)
            out.append(Markup(f'<span class="line hl">{body}</span>' if marked else f'<span class="line">{body}</span>'))
        return out

    def card_view(self, card: Card, highlight: str | None = None) -> dict:
        """Everything a template shows of a card, in this language (made once per card and highlight: the
        immutable sandbox lets no template change it)."""
        key = (id(card), highlight)
        if key not in self._views:
            self._views[key] = self._card_view(card, highlight)
        return self._views[key]

    def _card_view(self, card: Card, highlight: str | None) -> dict:
        return {
            "id": card.id, "card": card, "name": self.L.name(card), "other_name": self.L.other_name(card),
            "type_line": self.L.book.type_line(card), "cost": card.cost, "copies": card.copies,
            "box": self.project.db.box_count(card), "faction": card.faction,
            "allegiance": Markup("".join(self.icons.img(f) for f, n in card.allegiance.items() for _ in range(n))),
            "allegiance_pairs": [(f, n) for f, n in card.allegiance.items()],
            "lines": self.card_text_html(card, highlight),
            "flavor": card.flavor.get(self.lang, ""),
        }

    # -- lists ---------------------------------------------------------------------------
    def traps(self, kind: str | None = None, event: str | None = None) -> list[Card]:
        """The recruitment traps, by kind then cost, optionally of one kind and event."""
        out = [c for c in self.project.db.cards if c.type == "trap" and c.trap]
        if kind is not None:
            if kind not in TRAP_KINDS:
                self.problem(f"no trap kind `{kind}`", "kinds: " + ", ".join(TRAP_KINDS))
            out = [c for c in out if c.trap.kind == kind]
        if event is not None:
            out = [c for c in out if c.trap.event == event]
        return sorted(out, key=lambda c: (TRAP_KINDS.index(c.trap.kind) if c.trap.kind in TRAP_KINDS else 9,
                                          c.cost or 0, self.L.name(c)))

    def rite_of(self, fid: str) -> Card | None:
        return next((c for c in self.project.db.rites() if c.faction == fid), None)

    def soul_cards(self) -> dict:
        """Every card that can give soul essence (a Soul icon on any of its lines, played or activated), by
        where a player meets it: the starter Soul cards, the other starter cards, the recruitment cards."""
        sources = self.users("soul")
        starters = [c for c in sources if c.set == "starter" and c.type == "soul"]
        others = [c for c in sources if c.set == "starter" and c.type != "soul"]
        faction = [c for c in sources if c.set == "recruit"]
        rest = [c for c in sources if c.set not in ("starter", "recruit")]  # a Rite, a card of a new set
        return {"starter": starters, "starter_other": others, "recruit": faction, "other": rest,
                "recruit_copies": sum(c.copies for c in faction)}

    def threshold_example(self) -> dict | None:
        """A real conditional line, for the rulebook's "3 [Black]: Poison 2" example."""
        for card in self.project.db.cards:
            for line in [ln for _, ln in card.all_lines()]:
                if line.threshold and not line.override:
                    return {"card": card, "n": line.threshold.n, "faction": line.threshold.faction,
                            "line": self.markup_html(self.L.book.line_text(line))}
        return None

    def allegiance_example(self) -> Card | None:
        """A card that needs two allegiances, the one asking least, for the rulebook's example."""
        two = [c for c in self.project.db.cards if len(c.allegiance) >= 2]
        return min(two, key=lambda c: (sum(c.allegiance.values()), c.cost or 0)) if two else None

    # -- tables (macros in templates/books/macros.html.j2) ------------------------------
    def factions_table(self) -> Markup:
        rows = []
        for f in self.project.db.factions:
            starters = [c for c in self.project.db.of_set("starter") if c.type == "creature" and c.faction == f.id]
            rows.append({"id": f.id, "icon": Markup(self.icons.img(f.id, css="medal")), "title": f.name.get(self.lang, f.id),
                         "word": self.L.faction_word(f.id), "color": f.color,
                         "identity": f.identity.get(self.lang, ""), "starters": self.names([c.id for c in starters]),
                         "recruit": sum(c.copies for c in self.project.db.of_set("recruit") if c.faction == f.id)})
        return self.render_macro("factions_table", rows)

    def starter_list(self, *more) -> Markup:
        """"5 × Lost Soul, 1 × Essence Collector and 2 × Volatile Essence" from the starter set; ``more``
        items join the same list, so that one "and" ends it ("…, 2 × Volatile Essence and the 2 starter creatures")."""
        souls = [c for c in self.project.db.of_set("starter") if not c.factions]
        items = [Markup(f"{c.copies}\u00a0×\u00a0") + self.card(c.id) for c in souls]
        return self.join(items + [Markup.escape(m) for m in more])

    def starter_table(self) -> Markup:
        db = self.project.db
        neutral = [self.card_view(c) for c in db.of_set("starter") if not c.factions]
        creatures = [(f.id, [self.card_view(c) for c in db.of_set("starter")
                             if c.type == "creature" and c.faction == f.id]) for f in db.factions]
        return self.render_macro("starter_table", neutral, creatures)

    def traps_table(self) -> Markup:
        """The traps, one row group per kind (a group stays on one page; the table may turn between groups)."""
        traps = self.traps()
        groups = [[self.card_view(c) for c in traps if c.trap.kind == kind] for kind in TRAP_KINDS]
        return self.render_macro("traps_table", [g for g in groups if g])

    def rites_table(self) -> Markup:
        return self.render_macro("rites_table", [self.card_view(c) for c in self.project.db.rites()])

    def box_contents(self) -> Markup:
        return self.render_macro("box_contents", self.counts)

    def art_credits(self) -> Markup:
        """Who made each card's picture, in collector-number order, read from the cards' ``art:``.

        An icon composition credits each game-icons.net icon to its author; a picture, the
        artist its ``credit:`` names. Nothing here is typed by hand.
        """
        db = self.project.db
        rows = [{"number": f"{n}/{len(db.cards)}", "name": self.L.name(card), "parts": content.art_credit(card)}
                for n, card in enumerate(collector_order(db), start=1)]
        return self.render_macro("art_credits", [r for r in rows if r["parts"]], self.s.get("by", "by"))

    def glossary(self) -> Markup:
        """Every term of the termbase (locales/termbase.yaml) and every faction's name, in this language and the other.

        A project without a termbase gets the locales' keywords, types, trap kinds, factions and sets.
        """
        this, other = self.L.book, self.L.other
        sources = Sources(self.project.root)
        tb = termbase.load(sources)
        for f in (sources.findings + tb.findings)[:1]:  # `forge parity` lists them all
            self.problem(f"the glossary's termbase: {f.message}", f.hint, where=(f.position.file, f.position.line))
        rows = termbase.glossary_rows(tb, self.lang) if tb.terms else []
        for section in () if tb.terms else ("keywords", "types", "trap_kinds", "factions", "sets"):
            mine, theirs = this.section(section), other.section(section)
            for key, word in mine.items():
                rows.append({"term": str(word), "other": str(theirs.get(key, "")), "table": section})
        for f in self.project.db.factions:
            rows.append({"term": f.name.get(self.lang, f.id), "other": f.name.get(other.lang, f.id), "table": "faction_names"})
        seen: set[tuple[str, str]] = set()
        rows = [r for r in rows if (r["term"], r["other"]) not in seen and not seen.add((r["term"], r["other"]))]
        rows.sort(key=lambda r: content.sort_key(r["term"]))
        return self.render_macro("glossary", rows, other.lang)

    def card_list(self) -> Markup:
        """Every card, grouped: neutral starter cards, then each faction, then the Rites."""
        db = self.project.db
        groups = [{"title": self.s["neutral_cards"], "faction": None,
                   "cards": [self.card_view(c) for c in db.cards if not c.factions]}]
        for f in db.factions:
            cards = [c for c in db.cards if c.faction == f.id and c.type != "rite"]
            cards.sort(key=lambda c: (c.set != "starter", c.cost or 0, content.sort_key(self.L.name(c))))
            groups.append({"title": f.name.get(self.lang, f.id), "faction": f.id,
                           "cards": [self.card_view(c) for c in cards]})
        groups.append({"title": self.s["rites"], "faction": None, "cards": [self.card_view(c) for c in db.rites()]})
        return self.render_macro("card_list", [g for g in groups if g["cards"]])

    # -- the game the rulebook shows ---------------------------------------------------------------
    def example_game(self) -> example.Example | None:
        """The rulebook's game record, replayed once (None, and a finding, when it no longer replays)."""
        if self._example is None and not self._example_failed:
            self._example_failed = True  # reported once, whichever helper asks first
            path = table.record_path(self.project)
            if path is None:
                self.problem(f"no {BOOKS_DIR / example.EXAMPLE_FILE}: the setup diagram and the worked example "
                             "need the record of a game", "write one: `forge sync`")
                return None
            try:
                self._example = example.read(self.project.db, read_source(self.project, path))
                self._example_failed = False
            except example.ExampleError as exc:  # left out, never shown wrong: the rest of the book stands
                # an error: a book that would lose two sections fails the gate (issue 24 §2)
                self.problem(f"{self.project.rel(path)}: the worked example's game does not replay with these "
                             f"cards and rules ({exc}); the setup diagram and the example of play would be left out",
                             "play it again: `forge sync` (or `forge build`) finds a new game and flags its French "
                             "for review", severity=WARNING if self.project.draft else "error",
                             where=(self.project.rel(path), 0))
                return None
        return self._example

    def setup_table(self) -> Markup:
        """The table after setup, drawn from the example game's deal, with the setup steps as callouts."""
        game = self.example_game()
        return self.render_macro("setup_table", table.setup_view(self, game)) if game else Markup("")

    def worked_example(self) -> Markup:
        """The example game's last turns, told event by event from its replayed record."""
        game = self.example_game()
        return self.render_macro("worked_example", table.example_view(self, game)) if game else Markup("")

    def quick_reference(self) -> Markup:
        """The back cover's summary: the turn's phases, the six steps and what meets a Wound, in the
        engine's order (``TURN_PHASES``, ``WOUND_PROTECTION``), worded by strings.yaml's ``quick:``."""
        q = self.s.get("quick") or {}
        db = self.project.db
        # what depends on the cards is read from them: Rush exists, which traps wound you on your own turn
        summon = str(self.words(q["summon_rush" if any(c.keywords.rush for c in db.cards) else "summon"]))
        phases = [{"title": self.words(q["phases"][p]["title"]),
                   "text": Markup(str(self.words(q["phases"][p]["text"])).replace("{summon}", summon))}
                  for p in TURN_PHASES]
        wound = [self.words(q["wound"][k]) for k in WOUND_PROTECTION] + [self.words(q["wound"]["damage"])]
        wounding = [c.id for c in self.traps() if any(ln.verb in WOUND_VERBS for ln in c.effects)]
        own_turn = (Markup(str(self.words(q["own_turn"])).replace("{traps}", str(self.names(wounding))))
                    if wounding else "")
        glosses = q.get("steps") if isinstance(q.get("steps"), dict) else {}
        for key in glosses:
            if key not in PLAY_STEPS or "{step}" not in str(glosses[key]):
                self.problem(f"strings.yaml: `quick.steps.{key}` is not a step's `{{step}}` and its gloss",
                             f"the steps: {', '.join(PLAY_STEPS)}; write e.g. `{{step}} (traps)`",
                             where=((BOOKS_DIR / "strings.yaml").as_posix(), 0))
        steps = [Markup(str(self.words(str(glosses.get(k, "{step}")))).replace("{step}", html.escape(self.step(k), quote=False)))
                 for k in PLAY_STEPS]
        return self.render_macro("quick_reference", {
            "title": q["title"], "turn": q["turn"], "phases": phases, "steps_title": self.words(q["steps_title"]),
            "steps": steps, "wound_title": self.words(q["wound_title"]),
            "wound": wound, "own_turn": own_turn, "waiting": self.words(q["waiting"])})

    def anatomy(self) -> Markup:
        """The card anatomy figure: real cards, rendered, with numbered callouts and their legend."""
        chosen = choose_cards(self.project.db)
        card_w = ANATOMY_CARD_WIDTH.get(len(chosen), ANATOMY_CARD_WIDTH[2])
        card_h = card_w * ANATOMY_RATIO
        gutter = (ANATOMY_WIDTH / max(1, len(chosen)) - card_w) / 2
        figures, legend, number = [], [], 0
        for card, parts in chosen:
            try:
                fig = render_figure(card, parts, self.project.db, self.L.book, self.lang, self.project.root,
                                    self.project.books)
            except Exception as exc:  # a card the renderer cannot draw is reported, not fatal
                self.problem(f"cannot draw `{card.id}` for the card anatomy: {exc}", severity=WARNING)
                continue
            callouts = []
            for placed in place_callouts(fig.callouts, card_w, card_h, gutter):
                number += 1
                callouts.append({"n": number, "part": placed.part, "badge": placed.badge, "anchor": placed.anchor})
                label = self.s["anatomy"][placed.part]
                legend.append({"n": number, "part": placed.part, "label": self.words(label["label"]),
                               "text": self.words(label["text"])})
            uri = "data:image/jpeg;base64," + base64.b64encode(fig.image).decode("ascii")
            figures.append({"uri": uri, "name": self.L.name(card), "callouts": callouts})
        cell = {"width": round(card_w + 2 * gutter, 2), "height": round(card_h, 2), "card": round(card_w, 2),
                "gutter": round(gutter, 2)}
        return self.render_macro("anatomy", figures, legend, cell)


def _strings(strings: dict, lang: str) -> dict:
    """The labels of one language, falling back to English for a missing key."""
    base = dict(strings.get("en") or {})
    base.update(strings.get(lang) or {})
    return base


# -- block handlers: the reference's entries, traps, Rites and FAQ --------------------------------
def _block_args(block: Container) -> tuple[list[str], dict[str, str]]:
    """``::: entry wound example=flame-lash title="A title"`` -> (["wound"], {"example": …, "title": …})."""
    try:
        words = shlex.split(block.args)
    except ValueError:
        words = block.args.split()
    positional = [w for w in words if "=" not in w]
    named = dict(w.split("=", 1) for w in words if "=" in w)
    return positional, named


class ReferenceBlocks:
    """Collects the designer's ``:::`` blocks and renders the generated sections around them."""

    def __init__(self, book: Book):
        self.book = book
        self.entries: list[tuple[str, dict, str, tuple[str, int]]] = []
        self.clarifications: dict[str, dict[str, str]] = {"trap": {}, "rite": {}}
        self.faq: list[tuple[int, str]] = []

    def handlers(self) -> dict:
        return {"entry": self.entry, "keywords": self.keywords, "trap": self.clarify, "rite": self.clarify,
                "traps": self.traps, "rites": self.rites, "q": self.question, "faq": self.faq_section}

    # entries
    def entry(self, block: Container, inner: str) -> str:
        args, named = _block_args(block)
        key = args[0] if args else ""
        if key not in content.ALL_KEYS:
            self.book.problem(f"`::: entry {key}`: unknown keyword or construct",
                              "keys: " + ", ".join(content.ALL_KEYS), where=self.book.block_at(block))
            return ""
        self.entries.append((key, named, inner, self.book.block_at(block)))
        return ""

    def keywords(self, block: Container, inner: str) -> str:
        seen = {k for k, _, _, _ in self.entries}
        where = self.book.block_at(block)
        for key in content.ALL_KEYS:
            if key not in seen:
                self.book.problem(f"the reference has no entry for `{key}`",
                                  f"add `::: entry {key}` with its rules text to {self.book.source_rel}",
                                  severity=WARNING, where=where)
                self.entries.append((key, {}, "", where))
        views = [self.entry_view(key, named, body, at) for key, named, body, at in self.entries]
        return str(self.book.render_macro("entries", views)) + inner

    def entry_view(self, key: str, named: dict, body: str, where: tuple[str, int]) -> dict:
        book, L = self.book, self.book.L
        title = L.title(key) or named.get("title")
        if not title:
            title = key
            book.problem(f"the entry `{key}` needs a title", f'write `::: entry {key} title="…"`',
                         severity=WARNING, where=where)
        other = content.Language(L.other.lang, book.project.db, L.other, L.book).title(key)
        example = content.example_card(book.project.db, key, named.get("example"), book.users(key))
        if named.get("example") and (example is None or example.id != named["example"]):
            book.problem(f"the example `{named['example']}` of `{key}` is not a card that shows it",
                         "pick a card whose text uses the keyword, or remove example=", severity=WARNING,
                         where=where)
        users = sorted(book.users(key), key=lambda c: content.sort_key(L.name(c)))
        return {"key": key, "title": book.markup_html(title), "other": book.markup_html(other) if other else None,
                "body": Markup(body),
                "example": book.card_view(example, highlight=key) if example else None,
                "users": [book.card_view(c) for c in users],
                "copies": sum(book.project.db.box_count(c) for c in users)}

    # traps and Rites
    def clarify(self, block: Container, inner: str) -> str:
        args, named = _block_args(block)
        card = self.book.cards.get(args[0]) if args else None
        if card is None or card.type != block.name:
            self.book.problem(f"`::: {block.name} {' '.join(args)}`: no {block.name} has this id",
                              f"use the id of a {block.name} in cards/*.yaml", where=self.book.block_at(block))
            return ""
        self._reviewed(f"the clarifications of `{card.id}`", named.get("reviewed"), content.card_digest(card),
                       f"::: {block.name} {card.id}", self.book.block_at(block))
        self.clarifications[block.name][card.id] = inner
        return ""

    def _reviewed(self, what: str, stamp: str | None, digest: str, header: str, where: tuple[str, int]) -> None:
        """Warn when prose was written for another version of its card or ruling."""
        if stamp == digest:
            return
        self.book.problem(f"{what} were written for another version of it" if stamp else f"{what} are not marked as reviewed",
                          f"check them, then write `{header} reviewed={digest}`", severity=WARNING,
                          rule="stale", where=where)

    def _section(self, kind: str, cards: list[Card], inner: str, where: tuple[str, int]) -> str:
        views = []
        for card in cards:
            note = self.clarifications[kind].get(card.id)
            if note is None:
                self.book.problem(f"the {kind} `{card.id}` has no clarifications",
                                  f"add `::: {kind} {card.id}` to {self.book.source_rel}", severity=WARNING,
                                  where=where)
            views.append({**self.book.card_view(card), "note": Markup(note or "")})
        return str(self.book.render_macro("clarifications", kind, views)) + inner

    def traps(self, block: Container, inner: str) -> str:
        return self._section("trap", self.book.traps(), inner, self.book.block_at(block))

    def rites(self, block: Container, inner: str) -> str:
        return self._section("rite", self.book.project.db.rites(), inner, self.book.block_at(block))

    # FAQ
    def question(self, block: Container, inner: str) -> str:
        args, _ = _block_args(block)
        rulings = self.book.project.rulings
        try:
            number = int(args[0])
        except (IndexError, ValueError):
            number = -1
        if number not in rulings:
            self.book.problem(f"`::: q {' '.join(args)}`: no ruling with this number in {self.book.project.rulings_file}",
                              "write the number of the ruling the answer comes from", where=self.book.block_at(block))
        else:
            self._reviewed(f"the answer to ruling {number}", _block_args(block)[1].get("reviewed"),
                           rulings[number].digest, f"::: q {number}", self.book.block_at(block))
        self.book.faq_seen.add(number)
        self.faq.append((number, inner))
        return ""

    def faq_section(self, block: Container, inner: str) -> str:
        skip = set(self.book.meta.get("faq_skip") or [])
        for number in sorted(set(self.book.project.rulings) - self.book.faq_seen - skip):
            self.book.problem(f"ruling {number} of {self.book.project.rulings_file} has no FAQ answer",
                              f"add `::: q {number}` to {self.book.source_rel}, or list it in `faq_skip`",
                              severity=WARNING, where=self.book.block_at(block))
        items = []
        for i, (number, body) in enumerate(self.faq, 1):
            head, _, rest = body.partition("</p>")
            ruling = f' <span class="ruling-ref">({self.book.fill(str(self.book.s.get("ruling", "ruling {n}")), n=number)})</span>'
            end = rest.rfind("</p>")  # the ruling closes the answer's last paragraph
            answer = rest[:end] + ruling + rest[end:] if end >= 0 else rest + ruling
            items.append({"n": number, "i": i, "question": Markup(head.replace("<p>", "", 1)), "answer": Markup(answer)})
        return str(self.book.render_macro("faq", items)) + inner


# -- composing -----------------------------------------------------------------------------------
def _front_matter(text: str, rel: str) -> tuple[dict, str, Finding | None]:
    """The YAML between ``---`` lines at the top (hardened loader: no alias bombs, no tags) and the body,
    its front matter blanked so that lines keep their numbers."""
    head, body, unclosed = grammar.split_front_matter(text)
    if unclosed:
        return {}, body, Finding(Position(rel, 1, 1), "book", "the front matter (--- at the top) is never closed",
                                 "fix the block between the --- lines")
    if head is None or not head.strip():
        return {}, body, None
    try:
        meta, _ = yamlsrc.load(head)
    except yamlsrc.YamlError as exc:
        return {}, body, Finding(Position(rel, exc.line + 1 if exc.line else 1, exc.col), exc.rule,
                                 f"the front matter: {exc.message}", exc.hint or "fix the block between the --- lines")
    if not isinstance(meta, dict):
        return {}, body, Finding(Position(rel, 2, 1), "book", "the front matter must be a mapping",
                                 "write `title: …`, `subtitle: …` lines between the --- lines")
    return meta, body, None


class _Resolver:
    """What the prose renderer asks: directives and icons from the book, ``:::`` blocks from the reference's."""

    def __init__(self, book: Book, blocks: ReferenceBlocks):
        self.book, self.blocks = book, blocks
        self.directive, self.slug = book.directive, book.slug

    def icon(self, name: str, line: int, col: int) -> str:
        return self.book.icon_at(name, line, col)

    def container(self, c: Container, inner: str) -> str:
        handler = self.blocks.handlers().get(c.name)
        if handler is not None:
            return handler(c, inner)
        if c.name not in PLAIN_CONTAINERS:
            self.book.problem(f"no block `::: {c.name}`", "the blocks: " + ", ".join(
                sorted((*PLAIN_CONTAINERS, *self.blocks.handlers()))), where=self.book.block_at(c))
        return f'<div class="{html.escape(c.name)}">{inner}</div>'


def font_faces() -> str:
    """@font-face rules for the vendored fonts, so WeasyPrint embeds them (subset)."""
    faces = [("IM FELL English SC", "normal", "normal", "IMFellEnglishSC-Regular.ttf"),
             ("Lato", "normal", "normal", "Lato-Regular.ttf"), ("Lato", "bold", "normal", "Lato-Bold.ttf"),
             ("Lato", "normal", "italic", "Lato-Italic.ttf"), ("Lato", "bold", "italic", "Lato-BoldItalic.ttf"),
             ("Lato", "900", "normal", "Lato-Black.ttf")]
    return "\n".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                     f'src: url("{(FONTS_DIR / file).as_uri()}"); }}' for family, weight, style, file in faces)


def compose(project: Project, kind: str, lang: str) -> Composed:
    """The HTML of one book in one language, or the findings that stop it."""
    result = Composed(kind, lang)
    book = Book(project, kind, lang)
    name = f"{kind}.{lang}.md"
    path = project.source(name)
    if path is None:
        raise BookIOError(f"{BOOKS_DIR / name}: not found (the prose of the {kind} in `{lang}`)")
    source = read_source(project, path)
    rel = project.rel(path)
    result.sources.append(rel)
    result.findings += project.findings
    try:
        grammar.check_budget(source)
    except grammar.BudgetExceeded as exc:
        result.findings.append(Finding(Position(rel, 1, 1), "budget", str(exc),
                                       "split the prose or remove what no book needs"))
        return result
    meta, body, problem = _front_matter(source, rel)
    if problem:
        result.findings.append(problem)
        return result
    book.meta = meta
    parsed = grammar.parse(body)
    for p in parsed.problems:
        result.findings.append(Finding(Position(rel, p.line, p.col), "book", p.message, p.hint))
    if parsed.problems:
        return result
    try:
        blocks = ReferenceBlocks(book)
        main_html = render(parsed, _Resolver(book, blocks))
        document = book.env.get_template("book.html.j2")
        context = _page_context(book, meta, main_html)
        result.html = mark_whole(typeset(document.render(**context, part="main", fillers=0), lang))
        result.tail_html = lambda fillers: mark_whole(typeset(document.render(**context, part="tail", fillers=fillers), lang))
        result.title = context["title"]
        result.context = context
        result.policy = url_policy(project)
        _check_urls(book, result)
        left = leftover_syntax(re.sub(r"<style>.*?</style>|<[^>]+>", "", result.html, flags=re.DOTALL))
        if left:
            token = _LEFTOVER_TOKEN.search(left)
            book.problem(f"markup is left in the text: …{left}…", "close every ** and ::: of the prose",
                         where=_line_of(body, token.group(0) if token else left, rel))
    except PhraseError as exc:
        where = Position(exc.file, exc.line, exc.col) if exc.file else Position("locales")
        result.findings.append(Finding(where, exc.rule, exc.reason if exc.file else str(exc),
                                       exc.hint or "restore the phrase in the locale file"))
    except (*sandbox.TEMPLATE_ERRORS, KeyError, TypeError, ValueError, AttributeError) as exc:
        result.findings.append(layout_finding(exc, "book.html.j2"))
    result.findings += book.findings
    return result


def _line_of(body: str, needle: str, rel: str) -> tuple[str, int]:
    """The first line of the prose holding ``needle`` (0 when none does)."""
    for number, line in enumerate(body.split("\n"), start=1):
        if needle and needle in line:
            return rel, number
    return rel, 0


def layout_finding(exc: BaseException, name: str) -> Finding:
    """forge's own layout failed on this project's data (a label of the wrong type): a finding, not a traceback."""
    return Finding(Position((BOOKS_DIR / "strings.yaml").as_posix()), "book",
                   f"forge's layout `{name}` could not be filled: {type(exc).__name__}: {exc}",
                   "check the labels of strings.yaml against forge's own copy")


# -- what a book may load --------------------------------------------------------------------
#: The template files a URL of a composed book can come from, searched in this order for its line.
_URL_SOURCES = ("book.css", "strings.yaml")


def url_policy(project: Project) -> UrlPolicy:
    """A book reads files only from the project's templates/, forge's own templates and forge's assets."""
    return UrlPolicy.for_project(project.root, (project.root / "templates", BUILTIN_DIR), (FONTS_DIR.parent,))


def locate(project: Project, prose: str, needle: str, nth: int = 0) -> tuple[str, int]:
    """The template file and line where ``needle`` is written (its ``nth`` occurrence, else the last):
    the prose first, then the layout files."""
    found: list[tuple[str, int]] = []
    for name in (prose, *_URL_SOURCES):
        path = project.source(name)
        if path is None or not needle:
            continue
        try:
            lines = read_source(project, path).splitlines()
        except BookIOError:
            continue
        found += [(project.rel(path), number) for number, line in enumerate(lines, start=1)
                  if needle in line or needle in html.unescape(line)]
    if not found:
        return (BOOKS_DIR / prose).as_posix(), 0
    return found[min(nth, len(found) - 1)]


def url_finding(project: Project, prose: str, url: str, reason: str, nth: int = 0) -> Finding:
    file, line = locate(project, prose, url, nth)
    return Finding(Position(file, line, 1 if line else 0), "url", f"the URL `{url}` is refused: {reason}",
                   "a book may use only files under templates/ (relative URLs), `#anchors` and web links; "
                   "no attachments, no other files, nothing fetched from the network")


def _check_urls(book: Book, result: Composed) -> None:
    """Refuse, at its template line, every URL of the composed book that the policy does not allow."""
    base = book.project.root.resolve().as_uri() + "/"
    main = scan_html(result.html, base, result.policy)
    # The back cover repeats the layout's styles: what it adds is only what the main part lacks.
    tail = scan_html(result.tail_html(0), base, result.policy) if result.tail_html else []
    occurrences: dict[str, int] = {}
    for refusal in main + [r for r in tail if r not in main]:
        nth = occurrences[refusal.needle] = occurrences.get(refusal.needle, -1) + 1
        result.findings.append(url_finding(book.project, f"{book.kind}.{book.lang}.md",
                                           refusal.needle, refusal.reason, nth))


_HEADING = re.compile(r'<h([23]) id="([^"]+)"(?: data-bookmark="([^"]*)")?>(.*?)</h\1>', re.DOTALL)


def _contents(main_html: str, depth: int) -> list[dict]:
    """The sections (h2), each with its entries (h3) when ``depth`` is 3: id, title, children."""
    toc: list[dict] = []
    for m in _HEADING.finditer(main_html):
        level, ident, plain, title = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if level == 2:
            toc.append({"id": ident, "title": Markup(title), "children": []})
        elif depth >= 3 and toc:
            toc[-1]["children"].append({"id": ident, "title": Markup(plain if plain is not None else title)})
    return toc


def _page_context(book: Book, meta: dict, main_html: str) -> dict:
    """What the layout template needs around the prose: titles, contents, fonts, cover and back cover."""
    toc = _contents(main_html, int(meta.get("toc_depth", 2)))
    css_path = book.project.source("book.css")
    css = read_source(book.project, css_path) if css_path else ""
    if _STYLE_END.search(css):
        book.problem("book.css closes its <style> element: what follows would be markup, not style",
                     "remove `</style>` from book.css", where=(book.project.rel(css_path), 0))
        css = ""
    factions = [{"id": f.id, "icon": Markup(book.icons.img(f.id, css="medal")), "title": f.name.get(book.lang, f.id)}
                for f in book.project.db.factions]
    fan = []
    for card in cover_cards(book.project.db):
        try:
            image = render_card(card, book.project.db, book.L.book, book.lang, book.project.root, COVER_CARD_PX,
                                books=book.project.books)[0]
        except Exception:  # a card the renderer cannot draw just stays off the cover
            continue
        fan.append({"uri": "data:image/jpeg;base64," + base64.b64encode(image).decode("ascii"),
                    "name": book.L.name(card)})
    return {
        **book.helpers(),
        "title": meta.get("title", book.kind), "subtitle": meta.get("subtitle", ""),
        "running": meta.get("running", meta.get("title", "")), "tagline": meta.get("tagline", ""),
        "kind": book.kind, "body": Markup(main_html), "toc": toc, "css": Markup(font_faces() + "\n" + css),
        "factions": factions, "fan": fan, "extras": extras.extra_pages(book),
    }
