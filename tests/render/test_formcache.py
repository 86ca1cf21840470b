"""Cards kept as PDF form fragments (forge/render/formcache.py): a kept card prints as the card drawn in
place, only the cards that changed are drawn again, and a fragment forge did not write is not used."""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.render import formcache
from forge.render.cards import RenderOptions, render_cards
from forge.render.face import build_faces
from forge.render.formcache import FormCache, capture, place
from forge.render.jobs import item_key
from forge.render.pdf import PdfBuffer
from forge.render.pdftext import page_texts
from forge.render.raster import render_pages
from forge.render.sheets import pnp_sheets, pod_document
from forge.render.template import load_template

from .helpers import books, mini_db

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tpl():
    return load_template(REPO)


@pytest.fixture(autouse=True)
def unconfined():
    """These tests write fragments under their own folder: no output folder an earlier CLI test confined
    writes to (forge.core.atomic.confine) applies."""
    from forge.core.atomic import release

    release()
    yield
    release()


def _faces(db=None, lang: str = "fr"):
    return build_faces(db or mini_db(), books(), [lang], REPO)[lang]


def _forms(tpl, out: Path | None) -> FormCache:
    return FormCache(out, lambda item: item_key(item, tpl))


def _pixels(pdf: bytes) -> list:
    return render_pages(pdf, (420, 594))


def _text(pdf: bytes) -> str:
    return "\n".join(page_texts(pdf))


@pytest.mark.slow
@pytest.mark.parametrize("document", ["pnp", "pod"])
def test_a_kept_card_prints_as_the_card_drawn_in_place(tpl, tmp_path, document):
    """The same pages, pixel for pixel within anti-aliasing, and the same text (accents included),
    whether each card is drawn in the document or copied from its fragment (drawn, then read back)."""
    from PIL import ImageChops, ImageStat

    faces = _faces()

    def make(forms):
        if document == "pnp":
            return pnp_sheets(tpl, faces, "fr", "a4", REPO, forms=forms)
        return pod_document(tpl, faces, "fr", REPO, forms=forms)

    drawn = make(None)
    fresh = make(_forms(tpl, tmp_path))
    FormCache._memory.clear()
    kept = make(_forms(tpl, tmp_path))  # every fragment read back from disk
    assert fresh == kept
    assert list((tmp_path / formcache.FORMS).rglob("*.form"))
    text = _text(kept)
    assert text == _text(drawn)
    assert "Dragonnet des Braises" in text and "Piochez 1 carte" in text
    for a, b in zip(_pixels(drawn), _pixels(kept), strict=True):
        diff = ImageChops.difference(a, b)
        assert max(hi for _, hi in diff.getextrema()) <= 40
        assert sum(ImageStat.Stat(diff).mean) / 3 < 0.2


@pytest.mark.slow
def test_after_one_card_changed_only_its_forms_are_drawn(tmp_path, monkeypatch):
    out = tmp_path / "output"
    opts = RenderOptions(out=out, workers=1, profiles=("pnp", "pod", "proof"))
    render_cards(mini_db(), books(), REPO, opts)
    drawn = []
    real = formcache.capture

    def counting(scratch, name, *args):
        drawn.append(name)
        return real(scratch, name, *args)

    monkeypatch.setattr(formcache, "capture", counting)
    FormCache._memory.clear()
    assert render_cards(mini_db(), books(), REPO, opts).written == []
    assert drawn == []
    db = mini_db()
    db.cards[0] = replace(db.cards[0], flavor={"en": "It bites.", "fr": "Il mord."})
    result = render_cards(db, books(), REPO, opts)
    assert "pnp/rift-commanders-fr-a4.pdf" in result.written
    # one RGB fragment (print and play, proof) and one CMYK (print on demand) per language
    assert sorted(drawn) == ["ember-whelp.en", "ember-whelp.en", "ember-whelp.fr", "ember-whelp.fr"]
    kept = {p.name.split(".")[0] for p in (out / formcache.FORMS).rglob("*.form")}
    assert len(kept) == len(set(kept))
    tpl = load_template(REPO)
    old_key = item_key(_faces(mini_db(), "en")[0], tpl)
    assert old_key not in kept  # the changed card's old fragments are pruned
    assert item_key(_faces(db, "en")[0], tpl) in kept


