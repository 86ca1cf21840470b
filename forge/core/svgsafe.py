"""SVG art cut down to a safe subset, within a budget, before svglib or reportlab sees it.

svglib draws what a file asks for: each ``<use>`` copies the element it names, so ten
nested ``<use>`` of ten each are 10^10 elements from 3 KB, and an embedded PNG is decoded
whole, whatever its header declares. Here the file is parsed once by ``safeio.parse_xml``
(no DTD, no entities, no network), then measured on its tree: elements, characters of an
attribute or a style sheet, and, following every reference (``<use>``, ``href``,
``url(#id)``), what drawing it would cost (elements, characters, embedded pixels) and how
deep references go. References leave the file only as an embedded PNG or JPEG, whose header
is read before anything decodes it. Scripts, ``foreignObject`` and event attributes are
dropped. The tree that passes is serialised again, and that is what svglib reads.
"""
from __future__ import annotations

import base64
import binascii
import io
import re
import warnings

from . import limits, safeio

#: References an SVG may keep: to one of its own elements, or (on ``<image>``) an embedded PNG/JPEG.
_LOCAL_REF = re.compile(r"^\s*#([^\s#]+)\s*$")
_EMBEDDED = re.compile(r"^\s*data:image/(png|jpe?g);base64,", re.I)
_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)")
_IMPORT = re.compile(r"@import\s+(?:url\(\s*)?['\"]?([^'\")\s;]+)", re.I)
_XLINK = "{http://www.w3.org/1999/xlink}href"
#: Elements that never draw and may run or fetch something in another SVG reader.
_DROPPED = frozenset({"script", "foreignObject", "iframe", "handler", "listener"})


class SVGRefused(Exception):
    """An SVG beyond a budget, or referring outside itself; ``message`` says which, ``hint`` what to do."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


def _local(node) -> str:
    tag = node.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def sanitise(data: bytes) -> tuple[bytes, list[bytes]]:
    """The SVG reduced to its safe subset (bytes for svglib) and the embedded rasters it draws.

    Raises SVGRefused naming the budget (and its number) or the reference that is refused.
    """
    from lxml import etree  # lazy: loads lxml only when needed

    try:
        root = safeio.parse_xml(data, "the SVG")
    except safeio.XMLRefused as exc:
        raise SVGRefused(f"{exc.message} (line {exc.line})", exc.hint) from None
    if _local(root) != "svg":
        raise SVGRefused("not an SVG picture (its root element is not <svg>)")
    nodes = [n for n in root.iter() if isinstance(n.tag, str)]
    if len(nodes) > limits.MAX_SVG_ELEMENTS:
        raise SVGRefused(f"the SVG has {len(nodes):,} elements, more than the budget of {limits.MAX_SVG_ELEMENTS:,}",
                         "simplify the drawing, or save it as a PNG")
    ids: dict[str, list] = {}
    refs: dict = {}
    pixels: dict = {}
    rasters: list[bytes] = []
    styles = 0
    for node in nodes:
        name = _local(node)
        if name in _DROPPED:
            continue
        for attr in [a for a in node.attrib if etree.QName(a).localname.lower().startswith("on")]:
            del node.attrib[attr]  # event handlers: svglib ignores them, another reader would run them
        for attr, value in node.attrib.items():
            if len(value) > limits.MAX_SVG_ATTRIBUTE_CHARS:
                raise SVGRefused(f"an attribute `{etree.QName(attr).localname}` of <{name}> holds {len(value):,} "
                                 f"characters, more than the budget of {limits.MAX_SVG_ATTRIBUTE_CHARS:,}",
                                 "simplify the drawing, or save it as a PNG")
        if node.get("id"):
            ids.setdefault(node.get("id"), []).append(node)
        if name == "style":
            styles += len(node.text or "")
            if styles > limits.MAX_SVG_STYLE_CHARS:
                raise SVGRefused(f"the SVG's style sheets hold more than {limits.MAX_SVG_STYLE_CHARS:,} characters "
                                 "(the budget)", "use presentation attributes, or simplify the drawing")
        refs[node] = _references(node, name)
        if name == "image":
            raster = _embedded(node)
            pixels[node] = _declared_pixels(raster)
            rasters.append(raster)
    for node in [n for n in nodes if _local(n) in _DROPPED]:
        if node.getparent() is not None:
            node.getparent().remove(node)
    total = _expansion(root, ids, refs, pixels)
    if total[2] > limits.MAX_IMAGE_PIXELS:
        raise SVGRefused(f"the SVG draws {total[2]:,} pixels of embedded images, more than the budget of "
                         f"{limits.MAX_IMAGE_PIXELS:,}", "embed smaller images, or fewer copies of them")
    return etree.tostring(root, encoding="utf-8", xml_declaration=True), rasters


def _references(node, name: str) -> list[str]:
    """The ids an element refers to; SVGRefused for a reference to anything outside the file."""
    found = []
    for attr in (_XLINK, "href"):
        ref = node.get(attr)
        if ref is None:
            continue
        local = _LOCAL_REF.match(ref)
        if local and name != "image":
            found.append(local.group(1))
        elif not (name == "image" and _EMBEDDED.match(ref)):
            raise SVGRefused(f"the SVG refers to something outside itself ({ref[:80]!r}); forge never reads other "
                             "files or URLs for a picture, and <image> takes only an embedded PNG or JPEG",
                             "embed the picture (data:image/png;base64,…) or draw it in the SVG")
    texts = [v for a, v in node.attrib.items() if a not in (_XLINK, "href")]
    if name == "style":
        texts.append(node.text or "")
    for text in texts:
        for ref in _URL.findall(text) + _IMPORT.findall(text):
            if not ref.strip().startswith("#"):
                raise SVGRefused(f"the SVG refers to something outside itself ({ref[:80]!r}); forge never reads "
                                 "other files or URLs for a picture", "refer only to the SVG's own elements (#id)")
            found.append(ref.strip()[1:])
    return found


def _embedded(node) -> bytes:
    """The bytes of an ``<image>``'s embedded PNG or JPEG (its href was checked by ``_references``)."""
    ref = node.get(_XLINK) or node.get("href") or ""
    try:
        return base64.b64decode(re.sub(r"\s+", "", ref[ref.index(",") + 1:]), validate=True)
    except (ValueError, binascii.Error):
        raise SVGRefused("an embedded image of the SVG is not valid base64",
                         "embed the picture again with your drawing program") from None


