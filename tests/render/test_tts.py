"""Tabletop Simulator output read back: a folder that imports as it is, the same bytes from any folder,
the Rites face up, each player's mat, aid cards and markers, and bags of counters."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forge.engine import state
from forge.render.cards import RenderOptions, render_cards

from .helpers import books, mini_db

from ..conftest import invoke

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
HOSTED = "https://example.invalid/rift/"


def render(out: Path, **over):
    opts = RenderOptions(out=out, workers=2, profiles=("tts",), **over)
    return render_cards(mini_db(), books(), REPO, opts)


@pytest.fixture(scope="module")
def two_folders(tmp_path_factory):
    """The same game rendered into two unrelated folders, at different depths."""
    a = tmp_path_factory.mktemp("first") / "output"
    b = tmp_path_factory.mktemp("second") / "deeper" / "somewhere" / "else"
    ra, rb = render(a), render(b)
    assert ra.findings == [] and rb.findings == []
    return a, b


def save_file(out: Path, lang: str) -> Path:
    return out / f"tts/{lang}/Saves/Saved Objects/rift-commanders-{lang}.json"


def saved(out: Path, lang: str) -> dict:
    return json.loads(save_file(out, lang).read_text(encoding="utf-8"))


def image(out: Path, lang: str, name: str) -> Path:
    """Where the folder keeps an image the saved object names: Mods/Images, as in TTS's data folder."""
    return out / "tts" / lang / "Mods" / "Images" / name


def urls(node, key: str = "") -> list[str]:
    """Every image reference in a saved object (any key ending in URL), nested objects included."""
    if isinstance(node, dict):
        return [u for k, v in node.items() for u in urls(v, k)]
    if isinstance(node, list):
        return [u for v in node for u in urls(v, key)]
    return [node] if key.endswith("URL") and isinstance(node, str) and node else []


def test_the_folder_is_byte_identical_from_two_output_folders(two_folders):
    a, b = two_folders
    files_a = sorted(p.relative_to(a) for p in (a / "tts").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in (b / "tts").rglob("*") if p.is_file())
    assert files_a == files_b and len(files_a) > 20
    assert [str(f) for f in files_a if (a / f).read_bytes() != (b / f).read_bytes()] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_url_points_at_the_build_machine(two_folders, lang):
    a, _ = two_folders
    obj = saved(a, lang)
    text = save_file(a, lang).read_text(encoding="utf-8")
    assert "file:" not in text and str(a) not in text and str(a.parent) not in text
    assert not re.search(r'"(/|[A-Za-z]:\\\\)', text)  # no absolute path, Unix or Windows
    refs = urls(obj)
    assert len(refs) > 10
    for ref in refs:
        assert "/" not in ref and "\\" not in ref, ref  # a bare name, which TTS looks up in Mods/Images
        assert image(a, lang, ref).is_file(), ref
        assert ref.startswith(f"rift-commanders-{lang}-")  # unique in TTS's shared Mods/Images folder


