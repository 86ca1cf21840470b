"""Card backs read back: the rules beside the deck's name never touch its (letter-spaced) text, every
glyph is in its font, and nothing but the full-bleed glow comes near the cut."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib.units import mm

from forge.render.jobs import cards_pdf
from forge.render.paint import hex_rgb
from forge.render.sheets import Back
from forge.render.template import load_template

from .pdfread import missing_glyphs, px, render

pytest.importorskip("pypdfium2")
REPO = Path(__file__).resolve().parents[2]
DPI = 300
BACKS = [Back(kind, lang) for lang in ("en", "fr") for kind in ("deck", "rite")]
#: The backs that print a label between two rules (the deck back names no deck).
LABELLED = [i for i, b in enumerate(BACKS) if b.kind != "deck"]


@pytest.fixture(scope="module")
def backs_pdf(tmp_path_factory):
    pdf, checks = cards_pdf(BACKS, REPO)
    path = tmp_path_factory.mktemp("backs") / "backs.pdf"
    path.write_bytes(pdf)
    return path, checks


def _runs(flags) -> list[tuple[int, int]]:
    """(start, end) of each run of True."""
    runs, start = [], None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            runs.append((start, i))
            start = None
    return runs


@pytest.mark.parametrize("index", LABELLED)
def test_the_rules_beside_the_back_label_clear_its_text(backs_pdf, index):
    import pypdfium2 as pdfium

    path, _ = backs_pdf
    tpl = load_template(REPO)
    label = tpl.labels(BACKS[index].lang)["backs"][BACKS[index].kind].upper()
    doc = pdfium.PdfDocument(str(path))
    text = doc[index].get_textpage()
    chars = [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())]
    doc.close()
    boxes = [b for ch, b in chars if ch.strip() and b[1] < tpl.full_h / 2]  # the label sits low on the back
    assert "".join(ch for ch, b in chars if b[1] < tpl.full_h / 2).replace(" ", "") == label.replace(" ", "")
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    middle = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2  # the rules run through the letters' middle
    image = render(path, index, DPI)
    gold = hex_rgb(tpl.color("gold"))
    rules = []
    for y in range(round(px(tpl.full_h - middle, DPI)) - 4, round(px(tpl.full_h - middle, DPI)) + 5):
        row = [image.getpixel((x, y)) for x in range(image.size[0])]
        is_gold = [max(abs(c / 255 - g) for c, g in zip(p, gold)) < 0.16 for p in row]
        rules += [r for r in _runs(is_gold) if r[1] - r[0] >= px(3 * mm, DPI)]  # a rule, not a letter's stroke
    assert rules, "the rules are drawn"
    assert {r[0] < px(left, DPI) for r in rules} == {True, False}, "one rule on each side"
    for start, end in rules:  # each rule lies wholly outside the text, at least 1.5 mm from its ink
        assert end <= px(left - 1.5 * mm, DPI) or start >= px(right + 1.5 * mm, DPI), (label, start, end, left, right)


def test_backs_have_nothing_but_their_glow_near_the_cut(backs_pdf):
    _, checks = backs_pdf
    assert [(c["id"], c["safe_zone"]) for c in checks if c["safe_zone"]] == []


def test_backs_print_every_glyph_from_their_fonts(backs_pdf):
    path, _ = backs_pdf
    assert missing_glyphs(path) == []
