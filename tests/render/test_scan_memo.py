"""The preflight scan's memo of forms (pdfscan.ScanMemo): the figures are those of a fresh scan,
a kept record is used only while the form and every resource it used are the same, and a memo
this machine did not seal is not read."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from forge.render import pdfscan
from forge.render.cards import RenderOptions, render_cards
from forge.render.jobs import scan_memo_name
from forge.render.pdf import FormCanvas
from forge.render.fitmemo import FitMemo
from forge.render.pdfscan import MEMO_KIND, ScanMemo
from forge.render.preflight import measure_pdf

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]
MEMO = Path("memo.json")


@pytest.fixture
def rendered(mini_print):
    """The small game's print files (pnp and pod, both languages), rendered once for the render tests."""
    return mini_print[0]


@pytest.fixture
def recorded(monkeypatch):
    """How many forms were scanned (rather than taken from a memo)."""
    count = {"forms": 0}

    class Counting(pdfscan._Recording):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            count["forms"] += 1

    monkeypatch.setattr(pdfscan, "_Recording", Counting)
    return count


def _figures(path: Path, memo: ScanMemo | None = None) -> dict:
    return measure_pdf(PdfReader(path), memo)


@pytest.mark.parametrize("rel", ["pod/rift-commanders-en-pod.pdf", "pnp/rift-commanders-en-a4.pdf"])
def test_a_memo_gives_the_figures_of_a_fresh_scan_and_is_used_the_second_time(rendered, tmp_path, recorded, rel):
    path = rendered / rel
    fresh = _figures(path)
    assert recorded["forms"] > 0
    memo = ScanMemo(tmp_path, MEMO)
    assert _figures(path, memo) == fresh
    memo.save()
    recorded["forms"] = 0
    assert _figures(path, ScanMemo(tmp_path, MEMO)) == fresh
    assert recorded["forms"] == 0  # every form's record came from the memo


def test_a_scan_without_a_memo_digests_no_resource(rendered, tmp_path, monkeypatch):
    """The resources a form used are digested for its record in a memo only: a scan without one (the
    books' print files) skips that work and gives the same figures as a scan that records them."""
    path = rendered / "pod/rift-commanders-en-pod.pdf"
    digested = []
    entry = pdfscan._Digests.entry
    monkeypatch.setattr(pdfscan._Digests, "entry", lambda self, *args: digested.append(args) or entry(self, *args))
    fresh = _figures(path)
    assert digested == []
    assert _figures(path, ScanMemo(tmp_path, MEMO)) == fresh and digested


def test_the_render_keeps_a_memo_per_pdf(rendered):
    for rel in ("pod/rift-commanders-en-pod.pdf", "pnp/rift-commanders-en-a4.pdf"):
        assert (rendered / scan_memo_name(rel)).is_file()
    assert not (rendered / scan_memo_name("pnp/duplex-calibration-en-a4.pdf")).exists()  # no form: nothing kept


def _gradient_doc(stop: tuple[float, float, float, float]) -> bytes:
    """A page placing a form that shades a CMYK gradient: the form's own bytes are the same whatever the stop."""
    from reportlab.lib.colors import CMYKColor

    buf = io.BytesIO()
    c = FormCanvas(buf, pagesize=(100, 100), invariant=1)  # a form with its gradients as resources
    c.beginForm("card")
    c.linearGradient(0, 0, 100, 0, [CMYKColor(0, 0, 0, 0), CMYKColor(*stop)], extend=False)
    c.endForm()
    c.doForm("card")
    c.showPage()
    c.save()
    return buf.getvalue()


def test_a_record_is_not_used_once_a_resource_it_used_changed(tmp_path, recorded):
    light, heavy = tmp_path / "light.pdf", tmp_path / "heavy.pdf"
    light.write_bytes(_gradient_doc((0.1, 0.1, 0.1, 0.1)))
    heavy.write_bytes(_gradient_doc((1, 1, 1, 0.9)))
    form = [PdfReader(p).pages[0]["/Resources"]["/XObject"]["/FormXob.card"].get_data() for p in (light, heavy)]
    assert form[0] == form[1]  # only the gradient object differs
    memo = ScanMemo(tmp_path, MEMO)
    assert _figures(light, memo)["tac_max_percent"] == pytest.approx(40)
    memo.save()
    recorded["forms"] = 0
    assert _figures(heavy, ScanMemo(tmp_path, MEMO))["tac_max_percent"] == pytest.approx(390)
    assert recorded["forms"] == 1


def test_a_memo_not_sealed_here_is_not_read(rendered, tmp_path, recorded):
    """A committed output/.cache must not make preflight pass a file that fails: a record edited
    to hide the ink (its seal no longer matches) is ignored and the form is scanned again."""
    path = rendered / "pod/rift-commanders-en-pod.pdf"
    fresh = _figures(path)
    memo = ScanMemo(tmp_path, MEMO)
    _figures(path, memo)
    memo.save()
    raw = json.loads((tmp_path / MEMO).read_text())
    for entry in raw["data"].values():
        entry["record"]["ink"] = []
        entry["record"]["spaces"] = []
    (tmp_path / MEMO).write_text(json.dumps(raw))  # the old seal kept: it no longer matches
    recorded["forms"] = 0
    assert _figures(path, ScanMemo(tmp_path, MEMO)) == fresh
    assert recorded["forms"] > 0
    (tmp_path / MEMO).write_bytes(b"{not json")
    assert _figures(path, ScanMemo(tmp_path, MEMO)) == fresh


