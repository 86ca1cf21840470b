"""Drawing a card face or back onto a canvas, at the origin of its bleed box.

Every position comes from the template (``templates/cards/card.yaml``) through
``Template``; this module only decides how things look. The caller translates
the canvas to where the card goes (a sheet, a page of its own).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.graphics import renderPDF

from .assets import SYMBOL_ICONS, has_icon, resolve_icon_name
from .colour import image_to_press
from .face import BACK_OF_SET, DECK_BACK, CardFace, FaceMeasure, measure_face
from .fit import Line, TextLayout, fit_line
from .illustration import draw_illustration, theme_of
from .paint import Painter, is_light, mix, shade
from .template import Template
from .texture import draw_frame_texture, frame_theme
from ..carddb.art import ArtError, art_bytes, fit_art, placement, read_art, read_svg

ART_DPI = 300
#: Faction icons the markup names: [[red]] etc. Other markup icons are symbols.
SYMBOL_MARKUP = {"activate", "demise", "trap"}


# -- shared shapes ----------------------------------------------------------------
def _frame_color(tpl: Template, face: CardFace) -> str:
    return face.frame_color or tpl.color("neutral")


def _faction_icon(tpl: Template, face: CardFace) -> str:
    icon = face.faction_icon if face.faction_icon and has_icon(face.faction_icon) else None
    return resolve_icon_name(icon) if icon else SYMBOL_ICONS["neutral"]


def _shape_path(canvas, shape: str, x: float, y: float, w: float, h: float):
    """The art window's outline: a rectangle, an arch (spells, rites) or cut corners (traps)."""
    p = canvas.beginPath()
    if shape == "arch":
        rise = min(h * 0.22, w * 0.18)
        p.moveTo(x, y)
        p.lineTo(x, y + h - rise)
        p.curveTo(x, y + h - rise * 0.15, x + w * 0.22, y + h, x + w / 2, y + h)
        p.curveTo(x + w * 0.78, y + h, x + w, y + h - rise * 0.15, x + w, y + h - rise)
        p.lineTo(x + w, y)
    elif shape == "notch":
        n = 3.2 * mm
        p.moveTo(x + n, y)
        p.lineTo(x, y + n)
        p.lineTo(x, y + h - n)
        p.lineTo(x + n, y + h)
        p.lineTo(x + w - n, y + h)
        p.lineTo(x + w, y + h - n)
        p.lineTo(x + w, y + n)
        p.lineTo(x + w - n, y)
    else:
        p.rect(x, y, w, h)
        return p
    p.close()
    return p


def _background(p: Painter, tpl: Template, base: str, second: tuple[str, str] | None = None,
                texture: str | None = None, covered: tuple = ()) -> None:
    """Full-bleed frame colour with a soft vertical light, then the frame's texture (``texture``: a
    faction id or "neutral"). A two-faction card (``second``: the other faction's texture and colour)
    blends both colours across its diagonal, and each half of the frame wears its own faction's
    texture in its own colour, split where the colours meet (``_split``).

    Declared full-bleed: it runs past the cut on purpose, so the safe-zone check lets it.
    """
    c = p.canvas
    with p.part("background", bleed=True):
        p.plate("frame", (0, 0, tpl.full_w, tpl.full_h),
                (shade(base, -0.18), base, shade(base, 0.45)) + ((second[1], shade(second[1], 0.35)) if second else ()))
        c.saveState()
        path = c.beginPath()
        path.rect(0, 0, tpl.full_w, tpl.full_h)
        c.clipPath(path, stroke=0, fill=0)
        if second:
            p.linear(0, tpl.full_h, tpl.full_w, 0, [shade(base, -0.1), base, second[1], shade(second[1], 0.35)],
                     [0, 0.4, 0.6, 1])
        else:
            p.linear(0, tpl.full_h, 0, 0, [shade(base, -0.18), base, shade(base, 0.45)], [0, 0.45, 1])
        if texture and second:
            for half, (theme, colour) in enumerate(((texture, base), second)):
                c.saveState()
                c.clipPath(_split(c, tpl.full_w, tpl.full_h, half), stroke=0, fill=0)
                draw_frame_texture(p, theme, colour, tpl.full_w, tpl.full_h, covered)
                c.restoreState()
        elif texture:
            draw_frame_texture(p, texture, base, tpl.full_w, tpl.full_h, covered)
        c.restoreState()


