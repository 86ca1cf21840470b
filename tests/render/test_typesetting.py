"""Typesetting of rules text (issue 8): no number starts a line, no one-word last line (balanced breaking),
keywords never hyphenated, one alignment per card type and text class in both languages, each card at the
largest size its text fits (issue 24 §3)."""
from __future__ import annotations

import ctypes
import io
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from forge.carddb.database import load_database
from forge.render.face import build_faces, measure_face, text_area, with_text_classes
from forge.render.fit import (
    TextStyle, _greedy, layout_at, layout_fixed, line_words, paragraph_groups, starts_with_number, wrap,
)
from forge.render.template import TEMPLATE_FILE, load_template, parse_template
from forge.text.cardtext import load_phrasebooks

REPO = Path(__file__).resolve().parents[2]
DB = load_database(REPO).db
BOOKS = load_phrasebooks(REPO)
TPL = load_template(REPO)
FACES = build_faces(DB, BOOKS, ["en", "fr"], REPO)


def every_face():
    for lang, faces in FACES.items():
        for face in faces:
            yield lang, face, measure_face(face, TPL).text


def paragraphs(layout):
    """The laid-out lines of each paragraph (each rules line, then the flavour text)."""
    out = []
    for line in layout.lines:
        if line.para_start or not out:
            out.append([])
        out[-1].append(line)
    return out


def style(**over) -> TextStyle:
    return replace(TextStyle.from_template(TPL, "spell"), **over)


# -- no number starts a line ----------------------------------------------------------------
@pytest.mark.parametrize("markup, lang, glued", [
    ("chaque Blessure est réduite de 1.", "fr", "de\u00a01."),
    ("**Wound** 2", "en", "Wound\u00a02"),
    ("**Poison** 1", "fr", "Poison\u00a01"),
    ("your creatures get +2 until the end of the turn", "en", "get\u00a0+2\u00a0until"),
    ("exilez 1 carte de la défausse adverse", "fr", "exilez\u00a01\u00a0carte"),
    ("3 [[black]]: **Poison** 2", "en", "3\u00a0"),
])
def test_a_number_is_glued_to_the_word_before_it(markup, lang, glued):
    groups = paragraph_groups(markup, lang, "Lato", "Lato-Bold")
    texts = ["".join(a.value for a in g) for g in groups]
    assert any(glued in t for t in texts), texts


def test_no_line_of_any_card_starts_with_a_number():
    continued = 0
    for lang, face, layout in every_face():
        for para in paragraphs(layout):
            for line in para[1:]:
                continued += 1
                assert not starts_with_number([p.atom for p in line.items]), (face.id, lang, line_words(line))
    assert continued > 100  # the cards do wrap: the check looked at many continuation lines


def test_a_narrow_box_still_keeps_numbers_off_the_line_start():
    for width in range(40, 160, 3):
        layout = layout_at(["Each time you cast a spell: **Wound** 1 and **Poison** 2, réduit de 1 jusqu'à +2."],
                           "", width, 8, style(), "fr")
        for para in paragraphs(layout):
            for line in para[1:]:
                assert not starts_with_number([p.atom for p in line.items]), (width, line_words(line))


# -- balanced breaking ----------------------------------------------------------------------------------
def test_no_card_has_a_one_word_last_line():
    multi = 0
    for lang, face, layout in every_face():
        for para in paragraphs(layout):
            if len(para) > 1:
                multi += 1
                assert len(line_words(para[-1])) >= 2, (face.id, lang, [line_words(ln) for ln in para])
    assert multi > 50


def test_balanced_breaking_avoids_the_widow_greedy_breaking_leaves():
    s = style(hyphenate=False)
    text = "Return 1 opposing creature to its owner's hand, then draw 1 card and gain allegiance."
    groups = paragraph_groups(text, "en", "Lato", "Lato-Bold")
    widths = [w for w in range(60, 200) if len(_greedy(groups, w, 8, s, "en")[0][-1]) == 1
              and len(_greedy(groups, w, 8, s, "en")[0]) > 1 and _greedy(groups, w, 8, s, "en")[1]]
    assert widths, "the sample must have widths where greedy breaking leaves one word alone"
    for w in widths:
        greedy, _ = _greedy(groups, w, 8, s, "en")
        balanced, ok = wrap(groups, w, 8, s, "en")
        assert ok and len(balanced) == len(greedy)  # never more lines than greedy breaking
        assert len(balanced[-1]) >= 2, (w, balanced)