def _declared_pixels(raster: bytes) -> int:
    """The pixels an embedded raster declares in its header, read without decoding it; SVGRefused over the cap."""
    Image = safeio.pillow()
    over = f"more than the budget of {limits.MAX_IMAGE_PIXELS:,} pixels: a decompression bomb?"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # checked below, with its figures
            with Image.open(io.BytesIO(raster), formats=("PNG", "JPEG")) as probe:  # reads the header only
                width, height = probe.size
    except Image.DecompressionBombError:
        raise SVGRefused(f"an embedded image declares {over}", "embed a smaller picture") from None
    except (Image.UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise SVGRefused("an embedded image of the SVG is not a PNG or JPEG image",
                         "embed a PNG or JPEG picture") from None
    if width * height > limits.MAX_IMAGE_PIXELS:
        raise SVGRefused(f"an embedded image declares {width:,} × {height:,}, {over}", "embed a smaller picture")
    return width * height


def _expansion(root, ids: dict, refs: dict, pixels: dict) -> tuple[int, int, int, int]:
    """What drawing ``root`` costs once every reference is followed: (elements, characters, pixels, depth).

    Each element is measured once (memoised), so the measure itself stays linear in the file;
    a reference cycle, a chain deeper than MAX_SVG_USE_DEPTH or a total over MAX_SVG_EXPANDED
    elements or MAX_SVG_EXPANDED_CHARS characters raises SVGRefused.
    """
    memo: dict = {}
    active: set = set()
    budget = (limits.MAX_SVG_EXPANDED, limits.MAX_SVG_EXPANDED_CHARS)

    def cost(node) -> tuple[int, int, int, int]:
        if node in memo:
            return memo[node]
        if node in active:
            raise SVGRefused(f"the SVG's element `{node.get('id') or _local(node)}` refers to itself (a reference "
                             "cycle)", "remove the reference that loops")
        active.add(node)
        chars = len(node.text or "") + sum(len(v) for a, v in node.attrib.items() if node not in pixels
                                           or a not in (_XLINK, "href"))  # an image counts by its pixels
        elements, px, depth = 1, pixels.get(node, 0), 0
        for ref in refs.get(node, ()):
            targets = [cost(t) for t in ids.get(ref, ())]
            if targets:
                e, c, p, d = max(targets)
                elements, chars, px, depth = elements + e, chars + c, px + p, max(depth, d + 1)
        for child in node:
            if isinstance(child.tag, str):
                e, c, p, d = cost(child)
                elements, chars, px, depth = elements + e, chars + c, px + p, max(depth, d)
        if depth > limits.MAX_SVG_USE_DEPTH:
            raise SVGRefused(f"the SVG's references (<use>, href, url(#…)) nest {depth} deep, more than the budget "
                             f"of {limits.MAX_SVG_USE_DEPTH}", "flatten the nested <use> elements")
        if elements > budget[0] or chars > budget[1]:
            raise SVGRefused(f"the SVG (its <use> copies expanded) would draw {elements:,} elements and {chars:,} "
                             f"characters of markup, more than the budget of {budget[0]:,} elements or "
                             f"{budget[1]:,} characters",
                             "use fewer nested <use> copies, or save the picture as a PNG")
        active.discard(node)
        memo[node] = (elements, chars, px, depth)
        return memo[node]

    try:
        return cost(root)
    except RecursionError:
        raise SVGRefused("the SVG's elements nest too deep to measure", "flatten the drawing's groups") from None
