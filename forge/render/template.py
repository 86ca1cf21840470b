"""The card layout template (``templates/cards/card.yaml``): loaded, merged per type, converted to points.

Designers edit millimetres from the top-left of the trimmed card; the renderer
works in PDF points with the origin at the bottom-left of the bleed. This module
is the one place that converts between the two.
"""
from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.lib.units import mm

from .. import safeio, yamlsrc

TEMPLATE_DIR = Path("templates") / "cards"
TEMPLATE_FILE = TEMPLATE_DIR / "card.yaml"
#: The layout shipped with forge, used when a project has no template of its own.
BUILTIN_TEMPLATE = Path(__file__).resolve().parents[2] / TEMPLATE_FILE

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
        labels = self.data["labels"]
        return labels.get(lang) or labels["en"]


_REQUIRED = ("card", "colors", "fonts", "text", "layouts", "backs", "labels")


def parse_template(text: str, source: str = str(TEMPLATE_FILE)) -> Template:
    """Parse template YAML; raises TemplateError naming the missing section."""
    try:
        data, _ = yamlsrc.load(text)
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
    return Template(data, hashlib.sha256(text.encode("utf-8")).hexdigest())


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
