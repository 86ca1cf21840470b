"""Parse a prose file: front matter, CommonMark blocks, ``:::`` containers, directives and ``[[icons]]``.

The parser is markdown-it-py with raw HTML off (a ``<script>`` is text), no links, images
or code blocks, plus three rules of ours: nested ``::: name args`` … ``:::`` containers,
``{name:args}`` directives and ``[[name]]`` icons. A ``{`` that opens no known directive
(``{{``, ``{%``, ``{x:>9}``) is a problem at its line and column, never text that some
later stage might run. The budget is checked before markdown-it sees the text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .directives import DIRECTIVES

#: The largest prose file, its most lines and braces (the shipped ones: at most 45 KB, 500 lines, 700 directives).
MAX_PROSE_BYTES = 300_000
MAX_PROSE_LINES = 20_000
MAX_DIRECTIVES = 20_000
#: How deep ``:::`` containers may nest (the reference nests three).
MAX_CONTAINER_DEPTH = 8

_DIRECTIVE = re.compile(r"\{([a-z_]+)(?::([^{}\n]*))?\}")
_WORD = re.compile(r"[A-Za-z0-9_.-]+\Z")
_ICON = re.compile(r"\[\[([a-z_]+)\]\]")
_TEMPLATE = re.compile(r"\{[{%#]")


@dataclass(frozen=True)
class Directive:
    """``{name:args}`` at ``line``:``col`` of the file (1-based)."""

    name: str
    args: tuple[str, ...]
    line: int
    col: int
    raw: str


@dataclass(frozen=True)
class Problem:
    """Something the grammar refuses, at a line and column of the file."""

    line: int
    col: int
    message: str
    hint: str = ""


@dataclass
class Container:
    """A ``::: name args`` block: its name, its raw argument text, and the line it opens on."""

    name: str
    args: str
    line: int


@dataclass
class Parsed:
    """A prose file's tokens, its directives in order, and what the grammar refused."""

    tokens: list[Token]
    lines: list[str]
    directives: list[Directive] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class BudgetExceeded(Exception):
    """The prose is larger than the grammar reads: refused before parsing."""


