"""The setup diagram and the worked example, as views for ``macros.html.j2``.

Both come from the game record of ``forge.books.example``: the diagram draws the table
that game was dealt (its recruitment row, its factions, each player's hand after setup 7),
the face-up cards as simplified faces (name, cost, type: a miniature of the full card, 17 mm
wide, printed its rules text at 2 pt and its name at 3.5 pt) and the piles as real card
backs from the card renderer; the example tells its last turns, one
sentence per event, worded by ``strings.yaml``'s ``example:`` phrases, with the cards
that act pictured beside each turn. Nothing here is typed: change the cards or the
rules and the record stops replaying, which the build reports.
"""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, replace
from pathlib import Path

from markupsafe import Markup

from ..engine.state import (
    MAX_CREATURES,
    RAISE_COST,
    RITE_SLOTS,
    ROW_SIZE,
    START_ALLEGIANCE,
)
from ..carddb.vocabulary import FACTIONS
from ..render.hyphen import hyphenator
from .anatomy import render_back, render_card
from .example import ACTIONS, ANSWERED, PICTURED, Example, Moment

#: Card size in the setup diagram (mm): 17 mm wide in print, the most a full A5 page's text area
#: (120 x 177 mm) holds with both players' two rows and the recruitment zone's two rows.
CARD_W = 17.0
CARD_H = round(CARD_W * 88.9 / 63.5, 1)
#: Distance between two cards side by side, and between two rows.
STEP = CARD_W + 1.5
ROW_GAP = 1.5
FIGURE_W = 120.0
#: The callouts' badge (``.callout`` in book.css): a 4.2 mm disc, placed by its top-left corner.
CALLOUT = 4.2
#: The Rites column and the Rite slots sit at the right edge; the Rites are stacked bands, their names whole
#: (a full card under three overlapping ones showed 8.4 mm of each: on a phone, a name needs three lines).
RITE_X = FIGURE_W - CARD_W
BAND_GAP = 0.6
#: Pixel width of the small card images (about 300 dpi at 17 mm).
THUMB_PX = 200
#: Cards pictured beside one turn of the example, at most.
MAX_PICTURED = 6


