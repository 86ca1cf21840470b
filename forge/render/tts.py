"""Tabletop Simulator: face sheets per deck and a saved object that loads every deck with card names.

A TTS custom deck is a grid image of at most 10 × 7 cards and at most 4096 px a
side; the grid's last slot is the "hidden" image other players see when a card
is in someone's hand, so a sheet holds at most 69 designs.

The folder of a language mirrors TTS's own data folder (Documents/My Games/Tabletop
Simulator): the images in ``Mods/Images``, where TTS finds an image named by its file
name alone, and the saved object in ``Saves/Saved Objects``, where the Objects menu
lists it. Copying what the folder holds into TTS's data folder installs the game; the
saved object names every image by its bare file name (or, with ``--tts-url``, by its
hosted URL), never by a path of the machine that rendered it.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from .aiddocs import token_kinds
from .face import BACK_OF_SET, CardFace
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
    """The decks a game needs on the table: recruitment, each faction's starter deck, the Rites; each with
    its set's back (the recruitment and starter decks the same one: their cards mix in decks and hands)."""
    out = [Deck("recruit", titles["recruit"], BACK_OF_SET["recruit"],
                tuple(f for f in faces if f.set == "recruit" for _ in range(f.copies)))]
    for fid, fname in faction_names.items():
        starter = tuple(f for f in faces if f.set == "starter" and f.faction in (None, fid)
                        for _ in range(f.deck_copies))
        out.append(Deck(f"starter-{fid}", f"{titles['starter']} — {fname}", BACK_OF_SET["starter"], starter))
    out.append(Deck("rites", titles["rite"], BACK_OF_SET["rite"], tuple(f for f in faces if f.set == "rite")))
    return [d for d in out if d.cards]


def compose_sheet(images: list, hidden, cols: int, rows: int):
    """Paste cell images row-major; the hidden image goes in the very last slot."""
    from PIL import Image  # lazy: loads PIL only when needed

    cw, ch = TTS_CELL
    sheet = Image.new("RGB", (cols * cw, rows * ch), (24, 22, 30))
    for i, img in enumerate(images):
        r, c = divmod(i, cols)
        sheet.paste(img, (c * cw, r * ch))
    sheet.paste(hidden, ((cols - 1) * cw, (rows - 1) * ch))
    return sheet


def tts_name(lang: str, stem: str, ext: str) -> str:
    """An image's file name: TTS finds images copied into its Mods/Images folder by name alone,
    and that folder is shared by every game, so the name says whose and which language."""
    return f"rift-commanders-{lang}-{stem}.{ext}"


#: Where TTS keeps images and saved objects, under its data folder; the output mirrors both.
IMAGES_DIR, SAVED_OBJECTS_DIR = "Mods/Images", "Saves/Saved Objects"


def image_rel(lang: str, stem: str, ext: str) -> str:
    """Where an image goes in the output folder (``tts/<lang>/Mods/Images/<name>``)."""
    return f"tts/{lang}/{IMAGES_DIR}/{tts_name(lang, stem, ext)}"


def save_rel(lang: str, ext: str = "json") -> str:
    """The saved object (``json``) and its thumbnail in the Objects menu (``png``, same name)."""
    return f"tts/{lang}/{SAVED_OBJECTS_DIR}/rift-commanders-{lang}.{ext}"


def _guid(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:6]