def test_balanced_lines_are_more_even_than_greedy_ones():
    """Minimum raggedness: the squared room left on each line but the last never exceeds greedy's."""
    from forge.render.fit import _place

    s = style(hyphenate=False)
    groups = paragraph_groups("Exile up to 2 opposing creatures, then each opponent discards a card and "
                              "loses allegiance in every faction they serve.", "en", "Lato", "Lato-Bold")

    def ragged(lines, width):
        return sum((width - _place(ln, 8, s)[1]) ** 2 for ln in lines[:-1])

    better = 0
    for width in range(90, 220, 2):
        greedy, ok = _greedy(groups, width, 8, s, "en")
        balanced, _ = wrap(groups, width, 8, s, "en")
        if not ok or len(greedy[-1]) < 2:
            continue
        assert len(balanced) == len(greedy)
        assert ragged(balanced, width) <= ragged(greedy, width) + 1e-6, width
        better += ragged(balanced, width) < ragged(greedy, width) - 1
    assert better >= 3


def test_keywords_are_never_hyphenated_but_words_are():
    s = style(hyphenate=True)
    layout = layout_at(["**Unblockable** **Destruction** immédiatement détruisez"], "", 46, 8, s, "fr")
    pieces = [p.atom for line in layout.lines for p in line.items if p.atom.kind == "text"]
    assert not [a.value for a in pieces if a.font == s.keyword_font and a.value.endswith("-")]
    assert [a.value for a in pieces if a.font == s.text_font and a.value.endswith("-")]  # plain words do break


# -- one alignment per type and class in both languages; each card as large as its text fits ------------
def test_every_card_of_a_type_and_class_has_one_alignment_in_both_languages():
    groups = defaultdict(set)
    classes = defaultdict(set)
    sizes = defaultdict(set)
    for lang, face, layout in every_face():
        assert face.text_class and face.text_size > 0
        assert layout.fits, (face.id, lang)
        assert (layout.size, layout.align) == (face.text_size, face.text_align), face.id
        groups[(face.type, face.text_class)].add(layout.align)
        classes[face.id].add((face.text_class, face.text_align))
        sizes[(face.type, face.text_class)].add(face.text_size)
    assert all(len(v) == 1 for v in groups.values()), groups
    assert all(len(v) == 1 for v in classes.values())  # English and French agree on every card's class
    assert len({k[1] for k in groups}) >= 3  # short, medium and long are all used by the shipped cards
    for kind in ("creature", "spell"):  # every short and medium text fits at max_size: one size
        assert sizes[(kind, "medium")] == {TPL.text_settings(kind)["max_size"]}
    assert {a for v in groups.values() for a in v} == {"left", "center"}


def test_every_card_prints_at_the_largest_size_its_text_fits():
    """Issue 24 §3: seven long creatures printed at 7 pt because the longest French text of their class
    needed 7 pt (Ashborn Phoenix's English text then left a fifth of its box empty). Each face now prints
    at the largest size of the grid at which its own text fits in its language."""
    checked = 0
    for lang, faces in FACES.items():
        for face in faces:
            s = TextStyle.from_template(TPL, face.type)
            _, _, w, h = text_area(TPL, face.type)
            assert layout_fixed(list(face.lines), face.flavor, w, h, face.text_size, s, lang).fits, face.id
            if face.text_size < s.max_size:
                bigger = round(face.text_size + s.step, 4)
                assert not layout_fixed(list(face.lines), face.flavor, w, h, bigger, s, lang).fits, (lang, face.id)
                checked += 1
    assert checked >= 20  # the shipped long texts
    phoenix = {f.id: f for f in FACES["en"]}["ashborn-phoenix"]
    assert phoenix.text_size >= 8.0, phoenix.text_size  # was 7.0


def test_the_classes_and_their_alignment_come_from_the_template():
    text = (REPO / TEMPLATE_FILE).read_text(encoding="utf-8")
    assert "short: {up_to: 0.7, align: center}" in text
    tpl = parse_template(text.replace("short: {up_to: 0.7, align: center}", "short: {up_to: 0.7, align: left}")
                         .replace("medium: {up_to: 1.0, align: left}", "medium: {up_to: 1.0, align: center}"))
    faces = with_text_classes({lang: [replace(f, text_size=0.0) for f in fs] for lang, fs in FACES.items()}, tpl)
    for fs in faces.values():
        for face in fs:
            if face.type != "soul":  # a Soul card's layout centres every class
                assert face.text_align == {"short": "left", "medium": "center"}.get(face.text_class, "left")
    everything_short = parse_template(text.replace("short: {up_to: 0.7,", "short: {up_to: 50,")
                                      .replace("medium: {up_to: 1.0,", "medium: {up_to: 60,")
                                      .replace("long: {up_to: 1.3,", "long: {up_to: 70,"))
    faces = with_text_classes(FACES, everything_short)
    assert {f.text_class for fs in faces.values() for f in fs} == {"short"}
    assert {f.text_align for fs in faces.values() for f in fs if f.type == "creature"} == {"center"}


