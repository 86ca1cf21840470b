"""A card as a spreadsheet row and back: one column per field, each cell in a short syntax.

| kind    | columns                                    | a cell holds                                  |
|---------|--------------------------------------------|-----------------------------------------------|
| file    | file                                       | the card file, e.g. ``cards/red.yaml``        |
| text    | id, type, set                              | the word                                      |
| number  | cost, copies                               | a whole number                                |
| text/lg | name.en, name.fr, flavor.en, flavor.fr     | the text as printed, no quotes                |
| list    | factions, keywords                         | ``red, white`` / ``rush, {aegis: 2}``         |
| map     | allegiance, trap                           | ``red: 1`` / ``kind: when, event: summon``    |
| lines   | effects, activate, triggers, end_of_turn,  | one line per effect line (or trigger), in     |
|         | demise                                     | flow syntax: ``if: {red: 3}, wound: 1``       |
| value   | any other field (``art``…)                 | its YAML flow value                           |

An empty cell is a field the card does not have.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
import difflib

from ..core.findings import Finding
from ..carddb.model import Position
from ..carddb.yamlsrc import SourceMap
from ..carddb.yamledit import flow
from .flow import CellError, inner, parse
from ..carddb.schema import build_schema

LANG_FIELDS = ("name", "flavor")
LANGS = ("en", "fr")

#: (column, kind) in the order a sheet shows them.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("file", "file"), ("id", "text"), ("type", "text"), ("set", "text"), ("factions", "list"),
    ("cost", "number"), ("allegiance", "map"), ("copies", "number"),
    ("name.en", "lang"), ("name.fr", "lang"), ("flavor.en", "lang"), ("flavor.fr", "lang"),
    ("keywords", "list"), ("trap", "map"),
    ("effects", "lines"), ("activate", "lines"), ("triggers", "lines"), ("end_of_turn", "lines"), ("demise", "lines"),
)
KINDS = dict(COLUMNS)
_WHOLE = re.compile(r"[+-]?\d+")


def field_of(column: str) -> str:
    return column.split(".", 1)[0]


def header_for(cards: list[dict]) -> list[str]:
    """The known columns, then one for every other field a card has, in the order first met."""
    known = {field_of(c) for c, _ in COLUMNS}
    extra: list[str] = []
    for card in cards:
        extra += [k for k in card if k not in known and k not in extra]
    return [c for c, _ in COLUMNS] + extra


def kind_of(column: str) -> str:
    return KINDS.get(column, "value")


def to_cell(card: dict, column: str, file: str) -> str:
    """The text of one cell of ``card``'s row."""
    if column == "file":
        return file
    kind = kind_of(column)
    if kind == "lang":
        field, lang = column.split(".", 1)
        value = card.get(field)
        return str(value.get(lang, "")) if isinstance(value, dict) else ""
    if column not in card or card[column] is None:
        return ""
    value = card[column]
    if kind in ("text", "number"):
        return str(value) if not isinstance(value, (dict, list)) else flow(value)
    if kind in ("list", "map"):
        return inner(value) if isinstance(value, (list, dict)) and value else flow(value)
    if kind == "lines":
        if not isinstance(value, list):
            return flow(value)
        return "\n".join(inner(line) if isinstance(line, dict) and line else flow(line) for line in value)
    return flow(value)


def to_row(card: dict, header: list[str], file: str) -> list[str]:
    return [to_cell(card, column, file) for column in header]


@dataclass
class SheetCard:
    """A card read from one row: its data, its file (when given), its row, and where each field is."""

    data: dict
    file: str
    row: int


class Sheet:
    """Rows read from a sheet: the cards, the findings met, and a source map (row, column) for the schema."""

    def __init__(self, name: str):
        self.name = name
        self.cards: list[SheetCard] = []
        self.findings: list[Finding] = []
        self.source = SourceMap()

    def at(self, row: int, col: int) -> Position:
        return Position(self.name, row, col)


def read_rows(name: str, rows: list[list], cell_name) -> Sheet:
    """The cards of a sheet's rows (the first row is the header); ``cell_name(row, col)`` says "C12"."""
    sheet = Sheet(name)
    if not rows:
        sheet.findings.append(Finding(sheet.at(1, 1), "sheet", "the sheet is empty",
                                      "export one with `forge cards export` and start from it"))
        return sheet
    header = [str(h or "").strip() for h in rows[0]]
    columns = _check_header(sheet, header)
    if "id" not in columns:
        return sheet
    for r, cells in enumerate(rows[1:], start=2):
        cells = list(cells) + [None] * (len(header) - len(cells))
        if all(_text(c) == "" for c in cells):
            continue  # a blank row
        _read_row(sheet, r, cells, columns, cell_name)
    return sheet


