"""The cell syntax: a mapping or list written without its outer brackets, read with forge's safe loader.

Values are written the way the card files write them (``carddb.yamledit.flow``)."""
from __future__ import annotations

from ..carddb import yamlsrc
from ..carddb.yamledit import flow


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
