"""The designer's template: geometry, per-type overrides, and the safe zone checked from what is drawn."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from reportlab.lib.units import inch, mm

from forge.render.face import build_face
from forge.render.jobs import cards_pdf
from forge.render.sheets import Back
from forge.render.template import TEMPLATE_FILE, TemplateError, load_template, parse_template

from .helpers import books, mini_db

REPO = Path(__file__).resolve().parents[2]


def test_poker_card_with_eighth_inch_bleed_and_safe_zone():
    tpl = load_template(REPO)
    assert (tpl.trim_w, tpl.trim_h) == pytest.approx((63.5 * mm, 88.9 * mm))
    assert tpl.bleed == pytest.approx(inch / 8) and tpl.safe == pytest.approx(inch / 8)
    assert (tpl.full_w, tpl.full_h) == pytest.approx((2.75 * inch, 3.75 * inch))
    assert tpl.safe_rect() == pytest.approx((inch / 4, inch / 4, 2.25 * inch, 3.25 * inch))


def test_a_type_overrides_only_what_differs():
    tpl = load_template(REPO)
    assert tpl.layout("trap")["art_shape"] == "notch" and tpl.layout("trap")["title_bar"] == tpl.layout("creature")["title_bar"]
    assert tpl.text_settings("soul")["max_size"] > tpl.text_settings("spell")["max_size"]
    assert tpl.text_settings("soul")["min_size"] == tpl.text_settings("spell")["min_size"] == 6.5


def test_a_missing_section_is_named():
    with pytest.raises(TemplateError, match="`backs:`"):
        parse_template("card: {}\ncolors: {}\nfonts: {}\ntext: {}\nlayouts: {default: {}}\nlabels: {}\n")


def every_item():
    db, bk = mini_db(), books()
    faces = [build_face(c, db, bk[lang], lang, REPO) for c in db.cards for lang in ("en", "fr")]
    return faces + [Back(k, lang) for k in ("deck", "rite") for lang in ("en", "fr")]


def test_no_text_or_icon_crosses_the_safe_zone_with_the_shipped_template():
    _, checks = cards_pdf(every_item(), REPO)
    assert [(c["id"], c["lang"], c["safe_zone"]) for c in checks if c["safe_zone"]] == []


def test_moving_the_footer_into_the_bleed_is_caught(tmp_path):
    data = yaml.safe_load((REPO / TEMPLATE_FILE).read_text(encoding="utf-8"))
    data["layouts"]["default"]["footer"]["y"] = 86.5
    data["layouts"]["trap"]["allegiance"] = {"x": 2.0, "y": 16.3, "size": 4.6, "gap": 0.7, "max_pips": 6}
    (tmp_path / TEMPLATE_FILE).parent.mkdir(parents=True)
    (tmp_path / TEMPLATE_FILE).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    db, bk = mini_db(), books()
    snare = build_face(db.by_id()["snare"], db, bk["en"], "en", tmp_path)
    _, (check,) = cards_pdf([snare], tmp_path)
    crossing = " ".join(check["safe_zone"])
    assert "'set mark'" in crossing and "'collector number'" in crossing and "allegiance red" in crossing


def test_the_builtin_template_is_package_data_that_a_project_without_one_uses(shipped):
    """A wheel has no templates/ folder beside forge: the built-in template must be the package's file
    (found through importlib.resources), or a wheel-installed `forge check` fails on a game without its own."""
    from importlib import resources

    from forge.render import template

    packaged = resources.files("forge.render") / "defaults" / "card.yaml"
    assert packaged.is_file()
    assert template.BUILTIN_TEMPLATE == Path(str(packaged))
    (shipped / "templates" / "cards" / "card.yaml").unlink()
    assert template.template_path(shipped) == template.BUILTIN_TEMPLATE
    loaded = template.load_template(shipped)
    assert loaded.color("ink")
