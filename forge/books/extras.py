"""The components figure and the pages that fill a booklet's last sheet, built from the cards and the engine.

A saddle-stitched booklet has a multiple of 4 pages; the pages between the text and the back
cover that make up the count are not left blank ("Notes"): each is one of ``EXTRA_PAGES``, in
order, as many as the imposition needs (``forge.books.pdf`` asks for them): the turn as a flow
(the engine's ``TURN_PHASES`` and ``PLAY_STEPS``), the factions at a glance and the keywords each
faction uses (counted from the cards). Their words are strings.yaml's and the locales'.
"""
from __future__ import annotations

from collections import Counter
import base64
import io

from markupsafe import Markup

from ..engine.state import PLAY_STEPS, TURN_PHASES
from . import content
from .table import back_image, card_image
from ..render.raster import render_pages
from .anatomy import _PICTURES

#: The filler pages, in the order a book takes them (at most 3 are ever needed: 4 pages a sheet).
EXTRA_PAGES: tuple[str, ...] = ("turn_flow", "factions_glance", "keyword_use")
#: The card backs the components figure shows (``forge.render.draw.draw_back``'s designs).
BACKS: tuple[str, ...] = ("deck", "rite")
#: The card-size player aids and the mat the kit prints, one per player each (``forge.render.aids.FRONTS``).
TRACKERS: tuple[str, ...] = ("turn", "health", "allegiance", "mat")
#: Pixel width of the pieces' pictures (300 dpi at 10 mm).
PIECE_PX = 120
#: Pixel width of the components' card pictures (300 dpi at 20 mm).
COMPONENT_PX = 240


def _type_order(book) -> list[str]:
    types = list(book.L.book.section("types"))
    present = {c.type for c in book.project.db.cards}
    return [t for t in types if t in present]


def example_of_type(db, card_type: str):
    """The card that shows a type: the first of the recruitment set in database order, else any."""
    cards = [c for c in db.cards if c.type == card_type]
    return next((c for c in cards if c.set == "recruit"), cards[0] if cards else None)


def faction_counts(db, types: list[str]) -> list[dict]:
    """Physical cards in the box per faction (then the neutral ones) and type, with each row's total."""
    rows = []
    for fid in [f.id for f in db.factions] + [None]:
        mine = [c for c in db.cards if (c.faction == fid if fid else not c.factions)]
        by_type = Counter()
        for c in mine:
            by_type[c.type] += db.box_count(c)
        if mine:
            rows.append({"faction": fid, "cells": [by_type.get(t, 0) for t in types], "total": sum(by_type.values())})
    return rows


def _piece_uri(tpl, aids, what: str) -> str:
    """A piece as the token sheet draws it (``forge.render.aiddocs``), rasterised: a data URI."""
    from ..render.aiddocs import _token_page  # lazy: loads reportlab, yaml only when needed

    if not _PICTURES.get():
        return ""
    image = render_pages(_token_page(tpl, aids, what), (PIECE_PX, PIECE_PX))[0]
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def pieces(book) -> tuple[list[dict], list[dict]]:
    """The pieces (markers, counters) and the trackers the kit prints, named by the card template's
    ``labels.<lang>.aids`` and counted as the aids count them (``token_plan``, ``counters_wanted``)."""
    from ..render.aids import aid_set, counters_wanted, token_plan  # lazy: loads reportlab, yaml only when needed
    from ..render.template import load_template  # lazy: loads reportlab, yaml only when needed

    project = book.project
    tpl = load_template(project.root)
    aids = aid_set(tpl, book.L.book, book.lang, project.db.factions)
    plan = token_plan(aids)
    wanted = counters_wanted(aids.numbers)
    out = [{"uri": _piece_uri(tpl, aids, "health"), "name": aids.word("health_marker"),
            "count": sum(kind == "health" for kind, _ in plan)}]
    out += [{"uri": _piece_uri(tpl, aids, f"marker-{f[0]}"), "name": f"{aids.word('allegiance_marker')} · {f[3]}",
             "count": sum(kind == "allegiance" and m == f for kind, m in plan)} for f in aids.factions]
    out += [{"uri": _piece_uri(tpl, aids, k), "name": aids.word(k), "count": wanted} for k in ("poison", "essence")]
    trackers = [{"name": aids.word(k), "count": aids.numbers.players} for k in TRACKERS]
    return out, trackers