def test_a_card_size_is_its_own_and_part_of_its_cache_key():
    """A card's size depends on its own text only: shortening the other long texts of its class leaves
    its cache key alone; shortening its own text makes it larger and changes its key."""
    en = FACES["en"]
    card = {f.id: f for f in en}["archon-of-dawn"]
    others = {f.id for f in en if f.text_class == card.text_class and f.type == card.type} - {card.id}
    assert others
    shorter = {lang: [replace(f, lines=f.lines[:1], text_size=0.0) if f.id in others else f for f in fs]
               for lang, fs in FACES.items()}
    after = {f.id: f for f in with_text_classes(shorter, TPL)["en"]}
    assert after[card.id].key(TPL.digest) == card.key(TPL.digest)
    own = {lang: [replace(f, lines=f.lines[:1], text_size=0.0) if f.id == card.id else f for f in fs]
           for lang, fs in FACES.items()}
    grown = {f.id: f for f in with_text_classes(own, TPL)["en"]}[card.id]
    assert grown.text_size > card.text_size and grown.key(TPL.digest) != card.key(TPL.digest)


# -- read back from a drawn PDF ------------------------------------------------------------------------------
def _drawn_text(face):
    """(font size, x0, x1, baseline) of each rules-text line of ``face`` drawn alone on a PDF page."""
    pdfium = pytest.importorskip("pypdfium2")
    from reportlab.pdfgen.canvas import Canvas

    from forge.render.draw import draw_face
    from forge.render.paint import Painter

    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(TPL.full_w, TPL.full_h), invariant=1)
    draw_face(Painter(canvas), TPL, face, REPO)
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(buf.getvalue())[0]
    textpage = page.get_textpage()
    x, y, w, h = text_area(TPL, face.type)
    lines = defaultdict(list)
    for i in range(textpage.count_chars()):
        ox, oy = ctypes.c_double(), ctypes.c_double()
        pdfium.raw.FPDFText_GetCharOrigin(textpage, i, ctypes.byref(ox), ctypes.byref(oy))
        left, _, right, _ = textpage.get_charbox(i)
        if textpage.get_text_range(i, 1).isspace() or not (y <= oy.value <= y + h):
            continue
        size = round(pdfium.raw.FPDFText_GetFontSize(textpage, i), 2)
        lines[round(oy.value, 1)].append((size, ox.value, right))
    return [(min(s for s, _, _ in v), min(l for _, l, _ in v), max(r for _, _, r in v)) for _, v in sorted(lines.items())]


@pytest.mark.parametrize("card_id", ["archon-of-dawn", "warlord-of-cinders", "flame-lash"])
def test_the_pdf_shows_the_face_size_and_one_alignment_in_both_languages(card_id):
    drawn = {}
    for lang in ("en", "fr"):
        face = next(f for f in FACES[lang] if f.id == card_id)
        lines = _drawn_text(face)
        assert lines
        flavor = face.text_size * TPL.text_settings(face.type)["flavor_scale"]
        rules = [ln for ln in lines if abs(ln[0] - face.text_size) < 0.05]
        assert rules and all(abs(ln[0] - face.text_size) < 0.05 or abs(ln[0] - flavor) < 0.05 for ln in lines)
        x, _, w, _ = text_area(TPL, face.type)
        if face.text_align == "left":  # every line starts at the box's left, or just after a leading icon
            icon = face.text_size * (TPL.text_settings(face.type)["icon_scale"] + 0.12 + 0.3)
            assert all(x - 0.5 <= ln[1] <= x + icon for ln in rules), (lang, rules, x)
            assert sum(abs(ln[1] - x) < 0.5 for ln in rules) >= 2, (lang, rules, x)
        else:
            assert all(abs((ln[1] + ln[2]) / 2 - (x + w / 2)) < 1.5 for ln in rules), (lang, rules)
        drawn[lang] = face.text_align
    assert drawn["en"] == drawn["fr"]