def _split(canvas, w: float, h: float, half: int):
    """Half of the (w × h) card on one side of the line where a two-faction gradient turns from the first
    colour to the second: through the centre, across the gradient's axis (top-left to bottom-right).
    ``half`` 0 is the top-left side (the main faction), 1 the bottom-right."""
    cx, cy = w / 2, h / 2
    reach = w + h  # past every corner
    ax, ay = w / (w + h), -h / (w + h)  # along the gradient (towards the second colour), scaled
    ex, ey = -ay, ax  # along the seam
    sign = 1 if half else -1
    path = canvas.beginPath()
    path.moveTo(cx - ex * reach, cy - ey * reach)
    path.lineTo(cx + ex * reach, cy + ey * reach)
    path.lineTo(cx + ex * reach + sign * ax * reach, cy + ey * reach + sign * ay * reach)
    path.lineTo(cx - ex * reach + sign * ax * reach, cy - ey * reach + sign * ay * reach)
    path.close()
    return path


def _second_faction(face: CardFace) -> tuple[str, str] | None:
    """The frame texture and colour of a multi-faction card's second faction (one whose colour differs)."""
    for fid in face.card_factions[1:]:
        style = face.faction_style(fid)
        if style and style[0] != face.frame_color:
            return frame_theme(fid), style[0]
    return None


def _inner_border(p: Painter, tpl: Template, inset_mm: float) -> None:
    """A gold line ``inset_mm`` inside the cut (0: none); the safe-zone check catches one too close to the cut."""
    if inset_mm <= 0:
        return
    inset = tpl.bleed + inset_mm * mm
    with p.part("inner border"):
        p.stroke(tpl.color("gold"), 0.6, alpha=0.9)
        p.canvas.roundRect(inset, inset, tpl.full_w - 2 * inset, tpl.full_h - 2 * inset, 2.2 * mm, stroke=1, fill=0)


def _panel(p: Painter, rect, fill_top: str, fill_bottom: str, edge: str, radius: float, line: float = 0.5,
           label: str = "panel") -> None:
    """A rounded panel with a vertical gradient and a thin edge (a ``Painter.plate`` for the text on it)."""
    x, y, w, h = rect
    p.plate(label, (x, y, x + w, y + h), (fill_top, fill_bottom))
    c = p.canvas
    c.saveState()
    path = c.beginPath()
    path.roundRect(x, y, w, h, radius)
    c.clipPath(path, stroke=0, fill=0)
    p.linear(0, y + h, 0, y, [fill_top, fill_bottom])
    c.restoreState()
    p.stroke(edge, line)
    c.roundRect(x, y, w, h, radius, stroke=1, fill=0)


# -- art ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _art_image(root: str, rel: str, digest: str, px_w: int, px_h: int, cmyk: bool,
               focus: tuple[float, float] = (0.5, 0.5), fit: str = "cover"):
    """The art cropped (``cover``, around ``focus``) or fitted (``contain``) to the window at 300 DPI.

    Press CMYK for print-on-demand. None when the file is not art forge prints (``forge
    validate`` reports why): a pipe, a link out of the project, a corrupt image, a
    decompression bomb. The card then gets its procedural art instead of stopping the render.
    """
    try:
        im = read_art(Path(root), rel)
    except ArtError:
        return None
    with im:
        im, where = fit_art(im, px_w, px_h, focus, fit)
        if cmyk:
            im = image_to_press(im)
        return ImageReader(im), where


