"""Every profile rendered from a small game, read back: PDFs with pypdf, images with Pillow."""
from __future__ import annotations

import json
import math
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.render.cards import RenderOptions, render_cards
from forge.render.sheets import PAPERS, sheet_layout
from forge.render.template import load_template
from forge.render.pdftext import page_texts

from .helpers import aid_count, aid_ids, books, mini_db, physical_count, shop_aid_count
from .pdfread import placements

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
TTS_URL = "https://example.invalid/rift"


def render(out: Path, db=None, **over):
    opts = RenderOptions(out=out, workers=2, tts_base_url=TTS_URL, **over)
    return render_cards(db or mini_db(), books(), REPO, opts)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("render") / "output"
    return out, render(out)


def copy_of(rendered, folder: Path) -> Path:
    """``folder``/output: a copy of the module's render, its cache and sealed records included (they name files
    relative to the output folder), so that a test starts from a first render without paying for one."""
    out = folder / "output"
    shutil.copytree(rendered[0], out, symlinks=True)
    return out


def test_nothing_fails_preflight(rendered):
    out, result = rendered
    assert result.findings == []
    assert set(result.preflight) == {"pnp", "gamecrafter", "mpc", "pod", "tts", "proof"}
    for profile, report in result.preflight.items():
        assert report["ok"], profile
        saved = json.loads((out / profile / "preflight.json").read_text())
        assert saved["ok"] and saved["files"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pnp_pages_sizes_and_counts(rendered, paper):
    out, _ = rendered
    reader = PdfReader(out / f"pnp/rift-commanders-en-{paper}.pdf")
    per_page = sheet_layout(load_template(REPO), paper).per_page
    assert len(reader.pages) == 2 * math.ceil((physical_count(mini_db()) + aid_count()) / per_page)
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(PAPERS[paper], abs=0.01)


# the print-and-play sheets' layouts, slots and duplex mirroring: tests/render/test_sheets.py




def test_pdfs_embed_subset_fonts_and_carry_metadata(rendered):
    out, _ = rendered
    for rel in ("pnp/rift-commanders-fr-a4.pdf", "pod/rift-commanders-en-pod.pdf", "proof/rift-commanders-fr-proof.pdf"):
        reader = PdfReader(out / rel)
        fonts = set()
        for page in reader.pages[:2]:
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
                fonts.add(str(font["/BaseFont"]).split("+", 1)[1])
        assert {"Lato-Regular", "Lato-Bold"} <= fonts and any(f.startswith("IM_FELL_English") for f in fonts)
        assert all("+" in str(ref.get_object()["/BaseFont"]) for ref in reader.pages[0]["/Resources"]["/Font"].values())
        meta = reader.metadata
        assert meta.title.startswith("Rift Commanders") and meta.author == "Benoît Morin"
        lang = rel.split("-")[2]
        assert str(reader.trailer["/Root"]["/Lang"]).startswith(lang)


@pytest.mark.parametrize("lang,name,keyword", [("en", "Ember Whelp", "Wound"), ("fr", "Dragonnet des Braises", "Blessures")])
def test_each_card_text_is_printed_in_its_language(rendered, lang, name, keyword):
    out, _ = rendered
    first = page_texts(out / f"pod/rift-commanders-{lang}-pod.pdf")[0]
    assert name in first and keyword in first and "Small, hot" not in first if lang == "fr" else name in first
    other = "Blessures" if lang == "en" else "Wound"
    assert other not in first


def test_pod_is_one_card_per_page_at_full_bleed_in_cmyk(rendered):
    out, result = rendered
    tpl = load_template(REPO)
    reader = PdfReader(out / "pod/rift-commanders-en-pod.pdf")
    assert len(reader.pages) == 2 * (physical_count(mini_db()) + shop_aid_count())
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((tpl.full_w, tpl.full_h), abs=0.01)
    assert float(page.trimbox.width) == pytest.approx(tpl.trim_w, abs=0.01)
    pod = result.preflight["pod"]["files"][0]
    assert pod["colour_space"] == "CMYK" and not pod["problems"]
    (form,) = [x.get_object() for x in page["/Resources"]["/XObject"].values()]
    data = form.get_data()
    assert b" k" in data and b" rg" not in data and b"/DeviceRGB" not in data


@pytest.mark.parametrize("shop,size", [("gamecrafter", (825, 1125)), ("mpc", (822, 1122))])
def test_print_shop_images(rendered, shop, size):
    from PIL import Image

    out, _ = rendered
    files = sorted((out / shop / "en").glob("*.png"))
    assert {f.stem for f in files} == ({c.id for c in mini_db().cards} | {"back-deck", "back-rite"}
                                       | aid_ids())
    for f in files:
        with Image.open(f) as im:
            assert im.size == size and im.mode == "RGB" and round(im.info["dpi"][0]) == 300
    quantities = (out / shop / "en" / "quantities.csv").read_text().splitlines()
    assert "ember-whelp.png,ember-whelp,\"Ember Whelp\",recruit,back-deck.png,3" in quantities


def test_tts_sheets_and_saved_object(rendered):
    from PIL import Image

    out, _ = rendered
    saved = json.loads((out / "tts/fr/Saves/Saved Objects/rift-commanders-fr.json").read_text())
    decks = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"}
    recruit = decks["Recrutement"]
    assert [c["Nickname"] for c in recruit["ContainedObjects"]].count("Dragonnet des Braises") == 3
    assert len(recruit["DeckIDs"]) == 6
    for deck in decks.values():
        for custom in deck["CustomDeck"].values():
            assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7 and not custom["BackIsHidden"]
            assert custom["FaceURL"].startswith(TTS_URL)
            lang, name = custom["FaceURL"][len(TTS_URL) + 1:].split("/")
            sheet = out / "tts" / lang / "Mods" / "Images" / name
            with Image.open(sheet) as im:
                assert max(im.size) <= 4096 and im.mode == "RGB"
                assert im.size == (custom["NumWidth"] * 409, custom["NumHeight"] * 573)
    starters = [o for name, o in decks.items() if name.startswith("Deck de départ")]
    assert len(starters) == 2 and all(len(o["DeckIDs"]) == 2 for o in starters)  # 8 neutral wisps, 2 per faction


@pytest.mark.slow
def test_same_inputs_give_byte_identical_files(rendered, tmp_path):
    out, _ = rendered
    again = tmp_path / "output"
    render(again)
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts)
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file() and ".cache" not in p.parts)
    different = [str(f) for f in files if (out / f).read_bytes() != (again / f).read_bytes()]
    assert different == []


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


