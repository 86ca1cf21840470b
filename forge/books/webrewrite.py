"""The web edition's pass over a book's body: card names that preview their card, keywords the index
points at, headings for the contents, search and language switch, tables that scroll on a phone.

The body is the HTML the prose pipeline made for WeasyPrint (``compose``); this pass
reads it as a stream (``html.parser``) and copies every tag it does not change as it
was written (``viewBox`` keeps its case, attributes their quoting). It knows the
generated parts by their classes, as ``book.css`` does:

- a card's name is the whole text of a ``span.card`` (the prose's ``card()``), ``span.user``,
  ``span.qname``, a table's ``td.name`` or a clarification's heading; matched against the
  names of the book's language, it becomes a ``button.card-ref`` carrying the card's id;
- a keyword is the whole text of a ``span.kw`` or ``b.kw``, matched against the locale's
  keyword names; the first one of each keyword in each section gets an anchor for the index;
- every ``h1``–``h4`` is recorded (one without an id gets one, unique in the page).

Pure: names and images come in, HTML and what was found come out.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Callable

from ..prose.render import slugify

#: Elements that never have an end tag (never pushed on the stack of open elements).
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                  "track", "wbr", "param"})
#: (tag, class) of the elements whose whole text may be a card's name.
NAME_HOSTS = frozenset({("span", "card"), ("span", "user"), ("span", "qname"), ("td", "name")})
#: Classes inside a heading that are not its title (the other language's name, a cost, icons).
_NOT_TITLE = frozenset({"other", "cost", "pips"})
_HEADINGS = ("h1", "h2", "h3", "h4")
_ID = re.compile(r"""\bid\s*=\s*["']([^"']+)["']""")


@dataclass(frozen=True)
class Heading:
    """A heading of the page: level, anchor and title as plain text."""

    level: int
    id: str
    title: str


@dataclass
class Rewritten:
    """The body for the web, and what the page around it needs to know of it."""

    html: str
    headings: list[Heading] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # card ids named, in order of first use
    #: keyword key -> [(anchor of its first use in a section, the section's heading)], in page order
    keywords: dict[str, list[tuple[str, Heading]]] = field(default_factory=dict)


@dataclass
class _Open:
    tag: str
    classes: frozenset[str]
    out_index: int  # where its start tag is in the output (patched to add an id)


class _Rewriter(HTMLParser):
    def __init__(self, names: dict[str, str], keywords: dict[str, str], image: Callable[[str], str | None],
                 taken: set[str], table_label: str):
        super().__init__(convert_charrefs=True)
        self.names, self.keywords, self.image = names, keywords, image
        self.taken, self.table_label = taken, table_label
        self.out: list[str] = []
        self.stack: list[_Open] = []
        self.result = Rewritten("")
        self.section: Heading | None = None
        self.heading: tuple[_Open, list[str]] | None = None  # the heading being read: its element, its title
        self.skip_title = 0  # depth inside a heading's .other, .cost or .pips
        self.raw = False  # inside <script> or <style>: copied as is

    # -- tags ------------------------------------------------------------------------
    def handle_starttag(self, tag, attrs):
        values = {k: (v or "") for k, v in attrs}
        classes = frozenset(values.get("class", "").split())
        text = self.get_starttag_text() or f"<{tag}>"
        if tag == "img":
            text = self._image(text, values.get("src", ""))
        if tag == "table":
            label = html.escape(self._table_label(), quote=True)
            self.out.append(f'<div class="table-scroll" role="region" tabindex="0" aria-label="{label}">')
        self.out.append(text)
        if tag in ("script", "style"):
            self.raw = True
        if tag in VOID:
            return
        opened = _Open(tag, classes, len(self.out) - 1)
        self.stack.append(opened)
        if tag in _HEADINGS and self.heading is None:
            self.heading = (opened, [])
        elif self.heading is not None and classes & _NOT_TITLE:
            self.skip_title += 1

    def handle_startendtag(self, tag, attrs):
        values = {k: (v or "") for k, v in attrs}
        text = self.get_starttag_text() or f"<{tag}/>"
        self.out.append(self._image(text, values.get("src", "")) if tag == "img" else text)

    def handle_endtag(self, tag):
        self.raw = False if tag in ("script", "style") else self.raw
        if not any(o.tag == tag for o in self.stack):
            self.out.append(f"</{tag}>")
            return
        while self.stack:
            opened = self.stack.pop()
            if self.heading is not None and opened is not self.heading[0] and opened.classes & _NOT_TITLE:
                self.skip_title = max(0, self.skip_title - 1)
            if self.heading is not None and opened is self.heading[0]:
                self._close_heading(opened)
            if opened.tag == tag:
                break
        self.out.append(f"</{tag}>")
        if tag == "table":
            self.out.append("</div>")

    # -- text ------------------------------------------------------------------------
    def handle_data(self, data):
        if self.raw:
            self.out.append(data)
            return
        if self.heading is not None and not self.skip_title:
            self.heading[1].append(data)
        parent = self.stack[-1] if self.stack else None
        word = data.strip()
        if parent is not None and word:
            if self._is_name_host(parent) and word in self.names:
                self._card(data, word)
                return
            if parent.tag in ("span", "b") and "kw" in parent.classes:
                self._keyword(parent, word)
        self.out.append(html.escape(data, quote=False))

    def handle_comment(self, data):
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl):
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data):
        self.out.append(f"<?{data}>")

    # -- what it changes ---------------------------------------------------------------
    def _is_name_host(self, parent: _Open) -> bool:
        if any((parent.tag, c) in NAME_HOSTS for c in parent.classes):
            return True
        return parent.tag == "h3" and any(o.tag == "section" and "clarify" in o.classes for o in self.stack)

    def _card(self, data: str, name: str) -> None:
        card_id = self.names[name]
        if card_id not in self.result.cards:
            self.result.cards.append(card_id)
        lead, trail = data[:len(data) - len(data.lstrip())], data[len(data.rstrip()):]
        self.out.append(f'{html.escape(lead)}<button type="button" class="card-ref" data-card="{html.escape(card_id)}">'
                        f'{html.escape(name, quote=False)}</button>{html.escape(trail)}')

    def _keyword(self, element: _Open, word: str) -> None:
        key = self.keywords.get(word.casefold())
        if key is None or self.section is None:
            return
        uses = self.result.keywords.setdefault(key, [])
        if uses and uses[-1][1] == self.section:
            return  # the index points at the first use in each section
        anchor = self._unique(f"kw-{key}-{len(uses) + 1}")
        self.out[element.out_index] = _with_id(self.out[element.out_index], anchor)
        uses.append((anchor, self.section))

    def _close_heading(self, opened: _Open) -> None:
        start = self.out[opened.out_index]
        title = " ".join("".join(self.heading[1]).split())
        found = _ID.search(start)
        if found:
            ident = html.unescape(found.group(1))
        else:
            ident = self._unique(f"s-{slugify(title) or 'section'}")
            self.out[opened.out_index] = _with_id(start, ident)
        heading = Heading(int(opened.tag[1]), ident, title)
        self.result.headings.append(heading)
        self.section = heading
        self.heading = None
        self.skip_title = 0

    def _unique(self, ident: str) -> str:
        candidate, n = ident, 1
        while candidate in self.taken:
            n += 1
            candidate = f"{ident}-{n}"
        self.taken.add(candidate)
        return candidate

    def _image(self, text: str, src: str) -> str:
        """A local image (a file under templates/) inlined: the web page loads nothing."""
        if not src or src.startswith("data:"):
            return text
        uri = self.image(src)
        if uri is None:
            return text
        return re.sub(r"""\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", lambda _m: f'src="{uri}"', text, count=1)

    def _table_label(self) -> str:
        return f"{self.table_label} — {self.section.title}" if self.section else self.table_label


def _with_id(start_tag: str, ident: str) -> str:
    """A start tag with ``id`` added after its name."""
    return re.sub(r"^<([\w-]+)", lambda m: f'<{m.group(1)} id="{html.escape(ident)}"', start_tag, count=1)


def rewrite(body: str, names: dict[str, str], keywords: dict[str, str], image: Callable[[str], str | None],
            table_label: str = "Table") -> Rewritten:
    """The web body of ``body``: ``names`` maps a card's name to its id, ``keywords`` a keyword's
    name (case-folded) to its key; ``image(src)`` gives a local image as a ``data:`` URI, or None."""
    parser = _Rewriter(names, keywords, image, set(_ID.findall(body)), table_label)
    parser.feed(body)
    parser.close()
    parser.result.html = "".join(parser.out)
    return parser.result