# -- the record that keeps re-renders fast --------------------------------------------------------------
def test_the_fit_record_spares_the_next_run_its_measures(tmp_path, monkeypatch):
    import json

    import forge.render.face as face_module

    out = tmp_path / "output"
    first = build_faces(DB, BOOKS, ["en", "fr"], REPO, out)
    record = out / ".cache" / "text-fit.json"
    assert record.is_file() and len(json.loads(record.read_text())["data"]) == sum(len(f) for f in FACES.values())

    def measured(*args, **kwargs):
        raise AssertionError("a text was measured again although the record knew it")

    for name in ("text_fill", "best_size", "layout_fixed"):
        monkeypatch.setattr(face_module, name, measured)
    again = build_faces(DB, BOOKS, ["en", "fr"], REPO, out)
    assert again == first == FACES
    monkeypatch.undo()

    forged = json.loads(record.read_text())
    for facts in forged["data"].values():
        facts.update(fill=0.1, best=9.0)  # every card short and at full size…
    record.write_text(json.dumps(forged), encoding="utf-8")  # …but not sealed by this machine
    assert build_faces(DB, BOOKS, ["en", "fr"], REPO, out) == FACES


def test_a_link_in_place_of_the_record_is_neither_read_nor_written_through(tmp_path):
    out = tmp_path / "output"
    (out / ".cache").mkdir(parents=True)
    target = tmp_path / "elsewhere.json"
    target.write_text("{}", encoding="utf-8")
    (out / ".cache" / "text-fit.json").symlink_to(target)
    assert build_faces(DB, BOOKS, ["en"], REPO, out)["en"] == FACES["en"]
    assert target.read_text(encoding="utf-8") == "{}"


def test_a_card_that_fits_at_no_size_is_reported_and_does_not_shrink_its_class():
    """check_text_fit keeps working with classes: the overflowing card is a finding, drawn at min_size; the
    other cards of its class keep their sizes."""
    from forge.render.fitcheck import check_text_fit

    fr = {f.id: f for f in FACES["fr"]}
    victim = fr["archon-of-dawn"]
    sizes = {f.id: f.text_size for f in FACES["fr"]}
    flooded = {lang: [replace(f, lines=f.lines * 12, text_size=0.0) if f.id == victim.id and lang == "fr" else f
                      for f in fs] for lang, fs in FACES.items()}
    after = {f.id: f for f in with_text_classes(flooded, TPL)["fr"]}
    assert after[victim.id].text_class == "longest"
    assert not measure_face(after[victim.id], TPL).text.fits
    assert "does not fit" in measure_face(after[victim.id], TPL).problems[0]
    others = [f for f in after.values() if f.text_class == "longest" and f.id != victim.id and f.type == "creature"]
    assert others and all(f.text_size == sizes[f.id] for f in others)
    assert after[victim.id].text_size == TextStyle.from_template(TPL, "creature").min_size
    assert check_text_fit(DB, BOOKS, REPO) == []  # the shipped cards all fit at their class's size


def test_custom_classes_without_a_limit_or_alignment_do_not_break_the_fitter():
    from forge.render.fit import class_align, class_of

    classes = {"tiny": {"up_to": 0.5, "align": "center"}, "rest": {"align": "justify"}, "odd": "nothing"}
    assert class_of(0.2, classes) == "tiny" and class_of(3.0, classes) in ("rest", "odd")
    assert class_align(classes, "tiny") == "center" and class_align(classes, "rest") == "left"
    assert class_align(classes, "odd") == "left"


def test_a_sealed_record_of_another_shape_is_not_trusted(tmp_path):
    """A record sealed here by another version of forge (other fields, other types) is measured again."""
    from forge.render.fitmemo import FitMemo

    out = tmp_path / "output"
    build_faces(DB, BOOKS, ["en", "fr"], REPO, out)
    record = out / ".cache" / "text-fit.json"
    import json

    data = json.loads(record.read_text())["data"]
    for facts in data.values():
        facts.update(fill="full", best=True, fits={"9.0": "yes"})
    FitMemo(out).record.save(data)  # sealed here
    assert build_faces(DB, BOOKS, ["en", "fr"], REPO, out) == FACES


def test_a_word_wider_than_the_box_makes_the_text_shrink():
    from forge.render.fit import text_fill

    s = TextStyle.from_template(TPL, "spell")
    _, _, w, h = text_area(TPL, "spell")
    assert text_fill(["Draw 1 card."], "", w, h, s, "en") < 0.5
    assert text_fill(["Hippopotomonstrosesquippedaliophobically-unbreakable-word"], "", w, h, s, "en") == float("inf")
