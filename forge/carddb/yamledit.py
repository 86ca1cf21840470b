"""The one source-preserving YAML editor: values, keys, character spans and whole cards edited in place.

Card, locale and label files are written by people: their comments, key order, quoting,
flow or block layout, line endings and byte-order mark are theirs. Rather than re-dumping a
document (ruamel.yaml re-flows long lines and re-spaces flow mappings), every edit replaces
the characters of one thing and keeps every other byte:

- ``replace`` / ``insert``: one scalar (found by PyYAML's node marks) rewritten in its old
  quoting style when it can hold the new value (double quotes otherwise), or one key added at
  the end of its table (``forge i18n import``);
- ``fix_files``: character spans inside strings written verbatim (``forge parity --fix``,
  ``forge sync``), a span refused unless it lies inside the characters of one string and the
  file then reads back with that string, and nothing else, changed;
- ``merge_file``: whole cards replaced field by field, new cards appended, in the card files'
  own style (``forge cards import``).

The file is parsed within yamlsrc's budget before any edit (it may come from a stranger), a
value reached through an alias (``*name``) is never edited (that would change the anchored
value too), and the result is read back before anyone writes it.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core import atomic, safeio
from . import yamlsrc

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class EditError(Exception):
    """An edit that cannot be made without touching more than the value it is for."""


Edit = tuple[int, int, str]  # replace text[start:end] with the string


# -- reading within the budget ------------------------------------------------------------------
@dataclass
class Tree:
    """A source's data (as yamlsrc reads it), its node tree, and the nodes an alias reaches (with what is in them)."""

    data: object
    root: yaml.Node
    shared: set[int]


