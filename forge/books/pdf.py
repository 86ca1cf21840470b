"""HTML to PDF with WeasyPrint: reproducible bytes, booklet page counts, and a read-back check.

Reproducible: WeasyPrint writes no date unless the document asks for one, and the
only clock it reads is fontTools', when it subsets the embedded fonts (the ``head``
table's modification time); ``SOURCE_DATE_EPOCH`` pins it. The same inputs give
the same bytes.

Booklet: a saddle-stitched booklet has a multiple of 4 pages, so blank pages are
added before the back cover when needed.

Page turns: a book whose layout cuts a word across a page turn is laid out again with that
word kept whole (``forge.books.pageturn``); one whose last page of text is mostly blank, with its
closing block's leading changed to fill it or give it back (``forge.books.balance``).
"""
from __future__ import annotations

import io
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
import logging
import warnings

from .fetch import ASSET_SCHEME, FetchLog, FetchRefused, UrlPolicy, guarded_fetcher
from . import balance
from ..render.pdftext import page_texts
from .pageturn import MAX_PASSES, keep_whole, page_turn_words

#: The fontTools clock for subset fonts (1 January 2024, 00:00 UTC): any fixed value will do.
FIXED_EPOCH = "1704067200"
PAGES_PER_SHEET = 4
#: Fonts the books may embed; any other name means a character fell back to a system font.
BOOK_FONTS = ("Lato", "IMFellEnglishSC", "IM-FELL-English-SC", "IMFELLEnglishSC")


@contextmanager
def fixed_clock():
    """Pin the subset fonts' timestamps for the duration of a render."""
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = old or FIXED_EPOCH
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


def _quiet_weasyprint() -> None:
    """WeasyPrint logs every unsupported CSS property; the books' CSS is tested, keep the terminal clean."""
    for name in ("weasyprint", "fontTools"):
        logging.getLogger(name).setLevel(logging.ERROR)


_DATA_URI = re.compile(r'src="data:([\w/+.-]+);base64,([^"]+)"')


def _short_assets(markup: str, assets: dict[str, tuple[str, str]]) -> str:
    """Replace inline ``data:`` images by short ``forge-asset:N`` URLs served by the fetcher.

    The books repeat the same few icons thousands of times; WeasyPrint then parses
    a short URL instead of kilobytes of base64 each time, and decodes each image once.
    """
    index = {v: k for k, v in assets.items()}

    def short(m: re.Match) -> str:
        key = (m.group(1), m.group(2))
        url = index.get(key)
        if url is None:
            url = index[key] = f"{ASSET_SCHEME}:{len(assets)}"
            assets[url] = key
        return f'src="{url}"'

    return _DATA_URI.sub(short, markup)


def _with_style(markup: str, css: str) -> str:
    """``markup`` with one more style sheet, after the book's own (so it wins where it says !important)."""
    tag = f"<style>{css}</style>"
    return markup.replace("</head>", tag + "</head>", 1) if "</head>" in markup else tag + markup


@dataclass
class Rendered:
    """A book laid out once, written twice: for the screen and (when asked) for the press."""

    screen: bytes
    pages: int
    press: bytes | None = None
    booklets: dict[str, bytes] = field(default_factory=dict)  # by sheet: "a4", "letter"
    #: the final HTML WeasyPrint laid out (main, then back cover), with the ``forge-asset:`` images it
    #: fetched: what benchmarks/books_bench.py lays out once, as the baseline of forge's time
    sources: tuple[str, ...] = field(default=(), compare=False, repr=False)
    assets: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False, repr=False)


