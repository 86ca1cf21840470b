"""What the web edition carries inside its one file: fonts, card pictures and local images as ``data:`` URIs,
and the Content-Security-Policy that proves the page loads nothing else.

A page that fetches nothing works from a USB stick, an e-mail attachment or a
folder with no server, and leaks no reader to a third party. So the fonts are
subset to the Latin scripts and inlined as WOFF2, each card a page names is
drawn by the card renderer (as the printed card, in the page's language) and
inlined as a JPEG, and the policy allows only ``data:`` images and fonts and
forge's own scripts, by the hash of forge's files (never of what the page holds).
"""
from __future__ import annotations

import base64
import hashlib
import io
import mimetypes
import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import urljoin
from collections import Counter
from importlib.metadata import version

from ..core import safeio
from ..core.csp import page_policy
from .compose import FONTS_DIR, LAYOUT_DIR
from .fetch import UrlPolicy, file_path
from ..core.seal import SealedRecord

#: The fonts of the books, as (family, weight, style, file).
FONTS: tuple[tuple[str, str, str, str], ...] = (
    ("IM FELL English SC", "normal", "normal", "IMFellEnglishSC-Regular.ttf"),
    ("Lato", "normal", "normal", "Lato-Regular.ttf"), ("Lato", "bold", "normal", "Lato-Bold.ttf"),
    ("Lato", "normal", "italic", "Lato-Italic.ttf"), ("Lato", "bold", "italic", "Lato-BoldItalic.ttf"),
    ("Lato", "900", "normal", "Lato-Black.ttf"),
)
#: The characters kept in the inlined fonts: Latin (English, French and their neighbours) and punctuation.
#: A character outside them falls back to the reader's own fonts.
UNICODES: tuple[range, ...] = (range(0x20, 0x7F), range(0xA0, 0x250), range(0x2010, 0x2070), range(0x20AC, 0x20AD),
                               range(0x2190, 0x2200), range(0x2212, 0x2213))
#: Width of the card previews in pixels (shown 208 to 240 CSS pixels wide), and their JPEG quality:
#: the reference names every card, so its page carries every picture (about 19 KB each).
PREVIEW_PX = 300
PREVIEW_QUALITY = 80
#: The web edition's one script: forge's own layout file (never a project's), whose hash the pages' policy allows.
BOOK_SCRIPT = LAYOUT_DIR / "web.js"


def data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


@lru_cache(maxsize=None)
def _woff2(file: str) -> bytes:
    """One font, subset to ``UNICODES``, as WOFF2 bytes; the same bytes every time (no timestamp)."""
    from fontTools import subset  # lazy: loads fontTools only when needed
    from fontTools.ttLib import TTFont  # lazy: loads fontTools only when needed

    font = TTFont(FONTS_DIR / file, recalcTimestamp=False)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]  # keep the copyright and licence names
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for r in UNICODES for c in r])
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.flavor = "woff2"
    font.save(buffer, reorderTables=False)
    return buffer.getvalue()


def _font_key(file: str) -> str:
    """What a subset font is made from: the font, the characters kept, the subsetter and compressor."""
    h = hashlib.sha256((FONTS_DIR / file).read_bytes())
    h.update(f"{UNICODES}|fonttools={version('fonttools')}|brotli={version('brotli')}".encode())
    return "font-" + h.hexdigest()


def font_faces(cache: "AssetCache | None" = None) -> str:
    """``@font-face`` rules for the books' fonts, inlined (subsetting takes seconds: ``cache`` keeps them)."""
    cache = cache or AssetCache()
    return "\n".join(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                     f'font-display: swap; src: url("{cache.get(_font_key(file), lambda f=file: data_uri("font/woff2", _woff2(f)))}")'
                     f' format("woff2"); }}' for family, weight, style, file in FONTS)


class AssetCache:
    """What the pages inline and is slow to make (subset fonts, card pictures), by the hash of its inputs.

    Kept between runs in ``<out>/.cache/web-assets.json``, sealed like forge's other records
    (``forge.core.seal``): a record this machine did not write is no record. What a run did not
    use is dropped from it."""

    RECORD, KIND = Path(".cache") / "web-assets.json", "web assets"

    def __init__(self, out: Path | None = None):
        self.record = SealedRecord(Path(out) / self.RECORD, self.KIND, folder=out) if out is not None else None
        self.known: dict[str, str] = (self.record.load() or {}) if self.record else {}
        self.used: dict[str, str] = {}

    def get(self, key: str, make) -> str:
        """The asset made from ``key``'s inputs (a ``data:`` URI or a text), made by ``make()`` when unknown."""
        if key not in self.used:
            known = self.known.get(key)
            self.used[key] = known if isinstance(known, str) else make()
        return self.used[key]

    def save(self) -> None:
        """Keep what this run used for the next; a record that cannot be written is no loss."""
        if self.record is not None and self.used != self.known:
            self.record.save(self.used, quiet=True)


def local_image(src: str, root: Path, policy: UrlPolicy) -> str | None:
    """A relative image URL of the prose (a file under templates/, as the PDF allows) as a ``data:`` URI,
    or None when the policy refuses it or it cannot be read (compose has reported it already)."""
    url = urljoin(Path(root).resolve().as_uri() + "/", src.strip())
    if policy.check_fetch(url) is not None or not url.startswith("file:"):
        return None
    path = file_path(url)
    try:
        data = safeio.read_bytes(path, root)
    except (safeio.UnsafeInput, OSError):
        return None
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return data_uri(mime, data)


#: A picture forge inlined: a class of words, a base64 ``data:`` URI, an escaped text. Nothing else is moved
#: into the page's style sheet (a ``src`` holding ``</style>`` would end it).
_REPEATED_IMG = re.compile(r'<img class="([\w -]*)" src="(data:[\w.+/-]+;base64,[A-Za-z0-9+/=]+)" alt="([^"<>]*)"/?>')


def share_images(page: str) -> tuple[str, str]:
    """Each small picture the page repeats (the card icons, hundreds of times in the reference) drawn once:
    its ``<img>`` becomes a ``span`` with ``role="img"`` and its text, and the picture a style rule.

    Returns the page and the style rules to add to it."""
    uses = Counter(m.group(2) for m in _REPEATED_IMG.finditer(page))
    shared = {uri: f"pic-{n}" for n, uri in enumerate(sorted(u for u, count in uses.items() if count > 1), start=1)}

    def span(m: re.Match) -> str:
        name = shared.get(m.group(2))
        if name is None:
            return m.group(0)
        return f'<span class="{m.group(1)} {name}" role="img" aria-label="{m.group(3)}"></span>'

    rules = "\n".join(f'.{name} {{ background-image: url("{uri}"); }}' for uri, name in shared.items())
    return _REPEATED_IMG.sub(span, page), rules


def content_policy() -> str:
    """The web edition's policy (``forge.core.csp``): no script runs but forge's own ``web.js``, hashed from
    forge's file; a project's copy runs only while it is the same, and nothing the page holds is read."""
    return page_policy(BOOK_SCRIPT)