def _transform(x: float, z: float = 0.0, face_up: bool = False, scale: float = 1.0, turn: float = 180.0) -> dict:
    """Where an object lies; a card lying face down is turned over its long axis (rotZ 180)."""
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": turn, "rotZ": 0.0 if face_up else 180.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _card(face: CardFace, cid: int, custom: dict, transform: dict, guid: str) -> dict:
    return {"Name": "Card", "Nickname": face.name,
            "Description": "\n".join(list(face.plain_lines) + ([face.flavor] if face.flavor else [])),
            "GMNotes": face.id, "CardID": cid, "CustomDeck": {str(cid // 100): custom},
            "Transform": transform, "GUID": guid}


#: Decks set out face up (setup 5: "Place the 4 Rites face up next to the recruitment zone"), one card each.
FACE_UP = ("rite",)


def saved_object(decks: list[Deck], lang: str, url, table: list[dict] | None = None) -> dict:
    """The Saved Object JSON: one DeckCustom per deck, each card with its name and text; the Rites laid
    out face up one by one; then ``table`` (the players' mats, aids and tokens).

    ``url(name)`` is where TTS finds the image file ``name``: a hosted URL, or the bare name.
    """
    states = []
    deck_number = 0
    for di, deck in enumerate(decks):
        custom: dict[str, dict] = {}
        slot: dict[str, int] = {}
        for si, sheet in enumerate(deck.sheets()):
            deck_number += 1
            cols, rows = grid_for(len(sheet))
            custom[str(deck_number)] = {
                "FaceURL": url(tts_name(lang, f"{deck.key}-{si + 1}", "jpg")),
                "BackURL": url(tts_name(lang, f"back-{deck.back}", "png")),
                "NumWidth": cols, "NumHeight": rows, "BackIsHidden": False, "UniqueBack": False, "Type": 0,
            }
            for i, face in enumerate(sheet):
                slot[face.id] = deck_number * 100 + i
        face_up = deck.back in FACE_UP
        contained, ids = [], []
        for n, face in enumerate(deck.cards):
            cid = slot[face.id]
            ids.append(cid)
            where = _transform(di * 3.0 + n * 2.6, 4.0, True) if face_up else _transform(di * 3.0)
            guid = _guid(f"{lang}/{deck.key}/{n}/{face.id}")
            contained.append(_card(face, cid, custom[str(cid // 100)], where, guid))
        if face_up:  # laid out one by one, every card visible
            states += contained
            continue
        obj = {"Name": "DeckCustom", "Nickname": deck.title, "Description": f"Rift Commanders ({lang})",
               "Transform": _transform(di * 3.0), "DeckIDs": ids, "CustomDeck": custom,
               "ContainedObjects": contained, "GUID": _guid(f"{lang}/{deck.key}")}
        if len(contained) == 1:  # TTS wants a lone card as a Card, not a one-card deck
            obj = dict(contained[0], Transform=_transform(di * 3.0))
        states.append(obj)
    states += table or []
    return {**SAVED_OBJECT_FIELDS, "ObjectStates": states}


#: A saved object's outer fields, as TTS writes them for one (a saved game fills them; a saved object leaves
#: them empty or at their defaults): no date nor version, so the file is the same on every run and machine.
SAVED_OBJECT_FIELDS: dict = {
    "SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
    "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
    "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
}


def _tile(name: str, image: str, transform: dict, guid: str) -> dict:
    """A round, stackable custom tile (a counter or a track marker)."""
    return {"Name": "Custom_Tile", "Nickname": name, "Transform": transform, "GUID": guid,
            "CustomImage": {"ImageURL": image, "ImageSecondaryURL": image, "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": 2, "Thickness": 0.1, "Stackable": True, "Stretch": True}}}


def table_objects(aids, sides: dict, lang: str, url, first_deck: int = 1000) -> list[dict]:
    """Each player's mat (a Custom_Board), aid cards and track markers, and bags of counters that never run out.

    ``aids`` is the language's ``AidSet``; ``sides`` maps each aid front to its back (both ``Aid``).
    """
    out = []
    tokens = token_kinds(aids)
    for player in range(aids.numbers.players):
        z = -16.0 if player == 0 else 16.0
        turn = 0.0 if player == 0 else 180.0
        out.append({"Name": "Custom_Board", "Nickname": aids.word("mat"), "Description": f"Rift Commanders ({lang})",
                    "Transform": dict(_transform(0.0, z, True, turn=turn), posY=0.9), "Locked": False,
                    "GUID": _guid(f"{lang}/mat/{player}"),
                    "CustomImage": {"ImageURL": url(tts_name(lang, "mat", "jpg")), "ImageSecondaryURL": "",
                                    "ImageScalar": 1.0, "WidthScale": 0.0}})
        for i, (front, back) in enumerate(sides.items()):
            deck = first_deck + 10 * player + i
            out.append({"Name": "CardCustom", "Nickname": front.name, "CardID": deck * 100,
                        "CustomDeck": {str(deck): {"FaceURL": url(tts_name(lang, front.id, "png")),
                                                   "BackURL": url(tts_name(lang, back.id, "png")),
                                                   "NumWidth": 1, "NumHeight": 1, "BackIsHidden": True,
                                                   "UniqueBack": False, "Type": 0}},
                        "Transform": _transform(14.0 + 3.0 * i, z, True, turn=turn),
                        "GUID": _guid(f"{lang}/aid/{player}/{front.id}")})
        names = {f"marker-{fid}": f"{aids.word('allegiance_marker')} — {name}" for fid, _, _, name in aids.factions}
        names["health"] = aids.word("health_marker")
        for i, kind in enumerate(k for k in tokens if k in names):
            out.append(_tile(names[kind], url(tts_name(lang, kind, "png")),
                             _transform(-14.0 + 1.2 * i, z, True, 0.35, turn), _guid(f"{lang}/marker/{player}/{kind}")))
    for i, kind in enumerate(("poison", "essence")):
        tile = _tile(aids.word(kind), url(tts_name(lang, kind, "png")), _transform(0.0, 0.0, True, 0.5),
                     _guid(f"{lang}/token/{kind}"))
        out.append({"Name": "Infinite_Bag", "Nickname": aids.word(kind), "ContainedObjects": [tile],
                    "Transform": _transform(-8.0 - 3.0 * i, 0.0, True), "GUID": _guid(f"{lang}/bag/{kind}")})
    return out
