"""What a book may load: the URL policy, a scan of the HTML for every URL it holds, and WeasyPrint's fetcher.

The books' prose, styles and layout may come from a stranger's pull request, and
CI renders them. WeasyPrint would otherwise open any ``file:`` URL: an
``<a rel="attachment" href="file:///proc/self/environ">`` copies the CI's
secrets into the PDF, a ``<link rel=stylesheet>`` or an ``<img>`` reads any
file, and ``http:`` reaches the network. So:

- ``scan_html`` lists every URL of a composed book (HTML attributes with their
  entities decoded, and CSS parsed with tinycss2, escapes and ``@import``
  included) so that each refusal becomes a finding at its template line before
  anything is rendered;
- ``GuardedFetcher`` is the enforcement: WeasyPrint reaches files only through
  it, and it serves only forge's own inline assets, ``data:`` URLs, and ordinary
  files inside the allowed folders (the project's ``templates/``, forge's shipped
  templates and assets), read through ``forge.core.safeio``. Whatever it refuses is
  recorded, and a book that needed a refused URL is not written.

Hyperlinks (``<a href>``) are not fetched: links to places in the book and to
``http(s):``/``mailto:`` addresses stay clickable; a link to a local file, and
every attachment, is refused.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit
import mimetypes
from urllib.request import url2pathname

from ..core import safeio

#: The scheme of forge's own inline images (see ``pdf._short_assets``).
ASSET_SCHEME = "forge-asset"
#: Schemes a hyperlink may point to: it is a link in the PDF, never fetched.
LINK_SCHEMES = ("http", "https", "mailto")
#: Attributes that make WeasyPrint fetch, by tag (any tag: src, href of <link>, data of <object>…).
_FETCH_ATTRS = ("src", "data", "poster", "background", "xlink:href", "srcset")


@dataclass(frozen=True)
class Refusal:
    """A URL a book may not use, why, and the text to look for in the templates to find its line."""

    url: str
    reason: str
    needle: str


@dataclass
class UrlPolicy:
    """Which ``file:`` paths a book may read: ordinary files inside ``folders`` (resolved), nothing else."""

    root: Path
    folders: tuple[Path, ...]

    @classmethod
    def for_project(cls, root: Path, template_dirs: tuple[Path, ...], assets: tuple[Path, ...]) -> "UrlPolicy":
        folders = tuple(Path(d).resolve() for d in (*template_dirs, *assets) if Path(d).is_dir())
        return cls(Path(root).resolve(), folders)

    def check_fetch(self, url: str) -> str | None:
        """Why WeasyPrint may not fetch ``url`` (an absolute URL), or None when it may."""
        scheme = urlsplit(url).scheme.lower()
        if scheme in (ASSET_SCHEME, "data"):
            return None
        if scheme != "file":
            return f"`{scheme or 'relative'}:` URLs are never fetched (the books read no network)"
        return self.check_file(file_path(url))

    def check_file(self, path: Path) -> str | None:
        try:
            real = safeio.check_path(path, self.root)
        except safeio.UnsafeInput as exc:
            return exc.message
        if not safeio.inside(real, self.folders):
            return "the file is outside the folders a book may read (templates/ and forge's assets)"
        if not safeio.is_regular_file(real, self.root):
            return "not an ordinary file"
        return None

    def check_link(self, url: str) -> str | None:
        """Why a hyperlink may not stay in the book, or None: fragments and web or mail links are fine."""
        stripped = url.strip()
        if not stripped or stripped.startswith("#"):
            return None
        scheme = urlsplit(stripped).scheme.lower()
        if scheme in LINK_SCHEMES:
            return None
        return "a link to a local file or an unknown scheme would point readers (or the PDF) at this machine"


def file_path(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


# -- scanning a composed book ---------------------------------------------------------------------
class _UrlCollector(HTMLParser):
    """Every URL of an HTML document in document order, as (role, url) with entities decoded.

    Roles: ``attachment`` (``rel=attachment``), ``link`` (``<a href>``: not fetched), ``fetch``
    (``src``, ``<link href>``, ``data``…) and ``css`` (a stylesheet or a style attribute, whole).
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        tag = tag.lower()
        values = {k.lower(): (v or "") for k, v in attrs}
        rel = values.get("rel", "").lower().split()
        for name, value in values.items():
            if name == "style":
                self.found.append(("css", value))
            elif name == "srcset":
                self.found += [("fetch", part.split()[0]) for part in value.split(",") if part.strip()]
            elif name in _FETCH_ATTRS:
                self.found.append(("fetch", value))
            elif name == "href":
                role = "attachment" if "attachment" in rel else "link" if tag in ("a", "area") else "fetch"
                self.found.append((role, value))
        if tag == "style":
            self._in_style = True

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag.lower() == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.found.append(("css", data))


def css_urls(css: str) -> list[str]:
    """Every URL a stylesheet (or a style attribute) asks for: ``url()`` anywhere and ``@import "…"``.

    Parsed with tinycss2, so CSS escapes (``u\\72l(``) and comments hide nothing.
    """
    return list(_css_urls(css))