@pytest.mark.slow
def test_an_incremental_render_is_byte_identical_to_a_cold_one(rendered, tmp_path):
    """After cards change, what the caches (faces, preflight scans, text fits) let a run skip must not
    show: every output and preflight report is the same, byte for byte, as a cold render of the
    same cards in another folder."""
    out = copy_of(rendered, tmp_path / "incremental")
    db = mini_db()
    db.cards[0] = replace(db.cards[0], flavor={"en": "It bites (twice).", "fr": "Il mord (deux fois)."})
    assert render(out, db).written
    db.cards[2] = replace(db.cards[2], name={**db.cards[2].name, "en": "Snare of Thorns"})
    result = render(out, db)
    assert "pod/rift-commanders-en-pod.pdf" in result.written and result.unchanged
    cold = tmp_path / "cold" / "output"
    render(cold, db)
    mine, theirs = _files(out), _files(cold)
    assert sorted(mine) == sorted(theirs)
    assert [rel for rel in mine if mine[rel] != theirs[rel]] == []


@pytest.mark.slow
def test_incremental_render_only_redoes_what_changed(rendered, tmp_path):
    out = copy_of(rendered, tmp_path)
    assert render(out).written == []
    db = mini_db()
    card = db.cards[1]
    db.cards[1] = replace(card, name={**card.name, "en": "Turn of the Tide"})
    result = render(out, db)
    written = set(result.written)
    assert "gamecrafter/en/tide-turn.png" in written and "mpc/en/tide-turn.png" in written
    assert "pnp/rift-commanders-en-a4.pdf" in written and "pod/rift-commanders-en-pod.pdf" in written
    assert not any(w.startswith(("gamecrafter/fr", "mpc/fr", "pnp/rift-commanders-fr")) for w in written)
    assert "gamecrafter/en/ember-whelp.png" not in written


@pytest.mark.slow
def test_a_card_that_changes_text_class_is_rendered_again_in_every_language(rendered, tmp_path):
    """A text class (its size and alignment) is the same in both languages: an English flavour that
    makes a short text medium re-aligns the French card too, and nothing else."""
    out = copy_of(rendered, tmp_path)
    db = mini_db()
    db.cards[1] = replace(db.cards[1], flavor={"en": "The sea takes back what it gave."})
    written = set(render(out, db).written)
    assert {"gamecrafter/en/tide-turn.png", "gamecrafter/fr/tide-turn.png"} <= written
    assert not any("ember-whelp" in w or "snare" in w for w in written)


def test_a_partial_run_renders_only_what_was_asked(tmp_path):
    out = tmp_path / "output"
    result = render(out, langs=("fr",), papers=("letter",), profiles=("pnp",))
    assert sorted(result.written) == ["pnp/duplex-calibration-fr-letter.pdf", "pnp/player-mat-fr-letter.pdf",
                                      "pnp/rift-commanders-fr-letter.pdf", "pnp/tokens-fr-letter.pdf"]
    assert sorted(p.name for p in out.iterdir()) == [".cache", "pnp"]


