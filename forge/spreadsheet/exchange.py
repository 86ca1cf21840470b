"""Export the card database to a sheet, and import a sheet back into the card files."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core import atomic, safeio
from ..carddb.database import CARDS_DIR, check_schema, load_database
from ..core.findings import ERROR, Finding
from ..carddb.model import Position
from .columns import Sheet, header_for, kind_of, read_rows, to_row
from ..carddb.yamledit import EditError, merge_file
from .tables import SheetError, cell_name_csv, cell_name_xlsx, read_csv, read_xlsx, write_csv, write_xlsx

FORMATS = ("csv", "xlsx")
_CARD_FILE = re.compile(r"cards/[A-Za-z0-9_-]+\.ya?ml")


@dataclass
class Exported:
    data: bytes = b""
    cards: int = 0
    findings: list[Finding] = field(default_factory=list)


def export_cards(root: Path, fmt: str) -> Exported:
    """The sheet of every card, in file order; refused (findings) when a card file does not load."""
    load = load_database(root)
    errors = [f for f in load.findings if f.severity == ERROR]
    if errors or load.io_error:
        return Exported(findings=errors or load.findings)
    raws = [raw for _, _, raw in load.raw_cards]
    header = header_for(raws)
    rows = [header] + [to_row(raw, header, rel) for rel, _, raw in load.raw_cards]
    data = write_csv(rows) if fmt == "csv" else write_xlsx(rows, [kind_of(c) for c in header])
    return Exported(data, len(raws))


@dataclass
class Imported:
    """What an import did (or, with ``dry_run``, would do)."""

    sheet: str
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    unchanged: int = 0
    not_in_sheet: int = 0
    files: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    io_error: bool = False

    @property
    def ok(self) -> bool:
        return not self.io_error and not any(f.severity == ERROR for f in self.findings)


def read_sheet(path: Path, shown: str) -> Sheet:
    """A sheet file (CSV or XLSX, by its name or its first bytes) as cards with their rows and columns."""
    with safeio.open_input(path, None) as fh:
        data = fh.read(safeio.MAX_INPUT_BYTES + 1)
    if path.suffix.lower() == ".xlsx" or data[:4] == b"PK\x03\x04":
        rows, _ = read_xlsx(data)
        return read_rows(shown, rows, cell_name_xlsx)
    return read_rows(shown, read_csv(data), cell_name_csv)


def import_cards(root: Path, path: Path, dry_run: bool = False) -> Imported:
    """Write the sheet's new and changed cards into their files; nothing is written if anything is wrong."""
    shown = path.name
    result = Imported(shown)
    try:
        sheet = read_sheet(path, shown)
    except safeio.UnsafeInput as exc:
        result.io_error = exc.rule == "io"
        result.findings.append(Finding(Position(shown), exc.rule, exc.message, exc.hint))
        return result
    except SheetError as exc:
        result.findings.append(Finding(Position(shown, 1, 1), "sheet", exc.message, exc.hint))
        return result
    result.findings += sheet.findings
    schema_findings, bad = check_schema(shown, {"cards": [c.data for c in sheet.cards]}, sheet.source)
    result.findings += schema_findings
    load = load_database(root)
    if load.io_error:
        result.io_error = True
        result.findings += [f for f in load.findings if f.rule == "io"]
        return result
    plan = _plan(root, load, sheet, bad, result)
    if not result.ok:
        return result
    texts: dict[str, str] = {}
    for rel, (changes, additions) in sorted(plan.items()):
        try:
            current = safeio.read_text(root / rel, root) if (root / rel).exists() else None
            texts[rel] = merge_file(current, changes, additions)
        except (safeio.UnsafeInput, UnicodeDecodeError, EditError) as exc:
            result.findings.append(Finding(Position(rel), "import", f"cannot update the file: {exc}",
                                           "fix the file (forge validate), then import again"))
    if not result.ok or dry_run:
        result.files = sorted(texts)
        return result
    for rel, text in sorted(texts.items()):
        atomic.write_text(root / rel, text)
    result.files = sorted(texts)
    return result


def _plan(root: Path, load, sheet: Sheet, bad: set, result: Imported) -> dict[str, tuple[dict, list]]:
    """Per file: the changed cards by their index in the file, and the new cards to append."""
    where = {raw.get("id"): (rel, path[1], raw) for rel, path, raw in load.raw_cards if isinstance(raw.get("id"), str)}
    broken = {f.position.file for f in load.findings if f.severity == ERROR and f.rule.startswith(("yaml", "encoding"))}
    seen: dict[str, int] = {}
    plan: dict[str, tuple[dict, list]] = {}
    for index, card in enumerate(sheet.cards):
        cid = card.data.get("id")
        at = sheet.source.values.get(("cards", index, "id"), (card.row, 1))
        if not isinstance(cid, str) or ("cards", index) in bad:
            continue
        if cid in seen:
            result.findings.append(Finding(sheet.at(*at), "duplicate-id",
                                           f"card id `{cid}` is also on row {seen[cid]}", "give each card its own id"))
            continue
        seen[cid] = card.row
        file_at = sheet.source.values.get(("cards", index, "file"), at)
        if cid in where:
            rel, i, raw = where[cid]
            if card.file and card.file != rel:
                result.findings.append(Finding(sheet.at(*file_at), "import",
                                               f"`{cid}` is in {rel}, not in {card.file}",
                                               f"write {rel} in the file column (move cards between files in YAML)"))
                continue
            if raw == card.data:
                result.unchanged += 1
                continue
            target = rel
            plan.setdefault(rel, ({}, []))[0][i] = card.data
            result.changed.append(cid)
        else:
            target = card.file or _default_file(card.data)
            if not target or not _CARD_FILE.fullmatch(target):
                result.findings.append(Finding(sheet.at(*file_at), "import",
                                               f"`{cid}` is a new card and "
                                               + (f"`{target}` is not a card file" if target else "no file is given"),
                                               "write its file in the file column, e.g. cards/red.yaml"))
                continue
            plan.setdefault(target, ({}, []))[1].append(card.data)
            result.added.append(cid)
        if target in broken:
            result.findings.append(Finding(sheet.at(*at), "import", f"{target} does not load, so `{cid}` cannot be "
                                           "written into it", "fix the file first (forge validate)"))
    result.not_in_sheet = len(set(where) - set(seen))
    return plan


def _default_file(card: dict) -> str:
    if card.get("set") == "starter":
        return f"{CARDS_DIR}/starter.yaml"
    if card.get("set") == "rite" or card.get("type") == "rite":
        return f"{CARDS_DIR}/rites.yaml"
    factions = card.get("factions")
    if isinstance(factions, list) and factions and isinstance(factions[0], str):
        return f"{CARDS_DIR}/{factions[0]}.yaml"
    return ""
