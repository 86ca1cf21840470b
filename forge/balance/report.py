"""The balance report: charts as PNG and SVG, and one self-contained HTML page with the proof sheet.

The page is rendered from ``templates/report.html.j2`` (in this package) in forge's
Jinja sandbox; every chart and card image is inlined as a data URI, so the page
opens from a mail attachment or a CI artifact with no other file and no network,
and its Content-Security-Policy says so: no script at all, nothing loaded but ``data:``.
The proof sheet puts each card's printed face (drawn by the card renderer) beside
its numbers. Nothing here writes: ``build`` returns every file's bytes by name.
"""
from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

from ..core.csp import page_policy
from ..render.draft import MARK as DRAFT_MARK
from ..carddb.model import CardDatabase
from .charts import Chart, all_charts
from ..sim.analysis import USES
from ..render.face import build_faces

TEMPLATES = Path(__file__).parent / "templates"
#: Pixels across a card on the proof sheet.
PROOF_WIDTH = 220
USE_LABELS = {"bought": "bought", "played": "played", "activated": "activated", "in_hand": "had in hand"}


@dataclass(frozen=True)
class ReportFiles:
    """Every file of the report: relative name -> bytes (charts, report.html, balance.json)."""

    files: dict[str, bytes]
    charts: list[Chart]


def build(data: dict, db: CardDatabase, root: Path, proofs: bool = True, lang: str = "en") -> ReportFiles:
    """The charts and the HTML page for ``data`` (``forge simulate --format json``'s object)."""
    balance = data["balance"]
    faction_names = {f.id: f.name.get(lang, f.id) for f in db.factions}
    colours = {f.id: f.color for f in db.factions}
    card_names = {c.id: c.name.get(lang, c.id) for c in db.of_set("recruit")}
    charts = all_charts(balance, card_names, faction_names, colours)
    images, problems = _proof_images(db, root, lang) if proofs else ({}, [])
    html = render_html(data, db, charts, images, lang, problems)
    files = {f"{c.name}.{ext}": getattr(c, ext) for c in charts for ext in ("png", "svg")}
    files["report.html"] = html.encode("utf-8")
    files["balance.json"] = (json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    return ReportFiles(files, charts)


def render_html(data: dict, db: CardDatabase, charts: list[Chart], images: dict[str, bytes], lang: str = "en",
                problems: list[str] = ()) -> str:
    """The page, through the sandbox (every value escaped; data URIs are plain strings)."""
    import jinja2  # lazy: loads jinja2 only when needed

    from ..core import sandbox  # lazy: loads jinja2 only when needed

    env = sandbox.environment(jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = _pct
    env.filters["pts"] = _pts
    return env.get_template("report.html.j2").render(**context(data, db, charts, images, lang),
                                                     proof_problems=list(problems), csp=page_policy())


def context(data: dict, db: CardDatabase, charts: list[Chart], images: dict[str, bytes], lang: str = "en") -> dict:
    """What the template reads: plain data, each rate with its k, n and interval."""
    balance = data["balance"]
    factions = [{"id": f.id, "name": f.name.get(lang, f.id), "colour": f.color} for f in db.factions]
    names = {f["id"]: f["name"] for f in factions}
    cards = {c["card"]: c for c in balance["cards"]}
    sheet = []
    for card in db.cards:
        row = cards.get(card.id)
        if row is None:
            continue
        sheet.append({"id": card.id, "name": card.name.get(lang, card.id), "set": card.set, "type": card.type,
                      "cost": card.cost, "faction": names.get(card.faction or "", "neutral"),
                      "image": _data_uri(images[card.id], "image/jpeg") if card.id in images else None,
                      "never_used": row["never_used"],
                      "players": row["rate"]["bought"]["n"],
                      "uses": [{"use": use, "label": USE_LABELS[use], "rate": row["rate"][use],
                                "diff": row[use]} for use in _uses_of(card)],
                      "significant": [USE_LABELS[u] for u in row["significant"]]})
    return {
        "settings": data["settings"], "games": data["games"], "errors": len(data["errors"]),
        "draft": data.get("draft", ""), "draft_mark": DRAFT_MARK,
        "capped": len(data["capped"]), "factions": factions, "names": names,
        "by_faction": balance["by_faction"], "seat": balance["seat"], "matrix": balance["matrix"],
        "lengths": balance["lengths"], "endings": balance["endings"],
        "charts": {c.name: {"name": c.name, "title": c.title, "caption": c.caption,
                            "src": _data_uri(c.svg, "image/svg+xml")} for c in charts},
        "sheet": sheet, "flagged": [c for c in sheet if c["significant"] or c["never_used"]],
        "uses": [USE_LABELS[u] for u in USES],
        "humans": _humans(data.get("humans"), db, lang),
    }


def _humans(humans: dict | None, db: CardDatabase, lang: str) -> dict | None:
    """The people's games (forge.balance.humans): each recruitment card's purchase rates by side, named."""
    if humans is None:
        return None
    names = {c.id: c.name.get(lang, c.id) for c in db.cards}
    return {**humans, "cards": [{**c, "name": names.get(c["card"], c["card"])} for c in humans["cards"]],
            "humans_only": [names.get(c, c) for c in humans["humans_only"]]}


def _uses_of(card) -> tuple[str, ...]:
    """The uses a card can have: only a recruitment card is bought, only a creature activated."""
    return tuple(u for u in USES if (u != "bought" or card.set == "recruit") and
                 (u != "activated" or card.type == "creature"))


def _proof_images(db: CardDatabase, root: Path, lang: str) -> tuple[dict[str, bytes], list[str]]:
    """Each card's printed face as a JPEG, at its text class's size (as the card renderer prints it),
    and what could not be drawn: a card the renderer refuses keeps its numbers on the sheet."""
    from ..books.anatomy import render_card  # lazy: loads forge.books only when needed
    from ..text.cardtext import load_phrasebooks  # lazy: loads forge.text only when needed

    try:
        books = load_phrasebooks(root)
        faces = {f.id: f for f in build_faces(db, books, [lang], root)[lang]}
    except Exception as exc:  # no locales or template: a sheet of numbers, said so
        return {}, [f"no card faces: {type(exc).__name__}: {exc}"]
    out, problems = {}, []
    for card in db.cards:
        try:
            out[card.id], _, _ = render_card(card, db, books[lang], lang, root, PROOF_WIDTH, face=faces.get(card.id),
                                             quality=85)
        except Exception as exc:  # one card the renderer cannot draw is named, not fatal
            problems.append(f"{card.id}: {type(exc).__name__}: {exc}")
    return out, problems


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def _pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f} %"


def _pts(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:+.1f}"
