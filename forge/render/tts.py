"""Tabletop Simulator: face sheets per deck and a saved object that loads every deck with card names.

A TTS custom deck is a grid image of at most 10 × 7 cards and at most 4096 px a
side; the grid's last slot is the "hidden" image other players see when a card
is in someone's hand, so a sheet holds at most 69 designs.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from .face import CardFace
from .raster import TTS_CELL

MAX_COLS, MAX_ROWS = 10, 7
MAX_PER_SHEET = MAX_COLS * MAX_ROWS - 1


@dataclass(frozen=True)
class Deck:
    """One TTS deck: its key (file names), title, back kind and physical cards in order."""

    key: str
    title: str
    back: str
    cards: tuple[CardFace, ...]  # one entry per physical card

    def designs(self) -> list[CardFace]:
        seen: dict[str, CardFace] = {}
        for c in self.cards:
            seen.setdefault(c.id, c)
        return list(seen.values())

    def sheets(self) -> list[list[CardFace]]:
        d = self.designs()
        return [d[i:i + MAX_PER_SHEET] for i in range(0, len(d), MAX_PER_SHEET)]


def grid_for(n: int) -> tuple[int, int]:
    """Columns and rows for ``n`` designs plus the hidden slot (at least 2 × 2, as TTS asks)."""
    cols = min(MAX_COLS, max(2, n + 1))
    rows = max(2, math.ceil((n + 1) / cols))
    if rows > MAX_ROWS:
        raise ValueError(f"{n} designs do not fit one sheet")
    return cols, rows


def decks_for(faces: list[CardFace], faction_names: dict[str, str], titles: dict[str, str]) -> list[Deck]:
    """The decks a game needs on the table: recruitment, each faction's starter deck, the Rites."""
    out = [Deck("recruit", titles["recruit"], "recruit",
                tuple(f for f in faces if f.set == "recruit" for _ in range(f.copies)))]
    for fid, fname in faction_names.items():
        starter = tuple(f for f in faces if f.set == "starter" and f.faction in (None, fid)
                        for _ in range(f.deck_copies))
        out.append(Deck(f"starter-{fid}", f"{titles['starter']} — {fname}", "starter", starter))
    out.append(Deck("rites", titles["rite"], "rite", tuple(f for f in faces if f.set == "rite")))
    return [d for d in out if d.cards]


def compose_sheet(images: list, hidden, cols: int, rows: int):
    """Paste cell images row-major; the hidden image goes in the very last slot."""
    from PIL import Image

    cw, ch = TTS_CELL
    sheet = Image.new("RGB", (cols * cw, rows * ch), (24, 22, 30))
    for i, img in enumerate(images):
        r, c = divmod(i, cols)
        sheet.paste(img, (c * cw, r * ch))
    sheet.paste(hidden, ((cols - 1) * cw, (rows - 1) * ch))
    return sheet


def _guid(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:6]


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def saved_object(decks: list[Deck], lang: str, sheet_urls: dict[tuple[str, int], str],
                 back_urls: dict[str, str]) -> dict:
    """The Saved Object JSON: one DeckCustom per deck, each card with its name and text."""
    states = []
    deck_number = 0
    for di, deck in enumerate(decks):
        custom: dict[str, dict] = {}
        slot: dict[str, int] = {}
        for si, sheet in enumerate(deck.sheets()):
            deck_number += 1
            cols, rows = grid_for(len(sheet))
            custom[str(deck_number)] = {
                "FaceURL": sheet_urls[(deck.key, si)], "BackURL": back_urls[deck.back],
                "NumWidth": cols, "NumHeight": rows, "BackIsHidden": False, "UniqueBack": False, "Type": 0,
            }
            for i, face in enumerate(sheet):
                slot[face.id] = deck_number * 100 + i
        contained, ids = [], []
        for n, face in enumerate(deck.cards):
            cid = slot[face.id]
            ids.append(cid)
            contained.append({
                "Name": "Card", "Nickname": face.name,
                "Description": "\n".join(list(face.plain_lines) + ([face.flavor] if face.flavor else [])),
                "GMNotes": face.id, "CardID": cid,
                "CustomDeck": {str(cid // 100): custom[str(cid // 100)]},
                "Transform": _transform(di * 3.0), "GUID": _guid(f"{lang}/{deck.key}/{n}/{face.id}"),
            })
        obj = {"Name": "DeckCustom", "Nickname": deck.title, "Description": f"Rift Commanders ({lang})",
               "Transform": _transform(di * 3.0), "DeckIDs": ids, "CustomDeck": custom,
               "ContainedObjects": contained, "GUID": _guid(f"{lang}/{deck.key}")}
        if len(contained) == 1:  # TTS wants a lone card as a Card, not a one-card deck
            obj = dict(contained[0], Transform=_transform(di * 3.0))
        states.append(obj)
    return {"SaveName": f"Rift Commanders ({lang})", "GameMode": "", "Date": "", "VersionNumber": "",
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": states}