def compose(text: str) -> Tree:
    """The tree of ``text``, once yamlsrc has read it within its budget (aliases, tags, numbers)."""
    try:
        data, _ = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        raise EditError(f"the file does not parse: {exc.message} at {exc.line}:{exc.col}") from None
    root = yaml.compose(text, Loader=_Loader)
    return Tree(data, root, _shared(root))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _shared(root: yaml.Node) -> set[int]:
    """The ids of the nodes reached more than once, and of everything inside them (linear in the graph)."""
    seen: set[int] = set()
    twice: list[yaml.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            twice.append(node)
            continue
        seen.add(id(node))
        stack += _children(node)
    shared: set[int] = set()
    while twice:
        node = twice.pop()
        if id(node) not in shared:
            shared.add(id(node))
            twice += _children(node)
    return shared


def find(node: yaml.Node | None, path: tuple) -> yaml.Node | None:
    """The node at a path of keys and list indexes, or None."""
    for key in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
        else:
            return None
    return node


def _unshared(tree: Tree, path: tuple) -> yaml.Node | None:
    """The node at ``path``; EditError when it, or a table on the way to it, is reached through an alias."""
    node = tree.root
    for i in range(len(path) + 1):
        if node is not None and id(node) in tree.shared:
            raise EditError("the value is shared through an alias (*name): edit it by hand")
        if i < len(path):
            node = find(node, path[i:i + 1])
    return node


def newline(text: str) -> str:
    """The file's line break: CRLF when every break is one, else LF."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf == text.count("\n") else "\n"


# -- scalars in the old style (translations) ----------------------------------------------------
_PLAIN_START = set("-?:,[]{}#&*!|>'\"%@` ")
#: Characters YAML will not read raw inside quotes (or reads as line breaks): written as escapes.
_ESCAPE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def double_quoted(value: str) -> str:
    body = json.dumps(value, ensure_ascii=False)
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", body)


def encode(value: str, style: str | None, flow: bool, quoted_only: bool = False) -> str:
    """``value`` as a YAML scalar in the old ``style`` when it fits, else double-quoted."""
    if quoted_only or "\n" in value or _ESCAPE.search(value):
        return double_quoted(value)
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    if not style and plain_ok(value, flow):
        return value
    return double_quoted(value)


def plain_ok(value: str, flow: bool) -> bool:
    """Whether ``value`` reads back as itself written plain (no quotes)."""
    if not value or value != value.strip() or value[0] in _PLAIN_START or value.endswith(":"):
        return False
    if ": " in value or " #" in value or (flow and any(c in value for c in ",[]{}")):
        return False
    return True


def in_flow(root: yaml.Node, path: tuple) -> bool:
    """Whether the value at ``path`` sits inside a flow collection (``{…}``, ``[…]``)."""
    return any(getattr(find(root, path[:i]), "flow_style", False) for i in range(len(path)))


def replace(text: str, tree: Tree, path: tuple, value: str, quoted_only: bool = False) -> Edit:
    """The edit that writes ``value`` over the scalar at ``path``."""
    node = _unshared(tree, path)
    if not isinstance(node, yaml.ScalarNode):
        raise EditError("the string is not a plain YAML value there")
    start, end = node.start_mark.index, node.end_mark.index
    tail = ""
    if node.style in ("|", ">"):
        # a block scalar's span runs to its last line break: keep that break after the quoted text
        span = text[start:end]
        tail = "\r\n" if span.endswith("\r\n") else "\n" if span.endswith("\n") else ""
    return start, end, encode(value, node.style if not tail else '"', in_flow(tree.root, path), quoted_only) + tail


def insert(text: str, tree: Tree, parent_path: tuple, key: str, value: str, quoted_only: bool = False) -> Edit:
    """The edit that adds ``key: value`` as the last entry of the mapping at ``parent_path``."""
    parent = _unshared(tree, parent_path)
    if not isinstance(parent, yaml.MappingNode):
        raise EditError("the table to add it to does not exist in the French source")
    k = key if plain_ok(key, True) else double_quoted(key)
    if parent.flow_style:
        v = encode(value, None, True, quoted_only)
        if parent.value:
            last = parent.value[-1][1]
            if id(last) in tree.shared:
                raise EditError("the table ends with an alias (*name): add the key by hand")
            pos = last.end_mark.index
            return pos, pos, f", {k}: {v}"
        close = text.rindex("}", 0, parent.end_mark.index)
        return close, close, f"{k}: {v}"
    v = encode(value, None, False, quoted_only)
    last_key, last_value = parent.value[-1]
    if id(last_value) in tree.shared:
        raise EditError("the table ends with an alias (*name): add the key by hand")
    indent = " " * last_key.start_mark.column
    nl = newline(text)
    pos = last_value.end_mark.index
    if pos == 0 or text[pos - 1] == "\n":
        return pos, pos, f"{indent}{k}: {v}{nl}"
    eol = text.find("\n", pos)
    pos = len(text) if eol < 0 else eol - (nl == "\r\n")  # after a trailing comment, which stays with its line
    return pos, pos, f"{nl}{indent}{k}: {v}"


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with non-overlapping edits made (from the end, so earlier offsets stay right)."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


# -- character spans inside strings (typography fixes) ------------------------------------------
def fix_files(root: Path | str, fixes: list) -> dict[str, int]:
    """Apply ``fixes`` (each with ``file``, ``start``, ``end``, ``text``: offsets in the file without its
    byte-order mark); returns how many were applied in each file written.

    Where two fixes overlap the first is kept (a second run applies the rest). In a YAML file a fix is
    applied only inside the characters of one plain or quoted string that no alias shares, and only when
    the file reads back with those strings, and nothing else, changed; the others are left for a person
    (the check that found them reports them again).
    """
    root = Path(root)
    by_file: dict[str, list] = {}
    for fix in fixes:
        by_file.setdefault(fix.file, []).append(fix)
    applied: dict[str, int] = {}
    for rel, items in sorted(by_file.items()):
        text = safeio.read_text(root / rel, root)
        bom = text.startswith("\ufeff")
        body = text.removeprefix("\ufeff")
        kept, end = [], -1
        for fix in sorted(set(items), key=lambda f: (f.start, f.end)):
            if fix.start >= end or fix.start == fix.end == end:
                kept.append(fix)
                end = max(end, fix.end)
        spans = [(f.start, f.end, f.text) for f in kept]
        if rel.endswith((".yaml", ".yml")):
            spans = _inside_strings(body, spans)
        if spans:
            atomic.write_text(root / rel, ("\ufeff" if bom else "") + apply(body, spans))
            applied[rel] = len(spans)
    return applied


def _inside_strings(text: str, spans: list[Edit]) -> list[Edit]:
    """The spans that lie inside the characters of one string written verbatim (plain or quoted, one line,
    no alias sharing it); none at all unless the edited file reads back as the same data with only those
    strings changed, as the spans change them."""
    try:
        tree = compose(text)
    except EditError:
        return []
    strings = sorted(_verbatim_strings(text, tree))
    starts = [s[0] for s in strings]
    kept: list[Edit] = []
    expected: dict[tuple, str] = {}
    for span in spans:
        i = bisect_right(starts, span[0]) - 1
        if i < 0 or span[1] > strings[i][1]:
            continue
        start, _end, path, value = strings[i]
        kept.append(span)
        old = expected.get(path, value)
        shift = len(old) - len(value)  # earlier spans of the same string (applied in order, non-overlapping)
        expected[path] = old[:span[0] - start + shift] + span[2] + old[span[1] - start + shift:]
    if not kept:
        return []
    want = tree.data
    for path, value in expected.items():
        want = _with(want, path, value)
    try:
        got, _ = yamlsrc.load(apply(text, kept))
    except yamlsrc.YamlError:
        return []
    return kept if got == want else []


def _verbatim_strings(text: str, tree: Tree):
    """(start, end, path, value) of each string scalar whose characters in ``text`` are its value."""
    stack: list[tuple[yaml.Node, object, tuple]] = [(tree.root, tree.data, ())]
    while stack:
        node, data, path = stack.pop()
        if id(node) in tree.shared:
            continue
        if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
            stack += [(v, data.get(k.value), path + (k.value,)) for k, v in node.value if isinstance(k, yaml.ScalarNode)]
        elif isinstance(node, yaml.SequenceNode) and isinstance(data, list):
            stack += [(v, data[i], path + (i,)) for i, v in enumerate(node.value) if i < len(data)]
        elif isinstance(node, yaml.ScalarNode) and isinstance(data, str) and node.style in (None, "", "'", '"'):
            start, end = node.start_mark.index, node.end_mark.index
            if node.style:  # plain is None or "" (the C composer)
                start, end = start + 1, end - 1
            if text[start:end] == data and "\n" not in data:
                yield start, end, path, data


def _with(data, path: tuple, value):
    """A copy of ``data`` with ``value`` at ``path`` (only the containers on the way are copied)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {**data, head: _with(data[head], rest, value)}
    out = list(data)
    out[head] = _with(out[head], rest, value)
    return out


# -- whole cards in the card files' style (spreadsheets) ----------------------------------------
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_RESERVED = {"true", "false", "null", "~"}  # what YAML 1.2 (forge's reader) would not read as text
LINE_FIELDS = ("effects", "activate", "end_of_turn", "demise")
QUOTED_FIELDS = ("name", "flavor")
NEW_FILE_HEADER = "# yaml-language-server: $schema=../schema/cards.schema.json\ncards:\n"


def scalar(value, quote: bool = False) -> str:
    """A scalar as the card files write it: plain words and numbers bare, other text double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if not quote and _PLAIN.fullmatch(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def flow(value, quote_text: bool = False) -> str:
    """``{a: 1, b: [x, y]}``: a value in flow syntax; ``quote_text`` quotes every string (names, flavour)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v, quote_text)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v, quote_text) for v in value) + "]"
    return scalar(value, quote=quote_text)