@lru_cache(maxsize=64)
def _css_urls(css: str) -> tuple[str, ...]:
    """``css_urls``, kept: every document of a book carries the same style sheet, and the build scans
    each document twice (for the findings, then for the incremental key)."""
    import tinycss2  # lazy: loads tinycss2 only when needed

    found: list[str] = []

    def walk(tokens) -> None:
        for token in tokens or ():
            kind = getattr(token, "type", "")
            if kind == "url":
                found.append(token.value)
            elif kind == "function" and token.lower_name in ("url", "src"):
                found.extend(t.value for t in token.arguments if getattr(t, "type", "") == "string")
            elif kind == "at-rule" and token.lower_at_keyword == "import":
                found.extend(t.value for t in token.prelude if getattr(t, "type", "") == "string")
            for part in ("prelude", "content", "arguments", "value"):
                inner = getattr(token, part, None)
                if isinstance(inner, list):
                    walk(inner)

    walk(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))
    walk(tinycss2.parse_blocks_contents(css, skip_whitespace=True, skip_comments=True))
    return tuple(dict.fromkeys(found))


def _urls(markup: str) -> list[tuple[str, str]]:
    """Every URL of an HTML document as (role, url): a stylesheet's or style attribute's, one by one."""
    return list(_document_urls(markup))


@lru_cache(maxsize=8)
def _document_urls(markup: str) -> tuple[tuple[str, str], ...]:
    """``_urls``, kept for the few documents of the book being built: ``compose`` scans a book for its
    findings, then ``build.book_key`` scans the same text again for the files it hashes."""
    collector = _UrlCollector()
    collector.feed(markup)
    collector.close()
    return tuple((role, url) for role, value in collector.found
                 for url in (_css_urls(value) if role == "css" else [value]))


def scan_html(markup: str, base_url: str, policy: UrlPolicy) -> list[Refusal]:
    """Every URL of a composed book that the policy refuses, each time it occurs, in document order."""
    refusals: list[Refusal] = []
    for role, url in _urls(markup):
        if role == "attachment":
            reason = "attachments are never embedded in a book (they would copy a file into the PDF)"
        elif role == "link":
            reason = policy.check_link(url)
        else:
            reason = policy.check_fetch(urljoin(base_url, url.strip())) if url.strip() else None
        if reason:
            refusals.append(Refusal(url, reason, url))
    return refusals


def fetchable_files(markup: str, base_url: str, policy: UrlPolicy) -> list[Path]:
    """The project files a layout of ``markup`` may read: its allowed ``file:`` URLs, and theirs for a
    stylesheet, resolved, in order. What the incremental build hashes besides the HTML itself."""
    pending = [(base_url, url) for role, url in _urls(markup) if role in ("fetch", "css")]
    files: dict[Path, None] = {}
    while pending:
        base, url = pending.pop(0)
        absolute = urljoin(base, url.strip()) if url.strip() else ""
        if urlsplit(absolute).scheme.lower() != "file" or policy.check_fetch(absolute):
            continue
        path = file_path(absolute)
        if path in files:
            continue
        files[path] = None
        if path.suffix.lower() == ".css":
            try:
                css = safeio.read_text(path, policy.root)
            except (safeio.UnsafeInput, UnicodeDecodeError):
                continue
            pending += [(absolute, inner) for inner in css_urls(css)]
    return list(files)


# -- WeasyPrint's fetcher --------------------------------------------------------------------------
@dataclass
class FetchLog:
    """What the fetcher refused during a render (the render is then thrown away)."""

    refused: list[Refusal] = field(default_factory=list)


class FetchRefused(Exception):
    """A render asked for URLs the policy refuses; carries them."""

    def __init__(self, refused: list[Refusal]):
        super().__init__(", ".join(r.url for r in refused))
        self.refused = refused


def guarded_fetcher(policy: UrlPolicy, assets: dict[str, tuple[str, str]], log: FetchLog):
    """A WeasyPrint URL fetcher that serves only what ``policy`` allows and records every refusal."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # lazy: loads weasyprint only when needed

    class GuardedFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            reason = policy.check_fetch(url)
            if reason:
                log.refused.append(Refusal(url, reason, url))
                raise ValueError(f"refused by forge: {url}: {reason}")
            scheme = urlsplit(url).scheme.lower()
            if scheme == ASSET_SCHEME:
                mime, data = assets[url]
                return URLFetcherResponse(url, base64.b64decode(data), {"Content-Type": mime})
            if scheme == "data":
                return super().fetch(url, headers)  # decoded in memory by urllib's DataHandler
            path = Path(url2pathname(urlsplit(url).path))
            try:
                body = safeio.read_bytes(path, policy.root)
            except safeio.UnsafeInput as exc:
                log.refused.append(Refusal(url, exc.message, url))
                raise ValueError(f"refused by forge: {url}: {exc.message}") from None
            return URLFetcherResponse(path.as_uri(), body, {"Content-Type": _mime(path)})

    return GuardedFetcher(allowed_protocols=("file", "data", ASSET_SCHEME))


def _mime(path: Path) -> str:
    return mimetypes.guess_type(path.name)[0] or "application/octet-stream"