def test_a_fragment_forge_did_not_seal_is_drawn_again(tpl, tmp_path):
    faces = _faces()
    first = pnp_sheets(tpl, faces, "fr", "a4", REPO, forms=_forms(tpl, tmp_path))
    files = sorted((tmp_path / formcache.FORMS).rglob("*.form"))
    for f in files:  # a committed output/ with fragments of its own: same format, no valid seal
        raw = f.read_bytes()
        f.write_bytes(raw[:-20] + b"\0" * 20)
    FormCache._memory.clear()
    calls = []
    forms = _forms(tpl, tmp_path)
    real_get = forms._read
    forms._read = lambda rel: calls.append(real_get(rel)) or calls[-1]
    assert pnp_sheets(tpl, faces, "fr", "a4", REPO, forms=forms) == first
    assert calls and all(c is None for c in calls)


def test_a_card_with_a_character_outside_the_preseeded_set_is_drawn_in_place(tpl, tmp_path):
    def card(text):
        def draw(painter):
            painter.text(10, 10, text, tpl.font("text"), 9, "#000000", label="t")
        return draw

    def scratch():
        return PdfBuffer((100, 100), "", None, forms=_forms(tpl, None))

    assert capture(scratch(), "f", 100, 100, card("Crème brûlée « déjà » — Œuvre"), False) is not None
    assert capture(scratch(), "f", 100, 100, card("Ørsted ß"), False) is None
    # in a document: the same bytes from one run to the next, and the text as written
    db = mini_db()
    db.cards[0] = replace(db.cards[0], name={"en": "Ørn of Ålborg", "fr": "Ørn d'Ålborg"})
    faces = _faces(db)
    one = pnp_sheets(tpl, faces, "fr", "a4", REPO, forms=_forms(tpl, tmp_path))
    FormCache._memory.clear()
    two = pnp_sheets(tpl, faces, "fr", "a4", REPO, forms=_forms(tpl, tmp_path))
    assert one == two
    assert "Ørn d'Ålborg" in _text(one).replace("\n", " ")


def test_a_nested_form_shared_by_two_cards_is_defined_once(tpl):
    """A card's fragment carries the faction's frame texture it places; a document placing two cards
    of that faction defines the texture once, and both cards place it."""
    from forge.render.draw import draw_face

    face = _faces()[0]
    doc = PdfBuffer((tpl.full_w, tpl.full_h), "t", "fr", forms=_forms(tpl, None))
    for name in ("one", "two"):
        fragment = capture(PdfBuffer((tpl.full_w, tpl.full_h), "", None, forms=doc.forms), name,
                           tpl.full_w, tpl.full_h, lambda p: draw_face(p, tpl, face, REPO), False)
        assert [p.name for p in fragment.parts][-1] == name
        texture = [p.name for p in fragment.parts if p.name.startswith("FrameTexture")]
        assert len(texture) == 1 and f"FormXob.{texture[0]}" in fragment.parts[-1].xobjects
        place(doc.canvas, fragment, False)
        doc.canvas.doForm(name)
        doc.canvas.showPage()
    objects = doc.canvas._doc.idToObject
    assert [n for n in objects if n.startswith("FormXob.FrameTexture")] == [f"FormXob.{texture[0]}"]
    r = PdfReader(io.BytesIO(doc.finish()))
    for page in r.pages:
        (form,) = page["/Resources"]["/XObject"].values()
        assert list(form.get_object()["/Resources"]["/XObject"]) == [f"/FormXob.{texture[0]}"]