def test_a_malformed_record_under_a_good_seal_is_scanned_again(rendered, tmp_path):
    """Records of another shape (an older forge) are not replayed, even when this machine sealed them."""
    path = rendered / "pod/rift-commanders-en-pod.pdf"
    fresh = _figures(path)
    memo = ScanMemo(tmp_path, MEMO)
    _figures(path, memo)
    memo.save()
    raw = json.loads((tmp_path / MEMO).read_text())["data"]
    for entry in raw.values():
        entry["record"]["texts"] = "?"
    FitMemo(tmp_path, MEMO, kind=MEMO_KIND).record.save(raw)  # sealed here
    assert _figures(path, ScanMemo(tmp_path, MEMO)) == fresh


def test_memos_of_pdfs_no_longer_made_are_dropped(tmp_path):
    out = tmp_path / "output"
    stale = out / scan_memo_name("proof/rift-commanders-de-proof.pdf")
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"{}")
    render_cards(mini_db(), books(), REPO, RenderOptions(out=out, workers=1, profiles=("proof",)))
    assert not stale.exists()
    assert (out / scan_memo_name("proof/rift-commanders-fr-proof.pdf")).is_file()


def _pattern_pdf(path: Path, cell: bytes) -> Path:
    """A page placing a form that fills with a tiling pattern whose cell paints ``cell``: the form's
    own bytes are the same whatever the cell paints."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject, \
        NumberObject

    def stream(data: bytes, **entries) -> DecodedStreamObject:
        obj = DecodedStreamObject()
        obj.set_data(data)
        obj.update({NameObject(k): v for k, v in entries.items()})
        return obj

    box = ArrayObject([FloatObject(0), FloatObject(0), FloatObject(10), FloatObject(10)])
    writer = PdfWriter()
    page = writer.add_blank_page(100, 100)
    tile = writer._add_object(stream(cell, **{
        "/Type": NameObject("/Pattern"), "/PatternType": NumberObject(1), "/PaintType": NumberObject(1),
        "/TilingType": NumberObject(1), "/BBox": box, "/XStep": FloatObject(10), "/YStep": FloatObject(10),
        "/Resources": DictionaryObject()}))
    form = writer._add_object(stream(b"/Pattern cs /P0 scn 0 0 50 50 re f", **{
        "/Type": NameObject("/XObject"), "/Subtype": NameObject("/Form"), "/BBox": box,
        "/Resources": DictionaryObject({NameObject("/Pattern"): DictionaryObject({NameObject("/P0"): tile})})}))
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/XObject"): DictionaryObject({NameObject("/F0"): form})})
    page[NameObject("/Contents")] = writer._add_object(stream(b"/F0 Do"))
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def test_a_pattern_painted_in_a_form_is_memoised_with_it(tmp_path, recorded):
    red = _pattern_pdf(tmp_path / "red.pdf", b"1 0 0 rg 0 0 5 5 re f")
    ink = _pattern_pdf(tmp_path / "ink.pdf", b"1 1 1 0 k 0 0 5 5 re f")
    fresh = {p: _figures(p) for p in (red, ink)}
    assert fresh[red]["colour_spaces"] == ["DeviceRGB", "Pattern"]
    assert fresh[ink]["tac_max_percent"] == pytest.approx(300)
    memo = ScanMemo(tmp_path, MEMO)
    assert _figures(red, memo) == fresh[red]
    memo.save()
    recorded["forms"] = 0
    assert _figures(red, ScanMemo(tmp_path, MEMO)) == fresh[red] and recorded["forms"] == 0
    assert _figures(ink, ScanMemo(tmp_path, MEMO)) == fresh[ink] and recorded["forms"] == 1



def test_a_form_placed_as_before_is_not_parsed_where_its_object_number_moved(tmp_path, monkeypatch):
    """A form is known whole from its bytes and what they refer to, less object numbers: in a document where
    a card put first shifts every later object, the other cards' records are found without reading their
    dictionaries, and the figures (fonts included) are those of a fresh scan."""
    from forge.render.face import build_faces
    from forge.render.formcache import FormCache
    from forge.render.jobs import item_key
    from forge.render.sheets import pnp_sheets
    from forge.render.template import load_template

    from forge.core.atomic import release

    release()  # fragments are written under tmp_path, whatever an earlier CLI test confined writes to
    tpl = load_template(REPO)
    faces = build_faces(mini_db(), books(), ["en"], REPO)["en"]
    forms = FormCache(tmp_path / "out", lambda item: item_key(item, tpl))
    before, after = tmp_path / "before.pdf", tmp_path / "after.pdf"
    before.write_bytes(pnp_sheets(tpl, faces[1:], "en", "a4", REPO, forms=forms))
    after.write_bytes(pnp_sheets(tpl, faces, "en", "a4", REPO, forms=forms))
    memo = ScanMemo(tmp_path, MEMO)
    _figures(before, memo)
    memo.save()
    fresh = _figures(after)
    assert fresh["fonts"] and all(fresh["fonts"].values())
    scanned = []
    real = pdfscan.Scanner._record
    monkeypatch.setattr(pdfscan.Scanner, "_record", lambda self, ref, obj: scanned.append(ref.idnum) or real(self, ref, obj))
    assert _figures(after, ScanMemo(tmp_path, MEMO)) == fresh
    first = faces[0].id
    names = {str(n) for page in PdfReader(after).pages for n in page["/Resources"]["/XObject"]}
    assert f"/FormXob.{first}.en" in names
    # only the new card's form (and a texture no earlier card wore) was read
    assert 1 <= len(scanned) <= 2