def components_view(book) -> dict:
    """The components figure: a picture of each card type and back, the counts per faction, the pieces."""
    db = book.project.db
    types = _type_order(book)
    by_type = Counter()
    for c in db.cards:
        by_type[c.type] += db.box_count(c)
    cards = []
    for t in types:
        card = example_of_type(db, t)
        cards.append({"uri": card_image(book, card.id, COMPONENT_PX), "name": book.L.name(card),
                      "title": book.d_type(t), "count": by_type[t]})
    words = book.s["components"]
    backs = [{"uri": back_image(book, kind, COMPONENT_PX), "title": words["backs"][kind]} for kind in BACKS]
    rows = faction_counts(db, types)
    totals = [sum(r["cells"][i] for r in rows) for i in range(len(types))]
    for row in rows:
        row["title"] = book.faction(row["faction"]) if row["faction"] else words["neutral"]
    tokens, trackers = pieces(book)
    return {"cards": cards, "backs": backs, "types": [book.d_type(t) for t in types], "rows": rows,
            "totals": totals, "total": sum(totals), "tokens": tokens, "trackers": trackers, "words": words}


# -- the filler pages -------------------------------------------------------------------------------------
def turn_flow(book) -> dict:
    """The turn as the engine plays it: its phases in order, then the six steps of every card played."""
    q = book.s["quick"]
    f = book.s["extras"]["turn_flow"]
    summon = str(book.words(q["summon_rush" if any(c.keywords.rush for c in book.project.db.cards) else "summon"]))
    phases = [{"n": i, "title": book.words(q["phases"][p]["title"]),
               "text": Markup(str(book.words(q["phases"][p]["text"])).replace("{summon}", summon))}
              for i, p in enumerate(TURN_PHASES, start=1)]
    steps = [{"n": i, "title": book.step(k), "text": book.words(f["steps"][k])} for i, k in enumerate(PLAY_STEPS, start=1)]
    return {"title": f["title"], "intro": book.words(f["intro"]), "phases": phases, "steps": steps,
            "steps_title": book.words(q["steps_title"]), "next": book.words(f["next"])}


def factions_glance(book) -> dict:
    """Each faction: its cards by type and by cost (the recruitment set), its most used keywords, its Rite."""
    db = book.project.db
    f = book.s["extras"]["factions_glance"]
    types = _type_order(book)
    out = []
    for faction in db.factions:
        mine = [c for c in db.cards if c.faction == faction.id]
        by_type = Counter()
        for c in mine:
            by_type[c.type] += db.box_count(c)
        costs = Counter()
        for c in mine:
            if c.set == "recruit" and c.cost is not None:
                costs[c.cost] += c.copies
        uses = Counter(k for c in mine for k in content.card_constructs(c) if k in content.KEYWORD_KEYS)
        keywords = [book.kw(k) for k, _ in sorted(uses.items(), key=lambda kv: (-kv[1], content.KEYWORD_KEYS.index(kv[0])))[:4]]
        rite = book.rite_of(faction.id)
        out.append({"id": faction.id, "title": book.faction(faction.id),
                    "types": [(book.d_type(t), by_type[t]) for t in types if by_type[t]],
                    "costs": sorted(costs.items()), "most": max(costs.values()) if costs else 1,
                    "keywords": book.join(keywords) if keywords else "", "rite": book.card(rite.id) if rite else ""})
    return {"title": f["title"], "intro": book.words(f["intro"]), "factions": out, "words": f}


def keyword_use(book) -> dict:
    """How many card designs of each faction (and neutral) use each keyword the cards print."""
    db = book.project.db
    f = book.s["extras"]["keyword_use"]
    columns = [(fac.id, book.icon(fac.id)) for fac in db.factions]
    rows = []
    for key in content.KEYWORD_KEYS:
        users = content.cards_using(db, key)
        if users:
            rows.append({"kw": book.kw(key), "cells": [sum(c.faction == fid for c in users) for fid, _ in columns],
                         "total": len(users)})
    return {"title": f["title"], "intro": book.words(f["intro"]), "columns": columns, "rows": rows, "words": f}


def extra_pages(book) -> list[Markup]:
    """Every filler page, in ``EXTRA_PAGES`` order, as HTML (the tail takes as many as the booklet needs)."""
    views = {"turn_flow": turn_flow, "factions_glance": factions_glance, "keyword_use": keyword_use}
    return [book.render_macro(name, views[name](book)) for name in EXTRA_PAGES]