@lru_cache(maxsize=16)
def _art_svg(root: str, rel: str, digest: str):
    """An SVG picture as reportlab vectors (checked by ``forge.carddb.art.read_svg``), or None."""
    try:
        return read_svg(art_bytes(Path(root), rel))
    except ArtError:
        return None


def _draw_svg(p: Painter, drawing, face: CardFace, x: float, y: float, w: float, h: float) -> None:
    """Draw SVG vectors into the window, cropped or fitted like a raster picture."""

    dw, dh = float(drawing.width), float(drawing.height)
    (left, _, _, bottom), (fx, fy, _, _) = placement((dw, dh), (w, h), tuple(face.art_focus), face.art_fit)
    scale = min(w / dw, h / dh) if face.art_fit == "contain" else max(w / dw, h / dh)
    c = p.canvas
    c.saveState()
    if face.art_fit == "contain":
        c.translate(x + fx * w, y + fy * h)
    else:
        c.translate(x - left * scale, y - (dh - bottom) * scale)
    c.scale(scale, scale)
    renderPDF.draw(drawing, c, 0, 0)  # in print-on-demand, the canvas converts its colours to press CMYK
    c.restoreState()



def _draw_art(p: Painter, tpl: Template, face: CardFace, root: Path | None, lay: dict) -> None:
    x, y, w, h = tpl.box(lay["art"])
    c = p.canvas
    shape = lay.get("art_shape", "rect")
    c.saveState()
    c.clipPath(_shape_path(c, shape, x, y, w, h), stroke=0, fill=0)
    img = svg = None
    if root and face.art and face.art.lower().endswith(".svg"):
        svg = _art_svg(str(root), face.art, face.art_digest or "")
    elif root and face.art:
        img = _art_image(str(root), face.art, face.art_digest or "", round(w / 72 * ART_DPI),
                         round(h / 72 * ART_DPI), p.cmyk, tuple(face.art_focus), face.art_fit)
    picture = img is not None or svg is not None
    if not picture or face.art_fit == "contain":  # no picture, or one shown whole: procedural art
        draw_illustration(p, face.id, theme_of(face.type, face.faction), face.art_icon, face.art_accents,
                          face.art_layout, face.art_flip, _type_art_icon(face), x, y, w, h, figure=not picture)
    if svg is not None:
        _draw_svg(p, svg, face, x, y, w, h)
    elif img is not None:
        reader, (fx, fy, fw, fh) = img
        c.drawImage(reader, x + fx * w, y + fy * h, fw * w, fh * h)
    c.restoreState()
    p.stroke(tpl.color("gold"), 0.9)
    c.drawPath(_shape_path(c, shape, x, y, w, h), stroke=1, fill=0)
    p.stroke(tpl.color("gold_dark"), 0.35)
    inset = 0.9
    c.drawPath(_shape_path(c, shape, x + inset, y + inset, w - 2 * inset, h - 2 * inset), stroke=1, fill=0)