def _settled(html: str, first, layout) -> tuple[str, object]:
    """The main document with its last page balanced and no word cut across a page turn, and its layout.

    Both fixes are read from the first layout and applied together, so a book that needs both is laid
    out twice, not three times; another pass only when a kept word made a new cut (``MAX_PASSES`` in all).
    The balance is kept only when it is better (``balance.better``), as when it was tried alone."""
    before = balance.shape(first.pages)
    css, cut = balance.leading_css(before), page_turn_words(first.pages)
    if not css and not cut:
        return html, first
    main = None
    if css:  # the last page of text mostly blank: the closing block's leading takes up the slack
        trial_html = keep_whole(_with_style(html, css), cut)
        trial = layout(trial_html)
        if balance.better(before, balance.shape(trial.pages)):
            html, main = trial_html, trial
        elif not cut:
            return html, first
    if main is None:
        html = keep_whole(html, cut)
        main = layout(html)
    for _ in range(MAX_PASSES - 1):  # a kept word moved a line: a new cut, perhaps (forge.books.pageturn)
        cut = page_turn_words(main.pages)
        if not cut:
            break
        html = keep_whole(html, cut)
        main = layout(html)
    return html, main


def render_pdf(main_html: str, tail_html, base_url: str, policy: UrlPolicy) -> tuple[bytes, int]:
    """The screen PDF's bytes and page count (see ``render_book``)."""
    rendered = render_book(main_html, tail_html, base_url, policy)
    return rendered.screen, rendered.pages


def render_book(main_html: str, tail_html, base_url: str, policy: UrlPolicy, press: str | None = None) -> Rendered:
    """The main document, blank pages to a multiple of 4, the back cover: laid out once, written as the
    screen PDF and, when ``press`` (the book's identity, e.g. its build key) is given, as its print file
    and its booklets (``forge.books.press``, ``forge.books.impose``).

    WeasyPrint reads files only through ``policy``; raises FetchRefused, and writes nothing, when the
    documents asked for anything it refuses.
    """
    from .press import BLEED_CSS, at_trim, write_all  # lazy: loads pydyf only when needed

    with warnings.catch_warnings():  # WeasyPrint 70 warns, once, that it subsets fonts with fontTools
        warnings.simplefilter("ignore", DeprecationWarning)
        import weasyprint  # lazy: loads weasyprint only when needed
        from weasyprint.text.fonts import FontConfiguration  # lazy: loads weasyprint only when needed

    _quiet_weasyprint()
    assets: dict[str, tuple[str, str]] = {}
    log = FetchLog()
    fetcher = guarded_fetcher(policy, assets, log)
    bleed = [weasyprint.CSS(string=BLEED_CSS)]
    # one font configuration and one image cache for every layout of the book: the fonts are fetched and
    # registered, the images decoded, once (a second layout, the balance's or a page turn's, costs less)
    fonts, images = FontConfiguration(), {}

    def layout(markup: str):
        return weasyprint.HTML(string=_short_assets(markup, assets), base_url=base_url,
                               url_fetcher=fetcher).render(stylesheets=bleed, font_config=fonts, cache=images)

    with fixed_clock():
        main_html, main = _settled(main_html, layout(main_html), layout)
        pages = list(main.pages)
        if tail_html is not None:
            back = 1  # the back cover is one page; checked below, re-rendered if a designer changed that
            for _ in range(PAGES_PER_SHEET):
                fillers = -(len(pages) + back) % PAGES_PER_SHEET
                tail_markup = tail_html(fillers)
                tail = layout(tail_markup).pages
                if (len(pages) + len(tail)) % PAGES_PER_SHEET == 0:
                    break
                back = len(tail) - fillers
            pages += tail
            final = (main_html, tail_markup)
        else:
            final = (main_html,)
        document = main.copy(pages)
        if log.refused:
            raise FetchRefused(log.refused)
        if press is None:
            printed, booklets = None, {}
            screen = document.write_pdf(finisher=at_trim)
        else:
            screen, printed, booklets = write_all(document, press)
    if log.refused:
        raise FetchRefused(log.refused)
    return Rendered(screen, len(pages), printed, booklets,
                    sources=tuple(_short_assets(markup, assets) for markup in final), assets=dict(assets))


# -- reading a book back -------------------------------------------------------------------------
_LEFTOVER = re.compile(r"\{\{|\}\}|\{%|%\}|\{#|#\}|\[\[[a-z_]+\]\]|:::|\*\*")


def leftover_syntax(text: str) -> str | None:
    """The first piece of template or prose syntax left in a text, with some context, or None."""
    m = _LEFTOVER.search(text)
    if m is None:
        return None
    return text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")

