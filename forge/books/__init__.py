"""The books: the rulebook and the reference booklet, in English and French, from templates and the cards.

The prose lives in ``templates/books/<book>.<lang>.md`` (Markdown-like text with
Jinja2 for everything the cards say); forge fills in names, counts, tables, the
card anatomy and the reference's entries from the database and the locales, then
lays the books out as A5 PDFs with WeasyPrint.

Modules, in the order a book goes through them:

- ``content``: counts, lists and keyword constructs from a ``CardDatabase`` (pure data);
- ``compose``: the Jinja environment and its helpers, the reference's blocks, one HTML per book;
- ``markup``: the small Markdown-like converter; ``typography``: French and English typography;
- ``icons``: the cards' icons as SVG; ``anatomy``: the card anatomy figure, drawn by the card renderer;
- ``rulings``: the numbered rulings the FAQ answers;
- ``pdf``: WeasyPrint, reproducible bytes, booklet page counts, reading a PDF back;
- ``press`` (with ``cmyk`` and ``pdfobjects``): the print file, from the same layout: bleed, crop
  marks, press CMYK, PDF/X-4; ``impose``: the booklets for home printing; ``printing``: both, read back;
- ``build``: every (book, language) on its own core, written atomically.

Public API: ``build_books(root, kinds, langs, out)`` (``forge.books.build``) returns one
``BookOutcome`` per book; ``forge.books.compose.compose(project, kind, lang)`` gives a book's
HTML and findings without rendering it.
"""
from __future__ import annotations

__all__ = ["build_books"]


def __getattr__(name: str):
    # Lazy, so `import forge.books` does not load WeasyPrint or the renderer for other commands.
    if name == "build_books":
        from .build import build_books  # lazy: loads markupsafe, forge.carddb ... only when needed

        return build_books
    raise AttributeError(name)