def _rays(p: Painter, cx: float, cy: float, count: int, length: float, half_width: float,
          color: str, alpha: float, turn: int = 0) -> None:
    """``count`` thin triangles fanned evenly around (cx, cy), the first turned ``turn`` degrees."""
    c = p.canvas
    c.saveState()
    p.fill(color, alpha=alpha)
    for i in range(count):
        c.saveState()
        c.translate(cx, cy)
        c.rotate(turn + i * (360 // count))
        path = c.beginPath()
        path.moveTo(0, 0)
        path.lineTo(length, -half_width)
        path.lineTo(length, half_width)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        c.restoreState()
    c.restoreState()


def _type_art_icon(face: CardFace) -> str:
    """The figure of a card that declares no art: its faction's icon, a Soul's spectre."""
    if face.type == "soul":
        return SYMBOL_ICONS["soul"]
    icon = face.faction_icon if face.faction_icon and has_icon(face.faction_icon) else None
    return resolve_icon_name(icon) if icon else SYMBOL_ICONS["neutral"]


# -- title, cost, allegiance ----------------------------------------------------------
def soul_drop_path(canvas_or_path, cx: float, cy: float, r: float):
    """The Soul's own shape: a drop of essence, point up, its round belly centred on (cx, cy).

    Faction medallions are discs; the Soul is never one, so it is never read as Blue's
    icon. The drop fits a circle of radius ``r`` around (cx, cy) plus its point above.
    """
    path = canvas_or_path.beginPath() if hasattr(canvas_or_path, "beginPath") else canvas_or_path
    rr, tip = r * 0.82, cy + r * 0.98
    by = cy - r * 0.18
    path.moveTo(cx, tip)
    path.curveTo(cx - rr * 0.2, tip - rr * 0.35, cx - rr, by + rr * 0.55, cx - rr, by)
    path.curveTo(cx - rr, by - rr * 0.552, cx - rr * 0.552, by - rr, cx, by - rr)
    path.curveTo(cx + rr * 0.552, by - rr, cx + rr, by - rr * 0.552, cx + rr, by)
    path.curveTo(cx + rr, by + rr * 0.55, cx + rr * 0.2, tip - rr * 0.35, cx, tip)
    path.close()
    return path


def _soul_orb(p: Painter, tpl: Template, cx: float, cy: float, r: float, label: str = "soul", ring: bool = True) -> None:
    """The Soul mark: a glossy drop of essence (also the cost medallion), never a disc like a faction's."""
    c = p.canvas
    c.saveState()
    c.clipPath(soul_drop_path(c, cx, cy, r), stroke=0, fill=0)
    p.radial(cx - r * 0.3, cy + r * 0.05, r * 1.6,
             [tpl.color("soul_light"), tpl.color("soul"), tpl.color("soul_dark")], [0, 0.45, 1])
    c.restoreState()
    if ring:
        p.stroke(tpl.color("gold"), max(0.35, r * 0.09))
        c.drawPath(soul_drop_path(c, cx, cy, r), stroke=1, fill=0)
    p.record("icon", label, (cx - r * 0.82, cy - r, cx + r * 0.82, cy + r * 0.98))


def _medallion(p: Painter, tpl: Template, cx, cy, r, color: str, icon: str, label: str) -> None:
    """A faction disc: its colour, a gold ring, its icon in light ink."""
    c = p.canvas
    c.saveState()
    path = c.beginPath()
    path.circle(cx, cy, r)
    c.clipPath(path, stroke=0, fill=0)
    p.radial(cx - r * 0.3, cy + r * 0.3, r * 1.6, [shade(color, -0.35), color, shade(color, 0.5)], [0, 0.5, 1])
    c.restoreState()
    p.stroke(tpl.color("gold"), max(0.3, r * 0.1))
    c.circle(cx, cy, r, stroke=1, fill=0)
    s = r * 1.35
    p.icon(icon, cx - s / 2, cy - s / 2, s, "#3a2e1c" if is_light(color) else "#fbf6ea", record=False)
    p.record("icon", label, (cx - r, cy - r, cx + r, cy + r))


def _title(p: Painter, tpl: Template, face: CardFace, m: FaceMeasure, lay: dict) -> None:
    bar = tpl.box(lay["title_bar"])
    parch = tpl.color("parchment")
    if lay.get("title_style") == "gold":  # Rites: a gilded title
        gold = tpl.color("gold")
        _panel(p, bar, mix(gold, "#fff6d8", 0.6), mix(gold, "#fff6d8", 0.15), tpl.color("gold_dark"), 1.4 * mm, 0.9,
               "title bar")
    else:
        _panel(p, bar, shade(parch, -0.3), mix(parch, tpl.color("parchment_edge"), 0.6), tpl.color("gold_dark"),
               1.4 * mm, 0.7, "title bar")
    nb = tpl.box(lay["name"]["box"])
    font = tpl.font("title")
    baseline = nb[1] + nb[3] / 2 - m.name_size * 0.3
    if lay["name"].get("align") == "center":
        p.text(nb[0] + nb[2] / 2, baseline, face.name, font, m.name_size, tpl.color("title_ink"), anchor="middle", label="name")
    else:
        p.text(nb[0] + 2.0, baseline, face.name, font, m.name_size, tpl.color("title_ink"), label="name")
    if not lay.get("show_cost", True):
        return
    cx, cy = tpl.point(lay["cost"]["center"])
    r = float(lay["cost"]["radius"]) * mm
    if face.cost is not None:
        _soul_orb(p, tpl, cx, cy, r, label="cost")
        size = r * (1.15 if face.cost < 10 else 0.9)
        num = str(face.cost)
        cy -= r * 0.18  # the drop's round belly
        p.text(cx + 0.25, cy - size * 0.36 - 0.25, num, tpl.font("number"), size, "#0b1d3a", anchor="middle", label="cost")
        p.text(cx, cy - size * 0.36, num, tpl.font("number"), size, "#ffffff", anchor="middle", label="cost")
    else:
        _medallion(p, tpl, cx, cy, r, _frame_color(tpl, face), _faction_icon(tpl, face), "faction")


#: Between the allegiance pips (their gold ring included) and the art window's frame: six pips of the
#: template's size ended 0.1 mm from it.
PIP_CLEARANCE = 1.2 * mm


def _allegiance(p: Painter, tpl: Template, face: CardFace, lay: dict) -> None:
    """The pips down the art's left side, shrunk when a stack would come within ``PIP_CLEARANCE`` of the
    bottom of the art window."""
    spec = lay["allegiance"]
    pips = [f for f, n in face.allegiance for _ in range(n)]
    if not pips:
        return
    gap = float(spec["gap"]) * mm
    cx = tpl.point([spec["x"], spec["y"]])[0]
    top = tpl.y(spec["y"])
    compact = len(pips) > int(spec["max_pips"])
    entries = [(f, n) for f, n in face.allegiance] if compact else [(f, 1) for f in pips]
    room = top - tpl.box(lay["art"])[1] - PIP_CLEARANCE
    ring = 0.05  # the first and the last pip's gold rings reach 2.5 % of a pip's size past the stack
    size = max(0.0, min(float(spec["size"]) * mm, (room - (len(entries) - 1) * gap) / (len(entries) + ring)))
    for i, (fid, n) in enumerate(entries):
        style = face.faction_style(fid) or (tpl.color("neutral"), SYMBOL_ICONS["neutral"])
        cy = top - size / 2 - i * (size + gap)
        icon = resolve_icon_name(style[1]) if has_icon(style[1]) else SYMBOL_ICONS["neutral"]
        _medallion(p, tpl, cx, cy, size / 2, style[0], icon, f"allegiance {fid}")
        if compact and n > 1:  # a dark shadow keeps the count legible on pale art
            label = f"×{n}"
            p.text(cx + size * 0.55 + 0.35, cy - size * 0.5 - 0.35, label, tpl.font("number"), size * 0.55, "#1a1510",
                   label="allegiance")
            p.text(cx + size * 0.55, cy - size * 0.5, label, tpl.font("number"), size * 0.55, "#ffffff",
                   label="allegiance")


def _band_colours(tpl: Template, face: CardFace) -> tuple[str, str]:
    """The light band of the type bar (and the footer), tinted with the frame colour: their small text
    prints dark, in black ink only. Light text reversed out of a dark four-colour plate (about 260 %
    of ink) fills in when the plates are a hair out of register."""
    parch, frame = tpl.color("parchment"), _frame_color(tpl, face)
    return mix(parch, frame, 0.1), mix(parch, frame, 0.22)


def _type_bar(p: Painter, tpl: Template, face: CardFace, m: FaceMeasure, lay: dict) -> None:
    bar = tpl.box(lay["type_bar"])
    _panel(p, bar, *_band_colours(tpl, face), tpl.color("gold_dark"), 1.0 * mm, 0.6, "type bar")
    x, y, w, h = bar
    baseline = y + h / 2 - m.type_size * 0.34
    p.text(x + 2.2 * mm, baseline, face.type_line, tpl.font("type_line"), m.type_size, tpl.color("ink"),
           label="type line")
    icon = SYMBOL_ICONS.get(face.type)
    if icon:
        s = h * 0.78
        p.icon(icon, x + w - 2.0 * mm - s, y + (h - s) / 2, s, tpl.color("gold_dark"), label=f"type {face.type}")


# -- the text box ------------------------------------------------------------------------
def _inline_icon(p: Painter, tpl: Template, face: CardFace, name: str, x: float, baseline: float,
                 size: float, scale: float) -> None:
    s = size * scale
    y = baseline + size * 0.34 - s / 2
    ink = tpl.color("ink")
    if name == "soul":
        _soul_orb(p, tpl, x + s / 2, y + s / 2, s * 0.42, label="soul", ring=True)
    elif face.faction_style(name):
        color, icon = face.faction_style(name)
        icon = resolve_icon_name(icon) if has_icon(icon) else SYMBOL_ICONS["neutral"]
        _medallion(p, tpl, x + s / 2, y + s / 2, s * 0.46, color, icon, f"icon {name}")
    elif name in SYMBOL_MARKUP:
        p.icon(SYMBOL_ICONS[name], x, y, s, ink, label=f"icon {name}")
    else:
        p.stroke(ink, 0.4)
        p.canvas.rect(x, y, s, s, stroke=1, fill=0)
        p.record("icon", f"unknown icon {name}", (x, y, x + s, y + s))


def _draw_line(p: Painter, tpl: Template, face: CardFace, line: Line, x0: float, top: float, scale: float) -> None:
    """One laid-out line: text runs merged so PDF text stays word-separated, icons in between."""
    baseline = top - line.baseline
    color = tpl.color("muted_ink" if line.flavor else "ink")
    run: list = []  # [font, x, text, end]

    def flush() -> None:
        if run:
            p.text(run[1], baseline, run[2], run[0], line.size, color, label="rules text")
            run.clear()

    for item in line.items:
        atom = item.atom
        if atom.kind == "icon":
            flush()
            _inline_icon(p, tpl, face, atom.value, x0 + item.x + line.size * 0.06, baseline, line.size, scale)
            continue
        if run and run[0] == atom.font:
            gap = x0 + item.x - run[3]
            space = stringWidth(" ", atom.font, line.size)
            if abs(gap) < 0.01:
                run[2] += atom.value
                run[3] = x0 + item.x + item.width
                continue
            if abs(gap - space) < 0.01:
                run[2] += " " + atom.value
                run[3] = x0 + item.x + item.width
                continue
        flush()
        run.extend([atom.font, x0 + item.x, atom.value, x0 + item.x + item.width])
    flush()


def _text_box(p: Painter, tpl: Template, face: CardFace, m: FaceMeasure, lay: dict) -> None:
    box = tpl.box(lay["text_box"])
    parch = mix(tpl.color("parchment"), _frame_color(tpl, face), 0.06)
    _panel(p, box, shade(parch, -0.35), mix(parch, tpl.color("parchment_edge"), 0.35), tpl.color("gold_dark"), 1.2 * mm, 0.6,
           "text box")
    water = lay.get("watermark")
    if water:
        s = min(box[2], box[3]) * 0.8
        p.icon(SYMBOL_ICONS.get(water, water), box[0] + (box[2] - s) / 2, box[1] + (box[3] - s) / 2, s,
               _frame_color(tpl, face), alpha=0.09, record=False)
    layout: TextLayout = m.text
    x, y, w, h = m.text_rect
    c = p.canvas
    c.saveState()
    clip = c.beginPath()
    clip.rect(x - 2, y - 1, w + 4, h + 2)
    c.clipPath(clip, stroke=0, fill=0)  # text that cannot fit is reported, and never drawn outside its box
    top = y + h - max(0.0, (h - layout.height) / 2)
    scale = tpl.text_settings(face.type)["icon_scale"]
    for line in layout.lines:
        if top - line.baseline + line.size * 0.8 < y - 1:
            continue  # wholly below the box: overflow is reported, never drawn (nor counted as a mark)
        centred = line.flavor or layout.align == "center"  # flavour text is always centred
        x0 = x + (w - line.width) / 2 if centred else x
        _draw_line(p, tpl, face, line, x0, top, float(scale))
    if layout.rule_y is not None:
        ry = top - layout.rule_y
        p.stroke(tpl.color("gold_dark"), 0.45)
        c.line(x + w * 0.3, ry, x + w * 0.7, ry)
    c.restoreState()


def _footer(p: Painter, tpl: Template, face: CardFace, lay: dict) -> None:
    """The set mark and the collector number ("12/64"), and "Starter" on starter cards, on a light band
    like the type bar's, so they read over any frame texture, in black ink only.

    Neither the internal id nor the credits are printed: the books carry the credits.
    """
    spec = lay["footer"]
    size = float(spec["size"])
    font = tpl.font("footer_id")
    labels = tpl.labels(face.lang)
    safe_x0, _, _, _ = tpl.safe_rect()
    baseline = tpl.y(spec["y"]) - size * 1.2
    words = [(f"{face.number}/{face.total}", "collector number")] if face.number else []
    if face.set == "starter":
        words.append(("· " + labels.get("starter", "Starter"), "starter"))
    s = size * 1.4  # the set mark
    gap = size * 0.3
    width = s + sum(gap + stringWidth(w, font, size) for w, _ in words)
    pad = size * 0.45
    x0 = safe_x0 + 0.5
    _panel(p, (x0, baseline - size * 0.45, width + 2 * pad, size * 1.5), *_band_colours(tpl, face),
           tpl.color("gold_dark"), size * 0.5, 0.4, "footer")
    x = x0 + pad
    mark = spec.get("icon") or "back-recruit"
    p.icon(SYMBOL_ICONS.get(mark, mark), x, baseline - size * 0.3, s, tpl.color("gold_dark"), label="set mark")
    x += s
    for w, label in words:
        x += gap
        x += p.text(x, baseline, w, font, size, tpl.color("ink"), label=label)


# -- public --------------------------------------------------------------------------
def draw_face(p: Painter, tpl: Template, face: CardFace, root: Path | None = None,
              measure: FaceMeasure | None = None) -> FaceMeasure:
    """Draw a card face with its bleed, origin at the bleed's bottom-left corner."""
    m = measure or measure_face(face, tpl)
    lay = tpl.layout(face.type)
    base = _frame_color(tpl, face)
    covered = tuple(tpl.box(lay[k]) for k in ("art", "title_bar", "type_bar", "text_box"))
    _background(p, tpl, base, _second_faction(face), frame_theme(face.faction), covered)
    _inner_border(p, tpl, float(lay["frame_inset"]))
    sections = (("art", _draw_art, (face, root, lay)), ("title", _title, (face, m, lay)),
                ("allegiance", _allegiance, (face, lay)), ("type bar", _type_bar, (face, m, lay)),
                ("text box", _text_box, (face, m, lay)), ("footer", _footer, (face, lay)))
    for label, draw, args in sections:
        with p.part(label):  # names what the safe-zone check finds in it, whichever drawing call made it
            draw(p, tpl, *args)
    return m


def draw_back(p: Painter, tpl: Template, kind: str, lang: str) -> None:
    """Draw a card back: symmetric, so duplex drift shows least.

    ``kind`` is a back design (``deck``, ``rite``) or a card set, which wears its set's back
    (``BACK_OF_SET``: a starter or recruitment card the deck back). The deck back names the game only:
    a label naming a deck would tell the opponent what the hidden card is. A Rite back (always face up)
    also prints its label (``labels.LANG.backs``). Full-bleed glow and rays, no border near the cut
    (a back printed a millimetre off would show it), everything else centred well inside the safe zone.
    """
    kind = BACK_OF_SET.get(kind, kind)
    spec = tpl.data["backs"][kind]
    base, glow = spec["color"], spec["glow"]
    c = p.canvas
    W, H = tpl.full_w, tpl.full_h
    cx, cy = W / 2, H / 2
    gold = tpl.color("gold")
    with p.part("back background", bleed=True):
        colours = [mix(glow, "#ffffff", 0.25), glow, base, shade(base, 0.55)]
        p.plate("back", (0, 0, W, H), colours)
        p.radial(cx, cy, H * 0.62, colours, [0, 0.12, 0.55, 1])
        _rays(p, cx, cy, 24, H, H * 0.035, gold, 0.08)
    with p.part("back rings"):
        for r, wdt, a in ((27 * mm, 0.8, 0.85), (24.5 * mm, 0.35, 0.7), (13 * mm, 0.35, 0.5)):
            p.stroke(gold, wdt, alpha=a)
            c.circle(cx, cy, r, stroke=1, fill=0)
    s = 36 * mm
    icon = SYMBOL_ICONS[spec["icon"]] if spec["icon"] in SYMBOL_ICONS else resolve_icon_name(spec["icon"])
    p.icon(icon, cx - s / 2 + 0.8, cy - s / 2 - 0.8, s, shade(base, 0.6), alpha=0.6, label="back icon")
    p.icon(icon, cx - s / 2, cy - s / 2, s, mix(gold, "#fff3cf", 0.45), label="back icon")
    labels = tpl.labels(lang)
    title = labels["game"]
    sx, sy, sw, sh = tpl.safe_rect()
    ink = mix(gold, "#fff3cf", 0.5)
    size, _ = fit_line(title, tpl.font("title"), sw - 8, 17, 8)
    p.text(cx, sy + sh - 7.5 * mm, title, tpl.font("title"), size, ink, anchor="middle", label="game")
    if kind != DECK_BACK:
        _back_label(p, tpl, labels["backs"][kind].upper(), cx, sy + 5.5 * mm, sw, ink)


#: The back label's letter spacing (pt), and its flanking rules: gap to the text and length (mm).
BACK_LABEL_SPACING, BACK_RULE_GAP, BACK_RULE_LEN = 1.2, 2.5, 6.0


def _back_label(p: Painter, tpl: Template, label: str, cx: float, baseline: float, width: float, ink: str) -> None:
    """The deck's name, letter-spaced, between two short rules that never touch it.

    The letter spacing is part of the label's width: it is counted when fitting the label
    between the rules and when placing them.
    """
    font = tpl.font("type_line")
    spacing = BACK_LABEL_SPACING * max(0, len(label) - 1)
    room = width - 2 * (BACK_RULE_GAP + BACK_RULE_LEN) * mm - spacing
    size, _ = fit_line(label, font, room, 8.5, 8)  # light on the dark back: 8 pt at least (reversed text)
    text_w = p.text(cx, baseline, label, font, size, ink, anchor="middle", label="back label",
                    char_space=BACK_LABEL_SPACING)
    y = baseline + size * 0.35
    with p.part("back label rules"):
        p.stroke(tpl.color("gold"), 0.5)
        for side in (-1, 1):
            near = cx + side * (text_w / 2 + BACK_RULE_GAP * mm)
            p.canvas.line(near, y, near + side * BACK_RULE_LEN * mm, y)