def _check_header(sheet: Sheet, header: list[str]) -> dict[str, int]:

    allowed = {c for c, _ in COLUMNS} | set(build_schema()["$defs"]["card"]["properties"])
    columns: dict[str, int] = {}
    for col, name in enumerate(header, start=1):
        if not name:
            continue
        if name in columns:
            sheet.findings.append(Finding(sheet.at(1, col), "sheet", f"the column `{name}` appears twice",
                                          f"keep one (the first is column {columns[name]})"))
        elif name not in allowed or name in LANG_FIELDS:
            guess = difflib.get_close_matches(name, sorted(allowed - set(LANG_FIELDS)), n=1, cutoff=0.6)
            sheet.findings.append(Finding(sheet.at(1, col), "sheet", f"unknown column `{name}`",
                                          f"did you mean `{guess[0]}`?" if guess else
                                          "columns: " + ", ".join(c for c, _ in COLUMNS)))
        else:
            columns[name] = col
    if "id" not in columns:
        sheet.findings.append(Finding(sheet.at(1, 1), "sheet", "the sheet has no `id` column",
                                      "the first row names the columns; `id` says which card a row is"))
    return columns


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).replace("\r\n", "\n").replace("\r", "\n")


def _read_row(sheet: Sheet, r: int, cells: list, columns: dict[str, int], cell_name) -> None:
    index = len(sheet.cards)
    base = ("cards", index)
    data: dict = {}
    file = ""
    sheet.source.values[base] = (r, columns["id"])
    for column, col in columns.items():
        raw = cells[col - 1] if col - 1 < len(cells) else None
        text = _text(raw)
        kind = kind_of(column)
        where = base + (field_of(column),)
        sheet.source.values.setdefault(where, (r, col))
        sheet.source.keys.setdefault(where, (r, col))
        if kind == "file":
            file = text.strip()
            continue
        if text.strip() == "":
            continue
        try:
            value = _value(kind, text, raw)
        except CellError as exc:
            sheet.findings.append(Finding(sheet.at(r, col), "sheet-cell",
                                          f"{column} (cell {cell_name(r, col)}): {exc.message}",
                                          _CELL_HINTS.get(kind, "write the value in YAML flow syntax")))
            continue
        if kind == "lang":
            field, lang = column.split(".", 1)
            data.setdefault(field, {})[lang] = value
            sheet.source.values[base + (field, lang)] = (r, col)
        else:
            data[field_of(column)] = value
            if kind == "lines" and isinstance(value, list):
                for j in range(len(value)):
                    sheet.source.values[where + (j,)] = (r, col)
    sheet.cards.append(SheetCard(_canonical_order(data), file, r))


_CELL_HINTS = {
    "list": "a list is words separated by commas: `red, white` or `rush, {aegis: 2}`",
    "map": "a mapping is `key: value` pairs separated by commas: `red: 1, white: 2`",
    "lines": "one effect line per line of the cell, e.g. `wound: 2` or `if: {red: 3}, wound: 1`",
}


def _value(kind: str, text: str, raw):
    if kind == "text":
        return text.strip()
    if kind == "lang":
        return text
    if kind == "number":
        if isinstance(raw, (int, float)) and not isinstance(raw, bool) and float(raw).is_integer():
            return int(raw)
        stripped = text.strip()
        return int(stripped) if _WHOLE.fullmatch(stripped) else stripped  # the schema says what is wrong
    if kind == "list":  # `[]` alone is the empty list (a starter Soul's `factions: []`)
        return [] if text.strip() == "[]" else parse(text, "[]")
    if kind == "map":
        return {} if text.strip() == "{}" else parse(text, "{}")
    if kind == "lines":
        lines = []
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    lines.append(parse(line.strip(), "{}"))
                except CellError as exc:
                    raise CellError(f"line {number} of the cell: {exc.message}", exc.offset) from None
        return lines
    return parse(text)


def _canonical_order(data: dict) -> dict:
    order = [field_of(c) for c, _ in COLUMNS]
    known = {k: data[k] for k in dict.fromkeys(order) if k in data}
    return {**known, **{k: v for k, v in data.items() if k not in known}}