def _uri(data: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")


def card_image(book, card_id: str, width: int = THUMB_PX) -> str:
    """A card's face as the card renderer prints it, as a data URI (drawn once per process: ``render_card``)."""
    project = book.project
    card = project.db.by_id()[card_id]
    return _uri(render_card(card, project.db, book.L.book, book.lang, project.root, width, books=project.books)[0])


def back_image(book, kind: str, width: int = THUMB_PX) -> str:
    """A card back as a data URI (drawn once per process: ``render_back``)."""
    return _uri(render_back(kind, book.lang, book.project.root, width))


# -- the setup diagram ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Face:
    """A face-up card of the diagram, simplified to what a player reads across the table."""

    cost: str  # "" for a card without a cost (a Rite)
    kind: str  # the type word, in the book's language
    icon: Markup  # the faction's icon
    color: str  # the faction's frame colour (#rrggbb, the schema's pattern)
    soft: str  # the name with soft hyphens: only a phone's narrow table may cut it (book.css sets hyphens: none)
    band: bool = False  # a Rite of the stack: a band as tall as its share of the zone, its name at the top


@dataclass(frozen=True)
class Placed:
    """Something drawn on the table: a card image, a card's face, an empty slot or a label, at (x, y) mm."""

    kind: str  # "card", "face", "slot", "label", "counters"
    x: float
    y: float
    w: float = CARD_W
    h: float = CARD_H
    uri: str = ""
    text: str = ""
    face: Face | None = None


_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def face(book, card_id: str, x: float, y: float, h: float = CARD_H) -> Placed:
    """A face-up card as its simplified face: its name, cost, type and faction, each at 6 pt or more
    (``h`` less than a card's height: a band of the Rites' stack)."""
    card = book.cards[card_id]
    faction = next((f for f in book.project.db.factions if f.id == card.faction), None)
    color = faction.color if faction is not None and _COLOR.fullmatch(faction.color) else "#8a7a5c"
    name = book.L.name(card)
    return Placed("face", x, y, h=h, text=name, face=Face(
        "" if card.cost is None else str(card.cost), book.L.type_word(card.type),
        book.icon(card.faction) if faction is not None else Markup(""), color, _soft(name, book.lang), h < CARD_H))


def _soft(name: str, lang: str) -> str:
    """``name`` with soft hyphens in its words of 7 letters or more: pyphen's points (3 letters each side),
    or for a word its dictionary cannot cut (Berserker, Oathsworn) one cut between two consonants, the
    one nearest its middle (or before an s and a consonant)."""
    words = hyphenator({"en": "en_US", "fr": "fr_FR"}.get(lang, lang), left=3, right=3)
    out = []
    for word in name.split(" "):
        soft = words.inserted(word, hyphen="\u00ad") if len(word) >= 7 else word
        if soft == word and len(word) >= 8:
            low = word.lower()
            cuts = [i for i in range(3, len(word) - 2) if low[i - 1:i + 1].isalpha() and (
                    not set(low[i - 1:i + 1]) & set(_VOWELS) and low[i - 1:i + 1] not in _DIGRAPHS
                    or low[i - 1] in _VOWELS and low[i] == "s" and low[i + 1] not in _VOWELS)]  # Fire-storm
            if cuts:
                at = min(cuts, key=lambda i: abs(2 * i - len(word)))
                soft = word[:at] + "\u00ad" + word[at:]
        out.append(soft)
    return " ".join(out)


_VOWELS = "aeiouyàâäéèêëîïôöùûü"
_DIGRAPHS = frozenset({"ch", "ck", "gh", "ph", "sh", "th", "wh", "qu", "gn"})


def _band(book, player: int, example: Example, y: float, field_y: float, hand: int, first: bool) -> list[Placed]:
    """One player's side: deck, discard pile, hand (card backs) and counters at ``y``; below or above
    them (``field_y``), the battlefield's slots (the engine's ``MAX_CREATURES``) and the Rite slot."""
    s = book.s["setup"]
    faction = example.factions[player]
    out = [Placed("card", 0, y, uri=back_image(book, "starter")),
           Placed("slot", STEP, y, text=s["discard"])]
    for i in range(hand):
        out.append(Placed("card", HAND_X + i * 6, y, uri=back_image(book, "starter")))
    name = html.escape(book.s["game_example"]["players"][player])
    label = f"<b>{name}</b> · {book.faction(faction)}" + (f"<br/><i>{html.escape(s['first'])}</i>" if first else "")
    alleg = " ".join(f"{book.icon(f.id)}\u00a0{START_ALLEGIANCE if f.id == faction else 0}"
                     for f in book.project.db.factions)
    counters = (f"{label}<br/>{book.count(book_counts(book).health, 'health')}<br/>{alleg}<br/>"
                f"{html.escape(s['poison'])}\u00a00")
    out.append(Placed("counters", COUNTERS_X, y, w=FIGURE_W - COUNTERS_X, h=CARD_H, text=Markup(counters)))
    for i in range(MAX_CREATURES):
        out.append(Placed("slot", i * STEP, field_y, text=book.words(s["battlefield"]) if i == MAX_CREATURES // 2 else ""))
    for i in range(RITE_SLOTS):
        out.append(Placed("slot", RITE_X - i * STEP, field_y, text=s["rite_slot"]))
    return out


#: Where a player's hand and counters start (mm): after the deck and the discard pile, with room for a callout.
HAND_X = 2 * STEP + 3
COUNTERS_X = HAND_X + 4 * 6 + CARD_W + CALLOUT + 1.5
#: The recruitment row's columns (two rows of cards), and the widths of the labels under the zone (mm):
#: forge.i18n.booklabels measures the French and English labels against them.
COLUMNS = max(1, (ROW_SIZE + 1) // 2)
RECRUITMENT_LABEL_W = COLUMNS * STEP - ROW_GAP
RITES_LABEL_W = FIGURE_W - (COLUMNS + 1) * STEP


def book_counts(book):
    from . import content  # lazy: loads forge.text only when needed

    return content.counts(book.project.db)


def setup_view(book, example: Example) -> dict:
    """Everything the setup diagram draws, with its numbered callouts (the setup steps), none on a label."""
    s = book.s["setup"]
    first = example.first
    second = 1 - first
    n = book_counts(book)
    row = CARD_H + ROW_GAP
    placed: list[Placed] = []
    placed += _band(book, second, example, 0.0, row, n.hand, False)  # the opponent, across the table
    zone_y = 2 * row + 2.5
    placed.append(Placed("card", 0, zone_y, uri=back_image(book, "recruit")))
    placed.append(Placed("slot", 0, zone_y + row, text=s["exile"]))
    columns = COLUMNS
    for i, card_id in enumerate(example.row):
        placed.append(face(book, card_id, STEP + (i % columns) * STEP, zone_y + (i // columns) * row))
    rites = max(1, len(example.rites))  # stacked as bands sharing the zone's two rows: each name shows whole
    band = (2 * CARD_H + ROW_GAP - (rites - 1) * BAND_GAP) / rites
    for i, card_id in enumerate(example.rites):
        placed.append(face(book, card_id, RITE_X, round(zone_y + i * (band + BAND_GAP), 2), round(band, 2)))
    zone_bottom = zone_y + 2 * CARD_H + ROW_GAP + 0.8
    placed.append(Placed("label", STEP, zone_bottom, w=RECRUITMENT_LABEL_W, h=4, text=book.words(s["recruitment"])))
    placed.append(Placed("label", (columns + 1) * STEP, zone_bottom, w=RITES_LABEL_W, h=4, text=s["rites"]))
    player_y = zone_bottom + 5 + row  # the first player's battlefield, then their cards
    placed += _band(book, first, example, player_y, player_y - row, 3, True)
    gap_x = COUNTERS_X - CALLOUT - 0.6  # between the hand and the counters
    callouts = [  # (setup step, x, y): beside what the step sets up, never on a label
        (1, gap_x, 0.5), (1, gap_x, player_y + 0.5), (2, -CALLOUT - 0.5, player_y + 3),
        (3, gap_x, player_y + 7), (4, -CALLOUT - 0.5, zone_y + 3), (5, RITE_X - CALLOUT - 0.5, zone_y + 3),
        (6, gap_x, player_y + CARD_H - CALLOUT), (7, HAND_X + 1, player_y + 3), (7, HAND_X + 1, 3.0)]
    return {"placed": [replace(p, x=round(p.x, 2), y=round(p.y, 2), w=round(p.w, 2), h=round(p.h, 2)) for p in placed],
            "callouts": [{"n": n, "x": round(x, 2), "y": round(y, 2)} for n, x, y in callouts],
            "width": FIGURE_W, "height": round(player_y + CARD_H, 1), "caption": s["caption"]}


# -- the worked example ---------------------------------------------------------------------------
def _name(book, card_id: str) -> str:
    card = book.cards.get(card_id)
    return f'<span class="card">{html.escape(book.L.name(card) if card else card_id, quote=False)}</span>'


#: Events whose sentence says where their card went: the phrase ``<event>_<zone>`` is chosen by the
#: zone the replayed state holds the card in after the event (a phrase that names no zone otherwise).
_PLACED = frozenset({"destroy", "buy", "rift", "bounce", "recover", "discard"})


def phrase_key(event: dict, after: Moment, line) -> str:
    """The phrase that tells ``event``, chosen by the replayed state after it, never assumed: a summoned
    creature ready or exhausted, the zone a card went to, a Wound that nothing can block, a keep that
    discards nothing."""
    kind = event.get("e", "")
    cid = event.get("cid")
    if kind == "summon" and cid is not None and cid in after.zone:
        return "summon_exhausted" if cid in after.exhausted else "summon_ready"
    if kind in _PLACED and cid is not None and cid in after.zone:
        return f"{kind}_{after.zone[cid]}"
    if kind == "keep" and not event.get("m"):
        return "keep_none"
    if kind == "wound" and line is not None and line.verb == "unblockable_wound":
        return "wound_unblockable"
    return kind


def _sentence(book, event: dict, after: Moment, phrases: dict, players: list[str], line=None,
              source: str | None = None) -> str | None:
    """One event as a sentence of the book's language, or None when the phrases have none for it.

    Every fact the sentence states is read from ``after``, the replayed table right after the event:
    the health a Wound leaves, where the card went, whether a creature came in ready."""
    kind = event.get("e")
    template = phrases.get(phrase_key(event, after, line)) or phrases.get(kind)
    if not template:
        return None
    p = event.get("player", 0)
    values = {"player": html.escape(players[p]), "other": html.escape(players[1 - p]), "n": event.get("n", 0),
              "m": event.get("m", 0), "max": book_counts(book).max_allegiance}
    if "card" in event:
        values["card"] = _name(book, event["card"])
    if "rite" in event:
        values["card"] = _name(book, event["rite"])
    if "target" in event:
        values["target"] = html.escape(players[event["target"]])
        values["health"] = max(0, after.health[event["target"]])
        values["source"] = _name(book, source) if source else html.escape(players[p])
    if "faction" in event:
        values["faction_name"] = str(book.faction(FACTIONS[event["faction"]]))
    return str(book.fill(str(template), **values))


#: The section a card's own action reads: its lines are that action's, the text names no other cause.
_OWN_SECTION = {"play": "effects", "trap": "effects", "trap_window": "effects", "activate": "activate"}


def _cause_line(book, cause: dict):
    """The printed line a ``resolve`` event names, and its trigger when it is one: (line, trigger)."""
    card = book.cards.get(cause["card"])
    if card is None:
        return None, None
    if cause["section"] == "triggers":
        pairs = [(ln, t) for t in card.triggers for ln in t.lines]
    else:
        pairs = [(ln, None) for ln in getattr(card, cause["section"], ())]
    return pairs[cause["index"]] if 0 <= cause["index"] < len(pairs) else (None, None)


def _cause(book, cause: dict, players: list[str]) -> str:
    """Why the next events happen, when it is not the action they follow: "At the end of the turn,
    Theo's Void Archivist takes effect:"."""
    _, trigger = _cause_line(book, cause)
    template = book.s["game_example"]["causes"].get(cause["section"], "")
    values = {"card": _name(book, cause["card"]), "player": html.escape(players[cause["player"]])}
    if trigger is not None:
        values["trigger"] = book.trigger(trigger.event, trigger.actor, capital=False)
    return str(book.fill(str(template), **values))


def _told(event: dict, cause: dict | None, line) -> dict:
    """The event as the text tells it: an exile says where the card came from (the line that exiled it)."""
    if event.get("e") == "exile" and line is not None and cause is not None and line.verb == "exile":
        return {**event, "e": f"exile_{line.arg('from')}"}
    return event


def example_view(book, example: Example) -> list[dict]:
    """The shown turns: title, the table at the start, pictured cards and paragraphs of sentences.

    Every sentence says why it happens: an action starts a paragraph, the events of the lines it reads
    follow it, and the effects of another card's line (a trigger, a Demise, an end-of-turn effect)
    are introduced by that card and section, from the record's ``resolve`` events; a raise and an end
    of turn are the decisions that cause what follows them."""
    ex = book.s["game_example"]
    players = [str(p) for p in ex["players"]]
    out = []
    for turn in example.turns:
        p = turn.player
        paragraphs: list[list[str]] = []
        pictured: list[str] = []
        previous: dict = {}
        own: tuple | None = None  # (card, section) of the paragraph's action: its lines need no cause
        cause: dict | None = None  # the line being read (the last ``resolve``)
        told: tuple | None = None  # the cause the text last named
        cleanup = False
        for event, after in turn.events:
            kind = event.get("e")
            if kind == "resolve":
                if not (cause and (cause["card"], cause["section"]) == (event["card"], event["section"])
                        and event["index"] > cause["index"]):
                    told = None  # a new reading of a card's lines (a trigger firing again): named again
                cause, previous = event, event
                continue
            if kind == "draw" and previous.get("e") in ("trap", "trap_window") and previous.get("player") == event.get("player"):
                previous = event
                continue  # the trap's own sentence says its player draws a card
            if kind == "destroy" and previous.get("e") == "guard" and previous.get("card") == event.get("card"):
                previous = event
                continue  # the guard's own sentence says the guarding creature is destroyed
            if kind == "trap" and previous.get("e") in ANSWERED and previous.get("player") != event.get("player"):
                event = {**event, "e": "trap_window"}
            line, _ = _cause_line(book, cause) if cause else (None, None)
            if kind == "draw" and cleanup and not (previous.get("e") == "resolve" and line is not None
                                                   and line.verb == "draw"):
                event = {**event, "e": "draw_cleanup"}  # cleanup step 5, a rule: not the last line read
            if kind in ACTIONS or kind in ("keep",) or event["e"] == "draw_cleanup":
                cause = told = None  # an action, or a rule of the cleanup: what follows is its own
                own = (event.get("card"), _OWN_SECTION.get(event["e"]))
                cleanup = cleanup or kind == "end"
            previous = event
            if kind == "raise":
                event = {**event, "n": RAISE_COST}
            sentence = _sentence(book, _told(event, cause, line), after, ex["events"], players, line,
                                 cause["card"] if cause else None)
            if sentence is None:
                continue
            if event["e"] in ACTIONS or event["e"] == "trap_window" or not paragraphs:
                paragraphs.append([])
            key = (cause["card"], cause["section"]) if cause else None
            if cause is not None and key != own and key != told:
                sentence = f"{_cause(book, cause, players)} {_after_colon(book, sentence)}"
                told = key
            paragraphs[-1].append(sentence)
            card_id = event.get("card") or event.get("rite")
            if kind in PICTURED and card_id and card_id not in pictured:
                pictured.append(card_id)
        out.append({
            "title": book.fill(str(ex["title"]), turn=turn.number, player=html.escape(players[p])),
            "start": [Markup(_start(book, turn.start, q, players, example)) for q in (p, 1 - p)],
            "pictures": [{"uri": card_image(book, c), "name": book.L.name(book.cards[c])} for c in pictured[:MAX_PICTURED]],
            "paragraphs": [Markup(" ".join(par)) for par in paragraphs]})
    return out


def _after_colon(book, sentence: str) -> str:
    """A sentence set after a cause's colon: a common word loses its capital ("the effect…"), a name keeps it."""
    if sentence.startswith("<") or not sentence[:1].isupper():
        return sentence
    first = sentence.split(" ", 1)[0].strip(",.;:")
    names = set(book.s["game_example"]["players"])
    return sentence if first in names else sentence[:1].lower() + sentence[1:]


def _start(book, moment, player: int, players: list[str], example: Example) -> str:
    ex = book.s["game_example"]
    alleg = ", ".join(f"{book.icon(f)}\u00a0{moment.allegiance[player][i]}" for i, f in enumerate(FACTIONS)
                      if moment.allegiance[player][i])
    field = ", ".join(_name(book, c) for c in moment.field[player]) or html.escape(ex["nothing"])
    return book.fill(str(ex["start"]), player=html.escape(players[player]), faction=book.faction(example.factions[player]),
                     health=moment.health[player], allegiance=alleg or "0", field=field)


def record_path(project) -> Path | None:
    return project.source("example.jsonl")