def test_hosted_images_are_referenced_under_the_base_url(tmp_path):
    out = tmp_path / "output"
    render(out, tts_base_url=HOSTED, langs=("fr",))
    refs = urls(saved(out, "fr"))
    assert refs and all(r.startswith("https://example.invalid/rift/fr/") for r in refs)
    for ref in refs:
        lang, name = ref[len("https://example.invalid/rift/"):].split("/")
        assert image(out, lang, name).is_file(), ref


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rites_spawn_face_up_and_the_decks_face_down(two_folders, lang):
    a, _ = two_folders
    objects = saved(a, lang)["ObjectStates"]
    rites = [c.id for c in mini_db().cards if c.set == "rite"]
    face_up = [o for o in objects if o.get("GMNotes") in rites]
    assert len(face_up) == len(rites) and all(o["Transform"]["rotZ"] == 0.0 for o in face_up)
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    assert decks and all(d["Transform"]["rotZ"] == 180.0 for d in decks)
    assert not any(c.get("GMNotes") in rites for d in decks for c in d["ContainedObjects"])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_player_gets_a_mat_aid_cards_and_markers(two_folders, lang):
    from PIL import Image

    a, _ = two_folders
    objects = saved(a, lang)["ObjectStates"]
    boards = [o for o in objects if o["Name"] == "Custom_Board"]
    assert len(boards) == state.PLAYERS
    mat = image(a, lang, boards[0]["CustomImage"]["ImageURL"])
    with Image.open(mat) as im:
        assert im.format == "JPEG" and im.width > im.height >= 1000  # the landscape mat, readable on the table
    aids = [o for o in objects if o["Name"] == "CardCustom"]
    assert len(aids) == 3 * state.PLAYERS
    turn = [o for o in aids if o["CustomDeck"][str(o["CardID"] // 100)]["FaceURL"].endswith("aid-turn.png")]
    assert len(turn) == state.PLAYERS
    assert all(o["CustomDeck"][str(o["CardID"] // 100)]["BackURL"].endswith("aid-wound.png") for o in turn)
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    assert len(tiles) == state.PLAYERS * (1 + len(mini_db().factions))  # health and one per faction
    assert all(t["CustomImage"]["CustomTile"]["Type"] == 2 for t in tiles)  # round


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_counters_come_from_bags_that_never_run_out(two_folders, lang):
    from PIL import Image

    a, _ = two_folders
    bags = [o for o in saved(a, lang)["ObjectStates"] if o["Name"] == "Infinite_Bag"]
    assert len(bags) == 2
    for bag in bags:
        (tile,) = bag["ContainedObjects"]
        assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Stackable"]
        with Image.open(image(a, lang, tile["CustomImage"]["ImageURL"])) as im:
            assert im.mode == "RGB" and im.size[0] == im.size[1]
    names = {b["Nickname"] for b in bags}
    labels = {"en": {"Poison counters", "Soul essence"}, "fr": {"Marqueurs de poison", "Essence d’âme"}}
    assert names == labels[lang]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_folder_says_how_to_import_it(two_folders, lang):
    a, _ = two_folders
    readme = (a / "tts" / lang / "README.txt").read_text(encoding="utf-8")
    assert f"rift-commanders-{lang}.json" in readme and "Mods/Images" in readme and "--tts-url" in readme
    assert "Saves/Saved Objects" in readme and f"Saved Objects > rift-commanders-{lang}" in readme
    assert ("Copy" in readme) == (lang == "en") and ("Copiez" in readme) == (lang == "fr")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_folder_mirrors_the_tts_data_folder(two_folders, lang):
    """Copied into TTS's data folder as it is, everything lands where TTS looks: every image the saved object
    names in Mods/Images, the saved object and its picture in Saves/Saved Objects, nothing else but the README."""
    from PIL import Image

    a, _ = two_folders
    top = a / "tts" / lang
    files = sorted(p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file())
    saves = [f for f in files if f.startswith("Saves/")]
    assert saves == [f"Saves/Saved Objects/rift-commanders-{lang}.json", f"Saves/Saved Objects/rift-commanders-{lang}.png"]
    with Image.open(top / saves[1]) as thumb:
        assert thumb.format == "PNG"
    images = {f.removeprefix("Mods/Images/") for f in files if f.startswith("Mods/Images/")}
    assert set(files) == {*saves, "README.txt", *(f"Mods/Images/{i}" for i in images)}
    assert images == set(urls(saved(a, lang)))  # every image named, and nothing named that is not there


#: What TTS reads of each object kind the saved object holds, beyond Name, Transform and GUID.
KINDS = {"DeckCustom": {"Nickname", "DeckIDs", "CustomDeck", "ContainedObjects"},
         "Card": {"Nickname", "CardID", "CustomDeck"}, "CardCustom": {"Nickname", "CardID", "CustomDeck"},
         "Custom_Board": {"Nickname", "CustomImage"}, "Custom_Tile": {"Nickname", "CustomImage"},
         "Infinite_Bag": {"Nickname", "ContainedObjects"}}
TRANSFORM = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
CUSTOM_DECK = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
               "UniqueBack": bool, "Type": int}


def _objects(states: list) -> list[dict]:
    """Every object of the save, those inside decks and bags too."""
    out = []
    for o in states:
        out.append(o)
        out += _objects(o.get("ContainedObjects", []))
    return out


def _check_card(card: dict) -> None:
    """A card's CardID is its deck's number × 100 plus its slot, and that deck is one of its CustomDeck entries:
    TTS cuts the card out of that deck's face sheet, slots counted row by row."""
    deck = card["CustomDeck"][str(card["CardID"] // 100)]
    assert set(deck) == set(CUSTOM_DECK) and all(isinstance(deck[k], t) for k, t in CUSTOM_DECK.items())
    slots = deck["NumWidth"] * deck["NumHeight"]
    hidden = 0 if slots == 1 else 1  # a sheet's last slot is the hidden face other players see
    assert 0 <= card["CardID"] % 100 < slots - hidden
    assert 1 <= deck["NumWidth"] <= 10 and 1 <= deck["NumHeight"] <= 7


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_saved_object_has_the_shape_tts_reads(two_folders, lang):
    """The saved object read back against TTS's save format: a saved object's outer fields left empty (no
    date, no version: the same bytes every run), then every object with what its kind needs."""
    a, _ = two_folders
    save = saved(a, lang)
    assert {"SaveName", "Date", "VersionNumber", "GameMode", "Table", "Sky", "Note", "LuaScript", "LuaScriptState",
            "XmlUI", "ObjectStates"} <= set(save)
    assert save["Date"] == save["VersionNumber"] == save["SaveName"] == "" and save["Tags"] == []
    objects = _objects(save["ObjectStates"])
    guids = [o["GUID"] for o in objects]
    assert len(set(guids)) == len(guids) and all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)
    for o in objects:
        assert set(o["Transform"]) == TRANSFORM and all(isinstance(v, float) for v in o["Transform"].values())
        assert KINDS[o["Name"]] <= set(o), o["Name"]
        if o["Name"] in ("Card", "CardCustom"):
            _check_card(o)
        if o["Name"] == "DeckCustom":
            cards = o["ContainedObjects"]
            assert o["DeckIDs"] == [c["CardID"] for c in cards] and len(cards) > 1
            assert all(str(c["CardID"] // 100) in o["CustomDeck"] for c in cards)
        if o["Name"] in ("Custom_Board", "Custom_Tile"):
            assert o["CustomImage"]["ImageURL"] and o["CustomImage"]["ImageScalar"] == 1.0
    names = {o["Name"] for o in save["ObjectStates"]}
    assert {"DeckCustom", "Card", "Custom_Board", "CardCustom", "Custom_Tile", "Infinite_Bag"} <= names


@pytest.mark.parametrize("bad", ["file:///home/me/output/tts", "/home/me/output/tts", "C:\\\\Users\\\\me", "ftp://x/y",
                                 "https://"])
def test_a_tts_url_that_would_point_at_this_machine_is_refused(bad, tmp_path):
    result = invoke(["render", "cards", "--root", str(REPO), "--out", str(tmp_path / "out"), "--profile",
                     "tts", "--tts-url", bad])
    assert result.exit_code == 2 and "http(s) URL" in result.output
    assert not (tmp_path / "out").exists()


def test_a_hosted_base_url_is_kept_without_its_trailing_slash():
    from forge.commands.render import parse_tts_url

    assert parse_tts_url("https://example.invalid/rift/") == "https://example.invalid/rift"
    assert parse_tts_url(None) is None
