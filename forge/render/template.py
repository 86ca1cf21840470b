"""The card layout template (``templates/cards/card.yaml``): loaded, merged per type, converted to points.

Designers edit millimetres from the top-left of the trimmed card; the renderer
works in PDF points with the origin at the bottom-left of the bleed. This module
is the one place that converts between the two.
"""
from __future__ import annotations

import copy
import hashlib
import math
import os
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from reportlab.lib.units import mm

from ..core import safeio
from ..carddb import yamlsrc
from ..carddb.yamlsrc import SourceMap
from .assets import FONT_FILES, SYMBOL_ICONS, has_icon

TEMPLATE_DIR = Path("templates") / "cards"
TEMPLATE_FILE = TEMPLATE_DIR / "card.yaml"
#: The layout shipped with forge, used when a project has no template of its own: package data, so that
#: a wheel has it (in the checkout, a link to the shipped game's own template: one file, not two copies).
BUILTIN_TEMPLATE = Path(str(resources.files(__package__) / "defaults" / "card.yaml"))

Rect = tuple[float, float, float, float]  # x, y, width, height in points, origin bottom-left


class TemplateError(ValueError):
    """The template file is missing a key or has a value of the wrong shape; the message names it.

    When known, ``line`` and ``col`` say where, ``rule`` what kind of problem
    (``template``, a YAML rule, or a refusal of ``safeio``) and ``hint`` what to do.
    """

    def __init__(self, message: str, line: int = 0, col: int = 0, rule: str = "template",
                 hint: str = "", reason: str = ""):
        super().__init__(message)
        self.line, self.col, self.rule, self.hint = line, col, rule, hint
        self.reason = reason or message


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in (over or {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


@dataclass(frozen=True)
class Template:
    """The parsed template and its geometry in points."""

    data: dict
    digest: str

    # -- geometry ---------------------------------------------------------
    @property
    def trim_w(self) -> float:
        return self.data["card"]["width"] * mm

    @property
    def trim_h(self) -> float:
        return self.data["card"]["height"] * mm

    @property
    def bleed(self) -> float:
        return self.data["card"]["bleed"] * mm

    @property
    def safe(self) -> float:
        return self.data["card"]["safe"] * mm

    @property
    def full_w(self) -> float:
        return self.trim_w + 2 * self.bleed

    @property
    def full_h(self) -> float:
        return self.trim_h + 2 * self.bleed

    def trim_rect(self) -> Rect:
        return (self.bleed, self.bleed, self.trim_w, self.trim_h)

    def safe_rect(self) -> Rect:
        b, s = self.bleed, self.safe
        return (b + s, b + s, self.trim_w - 2 * s, self.trim_h - 2 * s)

    def box(self, spec: list[float]) -> Rect:
        """A designer's [x, y, w, h] in mm from the trim's top-left, as a point rect from the bottom-left."""
        if not (isinstance(spec, (list, tuple)) and len(spec) == 4):
            raise TemplateError(f"a box must be [x, y, width, height] in mm, not {spec!r}")
        x, y, w, h = (float(v) for v in spec)
        return (self.bleed + x * mm, self.bleed + self.trim_h - (y + h) * mm, w * mm, h * mm)

    def point(self, spec: list[float]) -> tuple[float, float]:
        x, y = (float(v) for v in spec)
        return (self.bleed + x * mm, self.bleed + self.trim_h - y * mm)

    def y(self, y_mm: float) -> float:
        """A distance from the trim's top, in mm, as a y coordinate in points."""
        return self.bleed + self.trim_h - float(y_mm) * mm

    # -- sections ---------------------------------------------------------
    def layout(self, card_type: str) -> dict:
        """The default layout merged with the card type's overrides."""
        layouts = self.data["layouts"]
        return _merge(layouts["default"], layouts.get(card_type) or {})

    def text_settings(self, card_type: str) -> dict:
        return _merge(self.data["text"], self.layout(card_type).get("text") or {})

    def color(self, role: str) -> str:
        try:
            return self.data["colors"][role]
        except KeyError:
            raise TemplateError(f"colors.{role} is missing from the template") from None

    def font(self, role: str) -> str:
        return self.data["fonts"][role]

    def labels(self, lang: str) -> dict:
        """The labels printed in ``lang``, code spans without their backticks (``forge.text.verbatim``)."""
        return self._printed_labels.get(lang) or self._printed_labels["en"]

    @cached_property
    def _printed_labels(self) -> dict:
        from ..text.verbatim import plain  # lazy: loads forge.text only when needed

        return plain(self.data["labels"])


_REQUIRED = ("card", "colors", "fonts", "text", "layouts", "backs", "labels")


def parse_template(text: str, source: str = str(TEMPLATE_FILE)) -> Template:
    """Parse template YAML; raises TemplateError naming the missing section."""
    try:
        data, source_map = yamlsrc.load(text)
    except yamlsrc.YamlError as exc:
        where = f":{exc.line}:{exc.col}" if exc.line else ""
        raise TemplateError(f"{source}{where}: {exc.message}", exc.line, exc.col, exc.rule, exc.hint,
                            exc.message) from None
    if not isinstance(data, dict):
        raise TemplateError(f"{source}: the top level must be a mapping")
    for key in _REQUIRED:
        if key not in data:
            raise TemplateError(f"{source}: the `{key}:` section is missing")
    if "default" not in data["layouts"]:
        raise TemplateError(f"{source}: `layouts.default` is missing")
    check_values(data, source_map, source)
    return Template(data, hashlib.sha256(text.encode("utf-8")).hexdigest())


# -- values: a template from a pull request is checked before a value reaches the renderer -------
#: No length, size or scale of a card template is anywhere near this (mm, pt or a factor).
MAX_NUMBER = 1000.0
#: Tighter ranges where a value outside them breaks the card itself (a bleed wider than the card
#: leaves an empty picture to cut): (lowest, highest), in mm, pt or a factor.
_RANGES = {("card", "width"): (20.0, 300.0), ("card", "height"): (20.0, 300.0), ("card", "bleed"): (0.0, 10.0),
           ("card", "safe"): (0.0, 20.0)}
#: Font and pip sizes (pt or mm) and scales (factors of a font size) stay readable on a card.
MAX_SIZE = 72.0
MAX_SCALE = 10.0
#: Font sizes the text fitter tries, from max_size down to min_size by step, at most this many.
MAX_FIT_STEPS = 400
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")
_CHOICES = {"art_shape": ("rect", "arch", "notch"), "title_style": ("parchment", "gold"),
            "align": ("auto", "left", "center")}
#: Sections whose entries may differ from the built-in template's (a card type overrides only some keys).
_PARTIAL = ("layouts",)


def _reference_path(path: tuple) -> tuple:
    """Where a project template's value sits in the built-in one (the shape every value must have)."""
    head, rest = path[0], path[2:]
    if head == "layouts" and len(path) > 1:
        return ("text", *rest[1:]) if rest[:1] == ("text",) else ("layouts", "default", *rest)
    if head in ("backs", "labels") and len(path) > 1:
        # every back has the shape of the built-in's first (deck, rite…), every language that of English
        return (head, next(iter(_builtin_data()["backs"])) if head == "backs" else "en", *rest)
    return path


def _lookup(data, path: tuple):
    for key in path:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and data:
            data = data[min(key, len(data) - 1)]
        else:
            return KeyError
    return data


def _value_problem(path: tuple, value, ref) -> str | None:
    """What is wrong with one value, compared with the built-in template's value at the same place."""
    key = path[-1]
    if key in _CHOICES:
        return None if value in _CHOICES[key] else f"must be one of {', '.join(_CHOICES[key])}"
    if path[0] == "fonts" or (isinstance(key, str) and key.endswith("font")):
        return None if value in FONT_FILES else f"must be one of the fonts {', '.join(FONT_FILES)}"
    if key in ("icon", "watermark"):
        if value is None and key == "watermark":
            return None
        ok = isinstance(value, str) and (value in SYMBOL_ICONS or has_icon(value))
        return None if ok else "must be an icon forge vendors (a game-icons.net name)"
    if path[0] == "colors" or key in ("color", "glow") or (isinstance(ref, str) and _COLOR.fullmatch(ref)):
        return None if isinstance(value, str) and _COLOR.fullmatch(value) else 'must be a colour "#rrggbb"'
    if isinstance(ref, bool):
        return None if isinstance(value, bool) else "must be true or false"
    if isinstance(ref, (int, float)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "must be a number"
        if isinstance(ref, int) and not isinstance(value, int):
            return "must be a whole number"
        low, high = _RANGES.get(path, (0.0, MAX_NUMBER))
        if isinstance(key, str) and key.endswith("size"):
            high = MAX_SIZE
        elif isinstance(key, str) and (key.endswith("scale") or key == "leading"):
            high = MAX_SCALE
        if not (math.isfinite(value) and low <= value <= high):
            return f"must be a number from {low:g} to {high:g}"
        if key == "step" and value < 0.05:
            return "must be at least 0.05"
        if isinstance(key, str) and (key.endswith(("size", "scale")) or key == "leading") and value <= 0:
            return "must be more than 0"
        return None
    if isinstance(ref, str):
        return None if isinstance(value, str) else "must be text"
    return None


def check_values(data: dict, source: SourceMap | None = None, where: str = str(TEMPLATE_FILE)) -> None:
    """Raise TemplateError at the first value whose shape or range the renderer cannot take.

    Every value is compared with the built-in template's value at the same place: numbers stay
    finite and in range (no NaN, no 10^9 pt font, no step that never ends), colours are
    ``#rrggbb``, fonts and icons are forge's own, boxes have their four numbers.
    """
    reference = _builtin_data()

    def fail(path: tuple, message: str) -> None:
        line, col = source.at(path) if source else (0, 0)
        shown = ".".join(str(p) for p in path)
        raise TemplateError(f"{where}{f':{line}:{col}' if line else ''}: `{shown}` {message}", line, col,
                            hint="fix the value, or compare with forge's own templates/cards/card.yaml",
                            reason=f"`{shown}` {message}")

    def walk(value, path: tuple) -> None:
        ref = _lookup(reference, _reference_path(path)) if path else reference
        if ref is KeyError:
            return  # a key forge does not read
        if isinstance(ref, dict):
            if value is None and path[:1] == ("layouts",) and len(path) >= 2 and path[1] != "default":
                return
            if not isinstance(value, dict):
                fail(path, "must be a mapping")
            complete = not (path[:1] in [(p,) for p in _PARTIAL] and path[1:2] != ("default",)) or len(path) < 2
            if path[:1] == ("layouts",) and len(path) >= 3 and path[2] == "text":
                complete = False
            for k in (ref if complete and path[:1] not in (("colors",), ("fonts",)) else ()):
                if k not in value and not (path == ("layouts",) and k != "default") and not (
                        path in (("backs",), ("labels",)) and k != next(iter(ref))):
                    fail(path + (k,), "is missing")
            for k, v in value.items():
                walk(v, path + (k,))
            return
        if isinstance(ref, list):
            if not isinstance(value, list):
                fail(path, "must be a list")
            if ref and all(isinstance(r, (int, float)) for r in ref) and len(value) != len(ref):
                fail(path, f"must be a list of {len(ref)} numbers")
            for i, v in enumerate(value):
                walk(v, path + (i,))
            if len(ref) == 4 and all(isinstance(r, (int, float)) for r in ref):
                boxes.append((path, value))
            return
        problem = _value_problem(path, value, ref)
        if problem:
            fail(path, problem)

    boxes: list[tuple[tuple, list]] = []
    walk(data, ())
    card = data["card"]
    if 2 * card["safe"] >= min(card["width"], card["height"]):
        fail(("card", "safe"), "leaves no room inside the card (twice the safe margin is wider than the card)")
    for path, (x, y, w, h) in boxes:  # [x, y, width, height] in mm from the trim's top left
        if w <= 0 or h <= 0 or x + w > card["width"] + card["bleed"] or y + h > card["height"] + card["bleed"]:
            fail(path, f"must be a box of some size inside the card ({card['width']:g} × {card['height']:g} mm "
                       f"and its {card['bleed']:g} mm bleed), not {[x, y, w, h]}")
    layouts = data["layouts"]
    for name in layouts:
        text = _merge(data["text"], (_merge(layouts["default"], layouts[name] or {})).get("text") or {})
        if text["min_size"] > text["max_size"]:
            fail(("layouts", name, "text") if "text" in (layouts[name] or {}) else ("text", "min_size"),
                 f"has min_size {text['min_size']:g} above max_size {text['max_size']:g}")
        steps = (text["max_size"] - text["min_size"]) / text["step"]
        if steps > MAX_FIT_STEPS:
            fail(("layouts", name, "text") if "text" in (layouts[name] or {}) else ("text", "step"),
                 f"makes the text fitter try {steps:,.0f} sizes (from max_size to min_size by step); "
                 f"at most {MAX_FIT_STEPS}")


@lru_cache(maxsize=1)
def _builtin_data() -> dict:
    data, _ = yamlsrc.load(BUILTIN_TEMPLATE.read_text(encoding="utf-8"))
    return data


def template_path(root: Path) -> Path:
    """The project's template (whatever it is: a FIFO named card.yaml is refused, not skipped), or forge's."""
    own = Path(root) / TEMPLATE_FILE
    return own if os.path.lexists(own) else BUILTIN_TEMPLATE


@lru_cache(maxsize=8)
def _load_cached(path: str, root: str, mtime_ns: int) -> Template:
    return parse_template(safeio.read_text(path, root), path)


def load_template(root: Path) -> Template:
    """The project's card template, parsed; raises TemplateError when it cannot be read or is malformed.

    It is read through ``safeio``: a pipe, a device, a folder, a huge file or a link
    out of the project is refused before a byte is read.
    """
    path = template_path(root)
    try:
        return _load_cached(str(path), str(root), os.stat(path).st_mtime_ns)
    except safeio.UnsafeInput as exc:
        raise TemplateError(f"{path}: {exc.message}", rule=exc.rule, hint=exc.hint, reason=exc.message) from None
    except OSError as exc:
        raise TemplateError(f"{path}: cannot read ({exc.strerror})", rule="io",
                            hint="check that the file exists and is readable", reason="cannot read the file") from None
    except UnicodeDecodeError:
        raise TemplateError(f"{path}: the file is not UTF-8", rule="encoding",
                            hint="save the file as UTF-8 in your editor", reason="the file is not UTF-8") from None
