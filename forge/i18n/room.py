"""How much room a card name has, for the translator's notes: the bar's width and how full the text is.

Measured with the renderer's own numbers (the template's name bar, its title font and
smallest size, reportlab's glyph widths, as ``render.fit.fit_line`` measures them), so the
note says what the printed card will do: "the French fills 64 % of the bar at the smallest
size; about 40 such characters fit". Rules text and flavour share one box whose size is
decided across the whole card set: their overflow is parity's ``length`` check.
"""
from __future__ import annotations

from pathlib import Path


def name_notes(root: Path, pairs: list) -> dict[str, str]:
    """A note per card-name pair id; empty when the template cannot be read (validate reports that)."""
    names = [p for p in pairs if p.kind == "card-name" and p.meta.get("type")]
    if not names:
        return {}
    from ..render.face import _line_specs  # the name bar as the renderer lays it out
    from ..render.fit import stringWidth
    from ..render.template import TemplateError, load_template

    try:
        tpl = load_template(Path(root))
    except TemplateError:
        return {}
    notes = {}
    for pair in names:
        try:
            lay = _line_specs(tpl, str(pair.meta["type"]))
        except (KeyError, TypeError, ValueError):
            continue
        text = (pair.fr.text if pair.fr and pair.fr.text.strip() else pair.en.text) if pair.en else ""
        width, size = lay["name_width"], lay["name_min"]
        used = stringWidth(text, lay["name_font"], size) if text else 0.0
        mm = width * 25.4 / 72
        which = "French" if pair.fr and pair.fr.text.strip() else "English"
        if used <= 0:
            continue
        fit = int(len(text) * width / used)
        notes[pair.id] = (f"Room: the name bar is {mm:.0f} mm wide; at the smallest size ({size:g} pt) the {which} "
                          f"fills {100 * used / width:.0f} % of it (about {fit} such characters fit).")
    return notes


__all__ = ["name_notes"]