@dataclass
class PdfCheck:
    """What a book's PDF holds, read back: pages, fonts and metadata (pypdf), text (pdfium)."""

    pages: int = 0
    fonts: dict[str, bool] = field(default_factory=dict)  # base font name -> embedded
    text: str = ""
    metadata: dict = field(default_factory=dict)
    lang: str = ""
    page_size_mm: tuple[float, float] = (0.0, 0.0)
    problems: list[str] = field(default_factory=list)


def _fonts(reader) -> dict[str, tuple[bool, bool]]:
    """Every font of every page: (embedded, simple Identity-H encoding, i.e. no missing glyph)."""
    out: dict[str, tuple[bool, bool]] = {}
    for page in reader.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            name = str(font.get("/BaseFont", "?")).lstrip("/")
            name = name.split("+", 1)[-1]
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            identity = str(font.get("/Encoding", "")) == "/Identity-H" or not descendants
            old = out.get(name, (True, True))
            out[name] = (old[0] and embedded, old[1] and identity)
    return out


def smuggled(data: bytes, reader=None) -> list[str]:
    """What a book's PDF must never hold: embedded files, file attachments, launch actions, links to local files.

    The URL policy keeps them out; this reads the PDF back so that a way around it is caught too.
    """
    reader = reader or read_pdf(data)
    found = []
    names = reader.trailer["/Root"].get("/Names")
    if names is not None and "/EmbeddedFiles" in names.get_object():
        found.append("the PDF embeds files")
    for number, page in enumerate(reader.pages, start=1):
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            action = annot.get("/A")
            action = action.get_object() if action is not None else {}
            if annot.get("/Subtype") == "/FileAttachment":
                found.append(f"page {number} has a file attachment")
            if action.get("/S") in ("/Launch", "/GoToR", "/ImportData", "/JavaScript", "/SubmitForm"):
                found.append(f"page {number} has a {str(action.get('/S'))[1:]} action")
            uri = str(action.get("/URI", ""))
            if uri and not uri.lower().startswith(("http:", "https:", "mailto:")):
                found.append(f"page {number} links to {uri}")
    return found


def read_pdf(data: bytes):
    """A pypdf reader of a PDF in memory (parsing a book's thousands of small objects takes a while:
    share one reader between the checks and the imposition)."""
    from pypdf import PdfReader  # lazy: loads pypdf only when needed

    return PdfReader(io.BytesIO(data))


def check_pdf(data: bytes, text: bool = True, reader=None) -> PdfCheck:
    """Read a book back: page count, fonts embedded and complete, metadata, and (``text``) no template
    syntax left in its text. Extracting the text is the slow part; the build checks the HTML instead."""
    reader = reader or read_pdf(data)
    result = PdfCheck(pages=len(reader.pages))
    fonts = _fonts(reader)
    result.fonts = {name: emb for name, (emb, _) in fonts.items()}
    result.text = "\n".join(page_texts(data)) if text else ""
    result.metadata = {str(k): str(v) for k, v in (reader.metadata or {}).items()}
    root = reader.trailer["/Root"]
    result.lang = str(root.get("/Lang", ""))
    if reader.pages:
        box = reader.pages[0].mediabox
        result.page_size_mm = (round(float(box.width) / 72 * 25.4, 1), round(float(box.height) / 72 * 25.4, 1))
    if not result.pages:
        result.problems.append("the PDF has no page")
    for name, (embedded, identity) in sorted(fonts.items()):
        if not embedded:
            result.problems.append(f"the font {name} is not embedded")
        if not identity:
            result.problems.append(f"the font {name} lacks glyphs the text uses (they print as blank boxes)")
        if not any(name.replace(" ", "").startswith(f) for f in BOOK_FONTS):
            result.problems.append(f"the font {name} is not a book font: a character fell back to a system font")
    leftover = leftover_syntax(result.text)
    if leftover:
        result.problems.append(f"template syntax left in the text: …{leftover}…")
    for key in ("/Title", "/Author"):
        if not result.metadata.get(key):
            result.problems.append(f"the PDF has no {key[1:].lower()}")
    if not result.lang:
        result.problems.append("the PDF declares no language")
    return result
