"""Each faction's frame carries its own procedural texture (issue 8, §4), seeded from the faction's id.

Before, the frame was a plain vertical gradient of the faction colour: a strip of the
frame between the cut and the panels was the same colour along every row. These tests
rasterise the shipped cards and read that strip back, and read the PDF's objects to
see the texture drawn once per document and, in print-on-demand, in press CMYK only.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.carddb.database import load_database
from forge.render.face import build_faces
from forge.render.jobs import cards_pdf
from forge.render.template import load_template
from forge.render.texture import FRAME_TEXTURES, TEXTURES, frame_seed, frame_theme
from forge.text.cardtext import load_phrasebooks

REPO = Path(__file__).resolve().parents[2]
DPI = 72
FACTIONS = ("red", "white", "black", "blue")


@pytest.fixture(scope="module")
def faces():
    """The English faces of the shipped cards, by id."""
    load = load_database(REPO)
    return {f.id: f for f in build_faces(load.db, load_phrasebooks(REPO), ["en"], REPO)["en"]}


def _pick(faces, faction: str | None, kind: str, n: int = 2) -> list:
    """``n`` single-faction cards of ``faction`` and type ``kind`` (None: the neutral Souls)."""
    found = [f for f in faces.values() if f.type == kind and f.faction == faction and len(f.card_factions) <= 1]
    assert len(found) >= n
    return found[:n]


def _pages(items) -> list:
    import pypdfium2 as pdfium

    pdf, checks = cards_pdf(items, REPO)
    assert all(c["safe_zone"] == [] for c in checks), checks
    return [page.render(scale=DPI / 72).to_pil().convert("L") for page in pdfium.PdfDocument(io.BytesIO(pdf))]


def _frame_strip(image) -> list[list[int]]:
    """The left frame strip: from 1 mm inside the cut to 1 mm before the panels, over the middle half of the
    card's height, as rows of grey levels."""
    tpl = load_template(REPO)
    k = DPI / 72
    x0 = round((tpl.bleed + 3) * k)
    x1 = round((tpl.box(tpl.layout("creature")["art"])[0] - 3) * k)
    h = image.size[1]
    return [[image.getpixel((x, y)) for x in range(x0, x1)] for y in range(h // 4, 3 * h // 4)]


def _difference(a: list[list[int]], b: list[list[int]]) -> float:
    """The mean difference of two strips, in grey levels."""
    return sum(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)) / sum(len(r) for r in a)


def test_every_frame_has_a_texture_beyond_its_gradient(faces, monkeypatch):
    from forge.render import texture

    picks = [f for fac in FACTIONS for f in _pick(faces, fac, "creature", 1)] + _pick(faces, None, "soul", 1)
    textured = [_frame_strip(image) for image in _pages(picks)]
    monkeypatch.setattr(texture, "TEXTURES", {k: lambda *a: None for k in texture.TEXTURES})
    plain = [_frame_strip(image) for image in _pages(picks)]
    for face, with_texture, without in zip(picks, textured, plain):
        assert all(len(set(row)) == 1 for row in without)  # the gradient alone: each row one colour
        assert _difference(with_texture, without) > 4, (face.id, face.faction)


def test_cards_of_a_faction_wear_the_same_frame_and_factions_different_ones(faces):
    """Seeded from the faction, not the card: two cards of one faction share the frame strip exactly."""
    strips = {}
    for fac in FACTIONS:
        a, b = _pages(_pick(faces, fac, "creature"))
        strips[fac] = _frame_strip(a)
        assert strips[fac] == _frame_strip(b), fac
    patterns = {fac: tuple(tuple(v - sum(r) // len(r) for v in r) for r in rows) for fac, rows in strips.items()}
    assert len(set(patterns.values())) == len(FACTIONS)  # four different patterns, not one in four colours


def test_the_texture_is_the_same_on_every_run(faces):
    pick = _pick(faces, "blue", "spell", 1)
    first, again = (cards_pdf(pick, REPO)[0] for _ in range(2))
    assert first == again


def test_frames_map_factions_to_textures_and_seeds():
    assert set(FRAME_TEXTURES) == set(TEXTURES) == {*FACTIONS, "neutral"}
    assert [frame_theme(f) for f in (*FACTIONS, None, "green")] == [*FACTIONS, "neutral", "neutral"]
    assert len({frame_seed(t) for t in FRAME_TEXTURES}) == len(FRAME_TEXTURES)


def test_a_document_draws_each_frame_once(faces):
    """Every card places its faction's frame form: 8 cards of 4 factions carry 4 textures, not 8."""
    picks = [f for fac in FACTIONS for f in _pick(faces, fac, "creature")]
    reader = PdfReader(io.BytesIO(cards_pdf(picks, REPO)[0]))
    names = set()
    for page in reader.pages:
        for name in page["/Resources"]["/XObject"]:
            if "FrameTexture" in name:
                names.add(name)
    assert len(names) == len(FACTIONS)


def test_print_on_demand_frames_are_in_press_cmyk(faces, tmp_path):
    """In the PDF/X file the frame forms use CMYK operators only: their colours went through the press profile."""
    from forge.render.sheets import pod_document

    picks = [f for fac in FACTIONS for f in _pick(faces, fac, "creature", 1)]
    reader = PdfReader(io.BytesIO(pod_document(load_template(REPO), picks, "en", REPO)))
    textures = {name: obj for name, obj in _forms(reader) if "FrameTexture" in name}
    assert len(textures) == len(FACTIONS)
    for name, obj in textures.items():
        ops = set(re.findall(r"(?<![A-Za-z])(rg|RG|k|K)(?![A-Za-z])", obj.get_data().decode("latin-1")))
        assert ops and ops <= {"k", "K"}, (name, ops)


def _forms(reader):
    """Every form XObject of the file with its resource name, nested ones included, once each."""
    seen, todo = set(), [p.get("/Resources", {}) for p in reader.pages]
    while todo:
        res = todo.pop()
        for name, ref in (res.get("/XObject") or {}).items():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form":
                yield name, obj
                todo.append(obj.get("/Resources", {}))


def _texture_clips(page) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each frame texture a page places, with the last polygon clipped to before it (in card space)."""
    data = page.get_contents().get_data().decode("latin-1")
    out = []
    for m in re.finditer(r"/(FormXob\.FrameTexture\w+) Do", data):
        before = data[:m.start()]
        clip = list(re.finditer(r"((?:[-\d.]+ [-\d.]+ [ml] )+)h W\*? n", before))
        nums = [float(v) for v in re.findall(r"[-\d.]+", clip[-1].group(1))] if clip else []
        out.append((m.group(1), list(zip(nums[::2], nums[1::2]))))
    return out


def _inside(pt, poly) -> bool:
    x, y = pt
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_two_faction_frame_wears_each_factions_texture_on_its_own_colour(lang):
    """The main faction's texture on the top-left half, the second faction's on the bottom-right, each the
    very form a single-faction card of that faction wears (the same colour, the same motifs)."""
    load = load_database(REPO)
    faces = {f.id: f for f in build_faces(load.db, load_phrasebooks(REPO), [lang], REPO)[lang]}
    two = [f for f in faces.values() if f.type == "creature" and len(f.card_factions) == 2
           and f.card_factions[1] in FACTIONS]
    assert two
    tpl = load_template(REPO)
    for card in two:
        main, second = card.card_factions
        singles = [_pick(faces, fac, "creature", 1)[0] for fac in (main, second)]
        reader = PdfReader(io.BytesIO(cards_pdf([card, *singles], REPO)[0]))
        (own_main, _), = _texture_clips(reader.pages[1])
        (own_second, _), = _texture_clips(reader.pages[2])
        placed = _texture_clips(reader.pages[0])
        assert [name for name, _ in placed] == [own_main, own_second], card.id
        top_left, bottom_right = (tpl.bleed + 2, tpl.full_h - tpl.bleed - 2), (tpl.full_w - tpl.bleed - 2, tpl.bleed + 2)
        (_, first_clip), (_, second_clip) = placed
        assert _inside(top_left, first_clip) and not _inside(bottom_right, first_clip), card.id
        assert _inside(bottom_right, second_clip) and not _inside(top_left, second_clip), card.id
