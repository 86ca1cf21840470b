"""Byte-exact edits of YAML sources: one scalar replaced or one key added, every other byte kept.

An importer must keep the translator-facing files as people wrote them: comments, key
order, quoting, flow or block layout. Rather than re-dumping the document (ruamel.yaml
re-flows long lines and re-spaces flow mappings), each edit replaces the characters of
one scalar, found by PyYAML's node marks, with the new value written in the old quoting
style when it can hold it (double quotes otherwise). The caller re-reads the result to
prove it holds what was meant (``importer``).
"""
from __future__ import annotations

import json
import re

import yaml

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class EditError(Exception):
    """An edit that cannot be made where the inventory said the string is."""


Edit = tuple[int, int, str]  # replace text[start:end] with the string


def compose(text: str) -> yaml.Node:
    """The node tree of a source the inventory has already read safely (yamlsrc)."""
    return yaml.compose(text, Loader=_Loader)


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
    if not value or value != value.strip() or value[0] in _PLAIN_START or value.endswith(":"):
        return False
    if ": " in value or " #" in value or (flow and any(c in value for c in ",[]{}")):
        return False
    return True


def in_flow(root: yaml.Node, path: tuple) -> bool:
    """Whether the value at ``path`` sits inside a flow collection (``{…}``, ``[…]``)."""
    return any(getattr(find(root, path[:i]), "flow_style", False) for i in range(len(path)))


def replace(text: str, root: yaml.Node, path: tuple, value: str, quoted_only: bool = False) -> Edit:
    """The edit that writes ``value`` over the scalar at ``path``."""
    node = find(root, path)
    flow = in_flow(root, path)
    if not isinstance(node, yaml.ScalarNode):
        raise EditError("the string is not a plain YAML value there")
    start, end = node.start_mark.index, node.end_mark.index
    tail = ""
    if node.style in ("|", ">"):
        # a block scalar's span runs to its last line break: keep that break after the quoted text
        tail = "\n" if text[start:end].endswith("\n") else ""
    return start, end, encode(value, node.style if not tail else '"', flow, quoted_only) + tail


def insert(text: str, root: yaml.Node, parent_path: tuple, key: str, value: str, quoted_only: bool = False) -> Edit:
    """The edit that adds ``key: value`` as the last entry of the mapping at ``parent_path``."""
    parent = find(root, parent_path)
    if not isinstance(parent, yaml.MappingNode):
        raise EditError("the table to add it to does not exist in the French source")
    k = key if plain_ok(key, True) else double_quoted(key)
    if parent.flow_style:
        v = encode(value, None, True, quoted_only)
        if parent.value:
            pos = parent.value[-1][1].end_mark.index
            return pos, pos, f", {k}: {v}"
        close = text.rindex("}", 0, parent.end_mark.index)
        return close, close, f"{k}: {v}"
    v = encode(value, None, False, quoted_only)
    last_key, last_value = parent.value[-1]
    indent = " " * last_key.start_mark.column
    pos = last_value.end_mark.index
    if pos == 0 or text[pos - 1] == "\n":
        return pos, pos, f"{indent}{k}: {v}\n"
    eol = text.find("\n", pos)
    pos = len(text) if eol < 0 else eol  # after a trailing comment, which stays with its line
    return pos, pos, f"\n{indent}{k}: {v}"


def apply(text: str, edits: list[Edit]) -> str:
    """``text`` with non-overlapping edits made (from the end, so earlier offsets stay right)."""
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


__all__ = ["plain_ok", "EditError", "Edit", "compose", "find", "encode", "replace", "insert", "apply", "double_quoted"]
