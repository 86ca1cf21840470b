"""Write changed and new cards into their YAML files, leaving every other byte as it was.

A changed card is rewritten field by field: a field whose value did not change keeps
its original lines (comments included); a changed field is written in the style of
the card files (flow ``{…}`` and ``[…]`` for small values, one block item per
effect line). Comments between cards, blank lines and the other cards are kept as
they are. New cards go at the end of their file. The new text is read back before
it is written: it must hold exactly the intended data.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..carddb import yamlsrc
from .flow import flow, scalar

LINE_FIELDS = ("effects", "activate", "end_of_turn", "demise")
QUOTED_FIELDS = ("name", "flavor")
NEW_FILE_HEADER = "# yaml-language-server: $schema=../schema/cards.schema.json\ncards:\n"


class MergeError(Exception):
    """The rewritten file does not read back as intended (a bug in forge, never written)."""


@dataclass
class Layout:
    """How a file indents its cards: the item prefix (``"  - "``) and a field's indent (``"    "``)."""

    item: str = "  - "
    field: str = "    "


# -- emitting in the card files' style ------------------------------------------------
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


# -- splicing into a file -------------------------------------------------------------
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
    """The file's new text: cards at ``changes``' indexes replaced, ``additions`` appended.

    ``text`` None makes a new card file."""
    if text is None:
        text = NEW_FILE_HEADER
    data, source = yamlsrc.load(text)
    data = data if isinstance(data, dict) else {}
    cards = list(data.get("cards") or [])
    lines = text.split("\n")
    trailing_newline = text.endswith("\n")
    if trailing_newline:
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
    result = "\n".join(lines) + "\n"
    expected = [changes.get(i, c) for i, c in enumerate(cards)] + list(additions)
    _read_back(result, {**data, "cards": expected})
    return result


def _read_back(text: str, expected: dict) -> None:
    try:
        got, _ = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        raise MergeError(f"the rewritten file does not parse: {exc.message} at {exc.line}:{exc.col}") from None
    if got != expected:
        raise MergeError("the rewritten file does not hold the intended cards")
