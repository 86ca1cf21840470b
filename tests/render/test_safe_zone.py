"""The safe-zone check sees every drawn element (lines, rectangles, panels, gradients, images, icons,
text), whatever call drew it; only parts declared full-bleed may run past it."""
from __future__ import annotations

from pathlib import Path

import yaml
from reportlab.lib.units import mm

from forge.render.face import build_face
from forge.render.inkbox import inked
from forge.render.jobs import cards_pdf, safe_zone_crossings
from forge.render.paint import Painter
from forge.render.pdf import PdfBuffer
from forge.render.template import TEMPLATE_FILE, load_template

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]


def _crossings(draw) -> list[str]:
    """What the check finds on a card drawn by ``draw(painter, template)``."""
    tpl = load_template(REPO)
    doc = PdfBuffer((tpl.full_w, tpl.full_h), "test", None)
    p = Painter(doc.canvas)
    draw(p, tpl)
    return safe_zone_crossings(p.marks + p.drawn((0, 0, tpl.full_w, tpl.full_h)), tpl)


def _near_cut(tpl) -> float:
    """1 mm inside the cut: inside the card, outside the safe zone."""
    return tpl.bleed + 1 * mm


def test_a_line_near_the_cut_is_caught_whatever_drew_it():
    def draw(p, tpl):
        with p.part("a new ornament"):
            p.stroke("#000000", 0.5)
            p.canvas.line(_near_cut(tpl), tpl.full_h / 2, tpl.full_w / 2, tpl.full_h / 2)

    (found,) = _crossings(draw)
    assert found.startswith("stroke 'a new ornament'")


def test_unlabelled_rects_circles_gradients_and_images_are_caught():
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    def rect(p, tpl):
        p.canvas.rect(_near_cut(tpl), 40, 20, 20, stroke=0, fill=1)

    def circle(p, tpl):
        p.canvas.circle(tpl.full_w / 2, tpl.full_h - _near_cut(tpl) - 10, 10, stroke=1, fill=0)

    def gradient(p, tpl):
        c = p.canvas
        c.saveState()
        path = c.beginPath()
        path.rect(40, _near_cut(tpl), 20, 20)
        c.clipPath(path, stroke=0, fill=0)
        p.linear(0, 0, 0, 40, ["#000000", "#ffffff"])
        c.restoreState()

    def image(p, tpl):
        p.canvas.drawImage(ImageReader(Image.new("RGB", (4, 4), "red")), tpl.full_w - _near_cut(tpl) - 10, 60, 12, 12)

    for draw, kind in ((rect, "fill"), (circle, "stroke"), (gradient, "shading"), (image, "image")):
        found = _crossings(draw)
        assert len(found) == 1 and found[0].startswith(f"{kind} 'unlabelled drawing'"), (kind, found)


def test_inside_the_safe_zone_clipped_or_declared_full_bleed_passes():
    def draw(p, tpl):
        c = p.canvas
        with p.part("backdrop", bleed=True):  # declared: runs past the cut on purpose
            c.rect(0, 0, tpl.full_w, tpl.full_h, stroke=0, fill=1)
        c.saveState()  # a big shape clipped to a window well inside the safe zone
        path = c.beginPath()
        path.rect(30, 30, 40, 40)
        c.clipPath(path, stroke=0, fill=0)
        c.circle(50, 50, 200, stroke=0, fill=1)
        c.restoreState()
        c.saveState()  # moved and turned: its box is where it lands
        c.translate(tpl.full_w / 2, tpl.full_h / 2)
        c.rotate(90)
        c.rect(-5, -20, 10, 40, stroke=1, fill=0)
        c.restoreState()

    assert _crossings(draw) == []


def test_transformed_boxes_land_where_the_ink_does():
    code = ["q", "0 1 -1 0 100 50 cm", "2 w", "n 0 0 m 40 0 l", "S", "Q", "10 10 5 5 re", "f"]
    strokes, fills = inked(code, (0, 0, 500, 500))
    # turned a quarter, and widened by half the line width on every side (caps and joins may reach there)
    assert strokes.op == "stroke" and strokes.box == (99.0, 49.0, 101.0, 91.0)
    assert fills.op == "fill" and fills.box == (10.0, 10.0, 15.0, 15.0)


def _template_with(tmp_path, change) -> Path:
    data = yaml.safe_load((REPO / TEMPLATE_FILE).read_text(encoding="utf-8"))
    change(data)
    (tmp_path / TEMPLATE_FILE).parent.mkdir(parents=True)
    (tmp_path / TEMPLATE_FILE).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return tmp_path


def _check(root: Path):
    db, bk = mini_db(), books()
    face = build_face(db.by_id()["ember-whelp"], db, bk["en"], "en", root)
    _, (check,) = cards_pdf([face], root)
    return " ".join(check["safe_zone"])


def test_todays_inner_border_2_2_mm_from_the_cut_is_caught(tmp_path):
    root = _template_with(tmp_path, lambda d: d["layouts"]["default"].update(frame_inset=2.2))
    assert "'inner border'" in _check(root)


def test_a_panel_moved_near_the_cut_is_caught(tmp_path):
    root = _template_with(tmp_path, lambda d: d["layouts"]["default"].update(type_bar=[1.0, 47.9, 55.5, 5.6]))
    found = _check(root)
    assert "shading 'type bar'" in found and "stroke 'type bar'" in found


def test_the_shipped_faces_and_backs_keep_every_element_inside_the_safe_zone():
    from forge.render.sheets import Back

    db, bk = mini_db(), books()
    items = [build_face(c, db, bk[lang], lang, REPO) for c in db.cards for lang in ("en", "fr")]
    items += [Back(k, lang) for k in ("deck", "rite") for lang in ("en", "fr")]
    _, checks = cards_pdf(items, REPO)
    assert [(c["id"], c["lang"], c["safe_zone"]) for c in checks if c["safe_zone"]] == []