@dataclass
class Layout:
    """How a file indents its cards: the item prefix (``"  - "``) and a field's indent (``"    "``)."""

    item: str = "  - "
    field: str = "    "


def emit_field(key: str, value, prefix: str, indent: str) -> list[str]:
    """The lines of one field; ``prefix`` begins its first line (the item's ``- `` for a card's first field)."""
    if key in LINE_FIELDS and _is_line_list(value):
        return [f"{prefix}{key}:"] + _block_lines(value, indent + "  ")
    if key == "triggers" and isinstance(value, list) and value and all(isinstance(t, dict) and t for t in value):
        lines = [f"{prefix}{key}:"]
        for trigger in value:
            lines += _block_item(trigger, indent + "  ")
        return lines
    return [f"{prefix}{key}: {_inline(key, value)}"]


def _inline(key: str, value) -> str:
    if isinstance(value, (dict, list)):
        return flow(value, quote_text=key in QUOTED_FIELDS)
    return scalar(value)


def _is_line_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and v for v in value)


def _block_lines(lines: list[dict], indent: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += _block_item(line, indent)
    return out


def _block_item(mapping: dict, indent: str) -> list[str]:
    """``- a: 1`` then ``  b: 2``: a mapping as a block list item, nested effect lists as blocks too."""
    out: list[str] = []
    for i, (k, v) in enumerate(mapping.items()):
        prefix = f"{indent}- " if i == 0 else f"{indent}  "
        if k == "effects" and _is_line_list(v):
            out.append(f"{prefix}{scalar(k)}:")
            out += _block_lines(v, indent + "    ")
        else:
            out.append(f"{prefix}{scalar(k)}: {flow(v)}")
    return out


def emit_card(card: dict, layout: Layout) -> list[str]:
    lines: list[str] = []
    for i, (key, value) in enumerate(card.items()):
        lines += emit_field(key, value, layout.item if i == 0 else layout.field, layout.field)
    return lines


@dataclass
class _Field:
    key: str
    leading: list[str]  # full-line comments and blank lines just above it
    body: list[str]


def _fields(lines: list[str], source: yamlsrc.SourceMap, index: int, keys: list[str],
            end: int) -> list[_Field] | None:
    """The card's fields and their original lines; None when two keys share a line (flow style)."""
    starts = sorted((source.keys[("cards", index, k)][0], k) for k in keys if ("cards", index, k) in source.keys)
    if len(starts) != len(keys) or len({line for line, _ in starts}) != len(starts):
        return None
    fields: list[_Field] = []
    carry: list[str] = []
    for n, (line, key) in enumerate(starts):
        last_field = n + 1 == len(starts)
        body = lines[line - 1:(end if last_field else starts[n + 1][0] - 1)]
        trailing: list[str] = []
        while not last_field and body and _is_filler(body[-1]):  # the comments above a field travel with it
            trailing.insert(0, body.pop())
        fields.append(_Field(key, carry, body))
        carry = trailing
    return fields


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def card_end(lines: list[str], first: int, next_start: int | None) -> int:
    """The last line (1-based) of the card starting at ``first``: before the next card, blank lines and
    comments between the two left out (they belong to the gap, or to the next card)."""
    last = (next_start - 1) if next_start else len(lines)
    while last > first and _is_filler(lines[last - 1]):
        last -= 1
    return last


def rewrite_card(lines: list[str], source: yamlsrc.SourceMap, index: int, old: dict, new: dict,
                 first: int, last: int, layout: Layout) -> list[str]:
    """The new lines of a changed card (replacing ``lines[first-1:last]``)."""
    fields = _fields(lines, source, index, list(old), last)
    if fields is None:
        return emit_card(new, layout)
    by_key = {f.key: f for f in fields}
    order = [f.key for f in fields if f.key in new] + [k for k in new if k not in old]
    out: list[str] = []
    for n, key in enumerate(order):
        original = by_key.get(key)
        first_field = n == 0
        kept = original is not None and old.get(key) == new[key] and (first_field == (original is fields[0]))
        if original is not None and n > 0:
            out += original.leading
        if kept:
            out += original.body
        else:
            out += emit_field(key, new[key], layout.item if first_field else layout.field, layout.field)
    return out


def layout_of(lines: list[str], source: yamlsrc.SourceMap, count: int) -> Layout:
    """The indentation the file's first card uses (the card files' own when there is none)."""
    for i in range(count):
        key = next((p for p in source.keys if len(p) == 3 and p[:2] == ("cards", i)), None)
        if key is None:
            continue
        line, col = source.keys[key]
        text = lines[line - 1]
        dash = text.rfind("-", 0, col - 1)
        if dash >= 0 and text[:dash].strip() == "":
            return Layout(item=text[:col - 1], field=" " * (col - 1))
    return Layout()


def merge_file(text: str | None, changes: dict[int, dict], additions: list[dict]) -> str:
    """The file's new text: cards at ``changes``' indexes replaced, ``additions`` appended, in the file's
    line breaks (CRLF stays CRLF). ``text`` None makes a new card file. EditError when the result would
    not read back as exactly the intended cards (nothing is written then)."""
    if text is None:
        text = NEW_FILE_HEADER
    try:
        data, source = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        raise EditError(f"the file does not parse: {exc.message} at {exc.line}:{exc.col}") from None
    data = data if isinstance(data, dict) else {}
    cards = list(data.get("cards") or [])
    nl = newline(text)
    lines = text.split(nl)
    if text.endswith(nl):
        lines = lines[:-1]
    layout = layout_of(lines, source, len(cards))
    starts = [source.values[("cards", i)][0] for i in range(len(cards))]
    for index in sorted(changes, reverse=True):  # from the bottom up: earlier line numbers stay valid
        first = starts[index]
        last = card_end(lines, first, starts[index + 1] if index + 1 < len(starts) else None)
        lines[first - 1:last] = rewrite_card(lines, source, index, cards[index], changes[index], first, last, layout)
    for card in additions:
        while lines and not lines[-1].strip():
            lines.pop()
        if cards or any(line.strip().startswith("- ") for line in lines):
            lines.append("")
        lines += emit_card(card, layout)
    result = nl.join(lines) + nl
    expected = [changes.get(i, c) for i, c in enumerate(cards)] + list(additions)
    _read_back(result, {**data, "cards": expected})
    return result


def _read_back(text: str, expected: dict) -> None:
    try:
        got, _ = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        raise EditError(f"the rewritten file does not parse: {exc.message} at {exc.line}:{exc.col}") from None
    if got != expected:
        raise EditError("the rewritten file does not hold the intended cards")


__all__ = ["EditError", "Edit", "Tree", "compose", "find", "newline", "plain_ok", "double_quoted", "encode",
           "in_flow", "replace", "insert", "apply", "fix_files", "scalar", "flow", "Layout", "emit_card",
           "merge_file"]
