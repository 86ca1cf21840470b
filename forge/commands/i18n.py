"""``forge i18n``: the translators' files (strings as .po/XLIFF and back, the termbase) and review marks."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional
import sys

import typer

from .common import Format, FormatOption, RootOption, check_root, echo_report, emit_json, fail, plural, render_findings
from ..core import atomic
from ..core.findings import Finding, exit_status

i18n = typer.Typer(help="Files for translators: strings as .po or XLIFF and back, the termbase as TBX or CSV, "
                   "stale French marked reviewed.", no_args_is_help=True)


class TermFormat(str, Enum):
    tbx = "tbx"
    csv = "csv"


@i18n.command("termbase")
def termbase(
    root: RootOption = Path("."),
    format: TermFormat = typer.Option(TermFormat.tbx, "--format", help="tbx (TBX-Basic, ISO 30042) or csv."),
    out: Optional[Path] = typer.Option(None, "--out", "--output", "-o",
                                       help="Write here instead of to standard output."),
) -> None:
    """Export locales/termbase.yaml for CAT tools (Trados, memoQ, OmegaT, Weblate).

    Example: forge i18n termbase --format tbx --out termbase.tbx
    """
    check_root(root)
    from ..text import termbase as tb_module  # lazy: loads yaml, forge.carddb ... only when needed
    from ..text.sources import Sources  # lazy: loads yaml, forge.carddb ... only when needed

    sources = Sources(root)
    tb = tb_module.load(sources)
    problems = sources.findings + [f for f in tb.findings if f.severity == "error"]
    if problems or tb.doc is None:
        first = problems[0].render() if problems else f"no {tb_module.TERMBASE} in {root}"
        fail(f"cannot export the termbase: {first}", None, f"correct {tb_module.TERMBASE}, then export again")
    text = tb_module.to_tbx(tb) if format is TermFormat.tbx else tb_module.to_csv(tb)
    if out is None:
        typer.echo(text, nl=False)
    else:
        atomic.write_text(out, text)


class ExchangeFormat(str, Enum):
    po = "po"
    xliff = "xliff"


@i18n.command("export")
def export(
    root: RootOption = Path("."),
    lang: str = typer.Option("fr", "--lang", help="The language to translate into (fr; English is the source)."),
    format: ExchangeFormat = typer.Option(ExchangeFormat.po, "--format", help="po (gettext: Poedit, Weblate) "
                                          "or xliff (XLIFF 2.0: Trados, memoQ, OmegaT)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write here instead of to standard output."),
) -> None:
    """Every translatable string with its English, a stable id, context, terms; stale French marked fuzzy.

    Example: forge i18n export --lang fr --format po --out fr.po
    """
    check_root(root)
    from ..i18n import exchange  # lazy: loads markdown_it, yaml ... only when needed

    if lang != exchange.TARGET:
        fail(f"--lang {lang}: forge translates from English into `{exchange.TARGET}` only", None,
             f"use --lang {exchange.TARGET}")
    items = exchange.catalog(root)
    data = exchange.to_po(items).encode("utf-8") if format is ExchangeFormat.po else exchange.to_xliff(items)
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        atomic.write_bytes(out, data)
    except atomic.WriteError as exc:
        fail(str(exc), None, "choose a folder you can write to")
    stale = sum(i.stale for i in items)
    echo_report(f"wrote {plural(len(items), 'string')} ({stale} to review) to {out}", err=True)


@i18n.command("import")
def import_(
    file: Path = typer.Argument(..., help="The translated .po or .xlf file."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the file and report; write nothing."),
) -> None:
    """Write a translated .po or XLIFF file back into the YAML and Markdown sources, byte for byte.

    Only the changed French strings are edited (comments, order and quoting stay); the
    fingerprint of the English each one was translated from is recorded. Nothing is written
    when the file has an error (an unknown id, another language, a DTD...).

    Example: forge i18n import fr.po
    """
    check_root(root)
    from ..i18n import importer  # lazy: loads markdown_it, yaml ... only when needed

    items, found, io_error = importer.read(file)
    result = importer.ImportResult(findings=found, io_error=io_error, strings=len(items))
    if not io_error and not any(f.severity == "error" for f in found):
        result = importer.apply(root, items, str(file), dry_run)
        result.findings = found + result.findings
    status = exit_status(result.findings, result.io_error)
    if format is Format.json:
        emit_json({"ok": status == 0, "findings": [f.to_json() for f in result.findings],
                   "strings": result.strings, "changed": result.changed, "reviewed": result.reviewed,
                   "files": result.files, "written": not dry_run and status == 0})
    else:
        lines = [render_findings(result.findings)] if result.findings else []
        if status:
            lines.append(f"✗ nothing imported ({plural(len(result.findings), 'finding')})")
        else:
            verb = "would write" if dry_run else "wrote"
            lines.append(f"✓ {result.strings} strings read; {verb} {plural(len(result.changed), 'French string')} "
                         f"in {plural(len(result.files), 'file')}; {plural(len(result.reviewed), 'string')} "
                         "marked reviewed")
        echo_report("\n".join(lines))
    raise typer.Exit(status)


@i18n.command("reviewed")
def reviewed(
    ids: Optional[list[str]] = typer.Argument(None, help="Stable ids (as `forge parity` prints them)."),
    all_: bool = typer.Option(False, "--all", help="Every translated string: the French is right for today's English."),
    root: RootOption = Path("."),
    format: FormatOption = Format.text,
) -> None:
    """Mark French strings as reviewed against today's English (they stop being stale).

    Example: forge i18n reviewed cards/kindle/name
    """
    check_root(root)
    from ..i18n import fingerprints, inventory  # lazy: loads markdown_it, yaml ... only when needed
    from ..carddb.model import Position  # lazy: loads forge.carddb only when needed

    if bool(ids) == all_:
        fail("name the ids to mark reviewed, or give --all (not both)", format, "forge i18n reviewed --all")
    inv = inventory.build(root)
    if inv.sources.findings:
        status = exit_status(inv.sources.findings, inv.sources.io_error) or 1
        echo_report(render_findings(inv.sources.findings))
        raise typer.Exit(status)
    record = fingerprints.load(inv.sources)
    new, marked, unknown = fingerprints.mark_reviewed(inv, record, None if all_ else list(ids))
    found = [Finding(Position(fingerprints.SIDECAR), "unknown-id", f"`{pid}` is not a translated string",
                     "run `forge parity` to see the ids of the French to review") for pid in unknown]
    if not found:
        fingerprints.save(root, new)
    status = exit_status(found)
    if format is Format.json:
        emit_json({"ok": status == 0, "marked": marked if not found else [], "findings": [f.to_json() for f in found]})
    else:
        lines = [render_findings(found)] if found else []
        lines.append("✗ nothing marked" if found else f"✓ {plural(len(marked), 'string')} marked reviewed")
        echo_report("\n".join(lines))
    raise typer.Exit(status)