# -- markdown-it with our rules --------------------------------------------------------------
def _container(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """``::: name args`` up to its matching ``:::`` (nesting counted), its inside parsed as blocks."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    first = state.src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]]
    if not first.startswith(":::"):
        return False
    rest = first[3:].strip()
    if silent:
        return True
    if not rest:
        token = state.push("container_stray", "", 0)
        token.map = [start, start + 1]
        state.line = start + 1
        return True
    depth, close = 1, None
    for number in range(start + 1, end):
        text = state.src[state.bMarks[number] + state.tShift[number]:state.eMarks[number]]
        if text.startswith(":::"):
            depth += 1 if text[3:].strip() else -1
            if depth == 0:
                close = number
                break
    stop = close if close is not None else end
    words = rest.split(None, 1)
    opened = state.push("container_open", "div", 1)
    opened.info, opened.meta = rest, {"name": words[0], "args": words[1] if len(words) > 1 else "",
                                      "closed": close is not None}
    opened.map = [start, stop + 1 if close is not None else stop]
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = "container", stop
    state.md.block.tokenize(state, start + 1, stop)
    state.parentType, state.lineMax = old_parent, old_max
    state.push("container_close", "div", -1)
    state.line = stop + 1 if close is not None else stop
    return True


def _brace(state: StateInline, silent: bool) -> bool:
    """A ``{directive}``, or a ``{`` that opens none: a ``bad_brace`` token (the caller reports it)."""
    if state.src[state.pos] != "{":
        return False
    m = _DIRECTIVE.match(state.src, state.pos)
    if m and m.group(1) in DIRECTIVES:
        if not silent:
            token = state.push("directive", "", 0)
            token.meta = {"name": m.group(1), "args": (m.group(2) or "").split(), "raw": m.group(0),
                          "offset": state.pos}
        state.pos = m.end()
        return True
    template = bool(_TEMPLATE.match(state.src, state.pos))
    end = state.src.find("}", state.pos)
    stop = end + 1 if end != -1 and end - state.pos < 60 and "\n" not in state.src[state.pos:end] else \
        state.pos + (2 if template else 1)
    if not silent:
        token = state.push("bad_brace", "", 0)
        token.meta = {"raw": state.src[state.pos:stop], "offset": state.pos, "template": template}
        token.content = state.src[state.pos:stop]
    state.pos = stop
    return True


def _icon(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[", state.pos):
        return False
    m = _ICON.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        token = state.push("icon", "", 0)
        token.meta = {"name": m.group(1), "raw": m.group(0), "offset": state.pos}
    state.pos = m.end()
    return True


def _markdown() -> MarkdownIt:
    md = MarkdownIt("zero", {"html": False, "linkify": False, "typographer": False, "maxNesting": 40})
    md.enable(["heading", "list", "emphasis", "escape", "entity", "newline"])
    md.block.ruler.before("paragraph", "container", _container,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.inline.ruler.push("directive", _brace)
    md.inline.ruler.push("icon", _icon)
    return md


_MD = _markdown()
#: The same grammar reading blocks only: i18n cuts its units from the block tokens and never reads their
#: inline children, whose parse was a third of cutting them.
_BLOCKS = _markdown()
_BLOCKS.core.ruler.disable(["inline", "text_join"])


# -- the file ------------------------------------------------------------------------------------
def check_budget(text: str) -> None:
    """Raise BudgetExceeded when the prose is bigger than any book needs."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_PROSE_BYTES:
        raise BudgetExceeded(f"the prose is {size:,} bytes; a book's prose may hold {MAX_PROSE_BYTES:,}")
    lines = text.count("\n") + 1
    if lines > MAX_PROSE_LINES:
        raise BudgetExceeded(f"the prose has {lines:,} lines; a book's prose may hold {MAX_PROSE_LINES:,}")
    braces = text.count("{")
    if braces > MAX_DIRECTIVES:
        raise BudgetExceeded(f"the prose has {braces:,} directives; a book's prose may hold {MAX_DIRECTIVES:,}")


def parse(body: str) -> Parsed:
    """The tokens of a prose body (front matter already blanked, so lines are the file's); checks the budget."""
    check_budget(body)
    tokens = _MD.parse(body)
    parsed = Parsed(tokens, body.split("\n"))
    depth = 0
    for token in tokens:
        if token.type == "container_open":
            depth += 1
            line = token.map[0] + 1
            if depth > MAX_CONTAINER_DEPTH:
                parsed.problems.append(Problem(line, 1, f"`:::` blocks nest {depth} deep; at most "
                                               f"{MAX_CONTAINER_DEPTH}", "close a block before opening another"))
            if not token.meta["closed"]:
                parsed.problems.append(Problem(line, 1, f"the block `::: {token.meta['name']}` is never closed",
                                               "close each `::: name` block with a line `:::`"))
        elif token.type == "container_close":
            depth -= 1
        elif token.type == "container_stray":
            parsed.problems.append(Problem(token.map[0] + 1, 1, "`:::` closes a block that was never opened",
                                           "remove it, or open the block with `::: name`"))
        elif token.type == "inline" and token.children:
            _inline_positions(parsed, token)
    return parsed


def _inline_positions(parsed: Parsed, token: Token) -> None:
    """Record each directive and refused brace of an inline token at its file line and column."""
    first = token.map[0] if token.map else 0
    for child in token.children or ():
        if child.type not in ("directive", "bad_brace", "icon"):
            continue
        offset = child.meta["offset"]
        line = first + token.content.count("\n", 0, offset)
        source = parsed.lines[line] if line < len(parsed.lines) else ""
        at = offset - (token.content.rfind("\n", 0, offset) + 1)  # in the line, less its stripped indent
        found = source.find(child.meta["raw"], at)
        col = (found if found != -1 else max(0, source.find(child.meta["raw"]))) + 1
        child.meta["line"], child.meta["col"] = line + 1, col
        if child.type == "bad_brace":
            parsed.problems.append(_refused(child.meta["raw"], child.meta["template"], line + 1, col))
        elif child.type == "directive":
            directive = Directive(child.meta["name"], tuple(child.meta["args"]), line + 1, col, child.meta["raw"])
            child.meta["directive"] = directive
            problem = check_directive(directive)
            if problem:
                parsed.problems.append(problem)
                child.meta["refused"] = True
            parsed.directives.append(directive)
    blocks = [c for c in token.children or () if c.type == "directive" and not c.meta.get("refused")
              and DIRECTIVES[c.meta["name"]].block]
    meaningful = [c for c in token.children or () if not (c.type in ("text", "softbreak") and not c.content.strip())]
    for child in blocks if len(meaningful) > 1 else ():
        child.meta["refused"] = True
        parsed.problems.append(Problem(child.meta["line"], child.meta["col"],
                                       f"`{child.meta['raw']}` is a table or figure: it stands alone in its paragraph",
                                       "put it on a line of its own, with a blank line before and after"))


def _refused(raw: str, template: bool, line: int, col: int) -> Problem:
    names = ", ".join(sorted(DIRECTIVES))
    if template:
        return Problem(line, col, f"`{raw}` is template code; book prose is Markdown with directives, never run",
                       f"write a directive instead, e.g. {{kw:wound}}; the directives: {names}")
    return Problem(line, col, f"`{raw}` is not a directive",
                   f"the directives: {names}; write `\\{{` for a literal brace")


def check_directive(d: Directive) -> Problem | None:
    """The directive's words against its signature: count, word shape, fixed flags."""
    sig = DIRECTIVES[d.name]
    low, high = len(sig.required), len(sig.required) + len(sig.optional)
    if not low <= len(d.args) <= high:
        want = f"{low}" if low == high else f"{low} to {high}"
        return Problem(d.line, d.col, f"`{d.raw}` takes {want} argument{'s' if high != 1 else ''}, not {len(d.args)}",
                       f"write {sig.usage(d.name)}, e.g. {sig.example}")
    for name, arg in zip(sig.required + sig.optional, d.args):
        if not _WORD.match(arg):
            return Problem(d.line, d.col, f"`{d.raw}`: `{arg}` is not an id or a key",
                           "arguments are ids and keys (letters, digits, `_`, `-`, `.`), never expressions")
        fixed = sig.allowed(name)
        if fixed and arg not in fixed:
            return Problem(d.line, d.col, f"`{d.raw}`: `{arg}` is not one of {', '.join(fixed)}",
                           f"write {sig.usage(d.name)}, e.g. {sig.example}")
    return None


# -- front matter --------------------------------------------------------------------------------
def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """(the YAML between ``---`` lines or None, the body with those lines blanked, the line of a problem).

    The problem line is 1 when the front matter is never closed (the body is then the whole text)."""
    if not text.startswith("---\n"):
        return None, text, 0
    end = text.find("\n---\n", 3)
    if end == -1:
        return None, text, 1
    head = text[4:end + 1]
    return head, "\n" * (head.count("\n") + 2) + text[end + 5:], 0


def block_tokens(body: str) -> list[Token]:
    """The block tokens of a prose body, their inline content unparsed (the caller checked the budget):
    i18n cuts its units from them."""
    return _BLOCKS.parse(body)


@lru_cache(maxsize=4096)
def directives_in(text: str) -> tuple[Directive, ...]:
    """The directives of a piece of prose (one translation unit), in order; lines are the unit's.

    Parity asks twice per unit (card references, then the rest) for every unit of both languages:
    the answer is kept, and a text with no brace holds no directive, so it is not parsed at all."""
    if "{" not in text:
        return ()
    found: list[Directive] = []
    for token in _MD.parseInline(text):
        for child in token.children or ():
            if child.type == "directive":
                line = text.count("\n", 0, child.meta["offset"]) + 1
                found.append(Directive(child.meta["name"], tuple(child.meta["args"]), line, 0, child.meta["raw"]))
    return tuple(found)