def test_a_card_that_overflows_is_reported_and_framed_on_the_proof(tmp_path):
    from .helpers import TEXT

    text = {k: dict(v) for k, v in TEXT.items()}
    text["tide-turn"] = {"en": ["Return every opposing creature to its owner's hand, then draw a card."] * 12,
                         "fr": TEXT["tide-turn"]["fr"]}
    opts = RenderOptions(out=tmp_path / "output", workers=1, profiles=("proof",), langs=("en",))
    result = render_cards(mini_db(), books(text), REPO, opts)
    assert [(f.rule, f.message[:3]) for f in result.findings] == [("text-overflow", "en:")]
    report = result.preflight["proof"]
    assert not report["ok"] and [c["id"] for c in report["card_problems"]] == ["tide-turn"]
    proof = PdfReader(tmp_path / "output/proof/rift-commanders-en-proof.pdf").pages[0].get_contents().get_data()
    assert b".752941 .223529 .168627 RG" in proof  # the red frame (#c0392b) around the flagged card


@pytest.mark.slow
def test_outputs_of_a_deleted_card_are_removed(rendered, tmp_path):
    """Only the asked profile's and language's file of the card goes: every other profile's stays."""
    out = copy_of(rendered, tmp_path)
    db = mini_db()
    db.cards = [c for c in db.cards if c.id != "snare"]
    result = render(out, db, profiles=("gamecrafter",), langs=("en",))
    assert result.removed == ["gamecrafter/en/snare.png"]
    assert not (out / "gamecrafter/en/snare.png").exists() and (out / "gamecrafter/fr/snare.png").exists()
    assert (out / "mpc/en/snare.png").exists()


def test_every_deck_and_hand_card_wears_the_one_back_in_every_profile(rendered):
    """Issue 24 §1: starter and recruitment cards mix in every deck and hand, whose contents are secret
    (rulebook, general principle 7): each profile prints one back behind all of them (the Rites, always
    face up, keep theirs: docs/rulings.md). Read back from the outputs, not from the plan."""
    from PIL import Image, ImageChops, ImageStat

    out, _ = rendered
    db = mini_db()
    tpl = load_template(REPO)
    sets = {c.id: c.set for c in db.cards}
    hidden = {cid for cid, s in sets.items() if s in ("starter", "recruit")}
    assert {"starter", "recruit"} <= set(sets.values())
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):  # print and play: the backs page behind each page of faces
            reader = PdfReader(out / f"pnp/rift-commanders-{lang}-{paper}.pdf")
            seen = set()
            for n in range(0, len(reader.pages), 2):
                fronts, backs = placements(reader.pages[n], tpl), placements(reader.pages[n + 1], tpl)
                seen |= {b["name"] for f, b in zip(fronts, backs) if f["name"].split(".")[0] in hidden}
            assert seen == {f"back-deck.{lang}"}, (paper, seen)
        pod = PdfReader(out / f"pod/rift-commanders-{lang}-pod.pdf")  # print on demand: face, back, face, back
        pairs = [(placements(pod.pages[n], tpl), placements(pod.pages[n + 1], tpl)) for n in range(0, len(pod.pages), 2)]
        backs = {b[0]["name"] for f, b in pairs if f[0]["name"].split(".")[0] in hidden}
        assert backs == {f"back-deck.{lang}"}
        pod_bytes = {pod.pages[2 * i + 1].get_contents().get_data() for i, (f, _) in enumerate(pairs)
                     if f[0]["name"].split(".")[0] in hidden}
        assert len(pod_bytes) == 1  # the same page, byte for byte
        for shop in ("gamecrafter", "mpc"):  # the print shops: one back file named for every deck card
            rows = [r.split(",") for r in (out / shop / lang / "quantities.csv").read_text().splitlines()[1:]]
            assert {r[-2] for r in rows if r[1] in hidden} == {"back-deck.png"}
            assert not (out / shop / lang / "back-starter.png").exists()
        saved = json.loads((out / f"tts/{lang}/Saves/Saved Objects/rift-commanders-{lang}.json").read_text())
        decks = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
        assert len(decks) >= 2  # the recruitment deck and the starter decks
        assert {c["BackURL"] for d in decks for c in d["CustomDeck"].values()} == {
            f"{TTS_URL}/{lang}/rift-commanders-{lang}-back-deck.png"}
        slots = []  # what TTS shows of a card in someone's hand: each sheet's last slot
        for d in decks:
            for custom in d["CustomDeck"].values():
                with Image.open(out / "tts" / lang / "Mods" / "Images" / custom["FaceURL"].rsplit("/", 1)[1]) as im:
                    w, h = im.size[0] // custom["NumWidth"], im.size[1] // custom["NumHeight"]
                    slots.append(im.convert("RGB").crop((im.size[0] - w + 8, im.size[1] - h + 8, *im.size)))
        for slot in slots[1:]:  # the same picture (to the JPEG's noise where the slot meets its neighbours)
            assert sum(ImageStat.Stat(ImageChops.difference(slot, slots[0])).mean) / 3 < 3.0
