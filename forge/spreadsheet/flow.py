"""YAML flow syntax for one cell: written the way the card files write it, read with forge's safe loader."""
from __future__ import annotations

import json
import re

from ..carddb import yamlsrc

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_RESERVED = {"true", "false", "null", "~"}  # what YAML 1.2 (forge's reader) would not read as text


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


def inner(value) -> str:
    """A mapping or list without its outer brackets: the cell syntax (``red: 1, white: 2``)."""
    text = flow(value)
    return text[1:-1] if isinstance(value, (dict, list)) else text


class CellError(Exception):
    """A cell that does not read as YAML: the message, and the 1-based offset in the cell's text."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message, self.offset = message, offset


def parse(text: str, wrap: str = ""):
    """The value a cell holds; ``wrap`` "{}" or "[]" puts back the brackets the cell syntax leaves out."""
    source = f"{wrap[:1]}{text}{wrap[1:]}" if wrap else text
    try:
        value, _ = yamlsrc.load(source)
    except yamlsrc.YamlError as exc:
        raise CellError(exc.message, max(exc.col - len(wrap[:1]), 1)) from None
    return value
