"""The cards' icons on a web page: each drawn once, as a style rule, and shown as a labelled ``span``.

The pictures are the books' (``forge.books.icons``: faction medallions in the faction's
colour, the Soul drop, ⟳, the tombstone, the wolf), so a page's icons are the printed ones.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from ..carddb.model import CardDatabase

#: The markup icons that are not factions, as the books draw them.
SYMBOLS = ("soul", "activate", "demise", "trap")


class Icons:
    """Each markup icon once, as a style rule; the text shows it as an empty labelled ``span``."""

    def __init__(self, db: CardDatabase):
        from ..books.icons import IconSet  # lazy: loads reportlab, forge.books ... only when needed

        self.set = IconSet(tuple((f.id, f.color, f.icon) for f in db.factions))
        self.names = [f.id for f in db.factions] + list(SYMBOLS)

    def span(self, name: str, label: str) -> Markup:
        if self.set.uri(name) is None:
            return escape(f"[[{name}]]")
        span = '<span class="ico ico-{}" role="img" aria-label="{}" title="{}"></span>'
        return Markup(span).format(name, label, label)

    def css(self) -> Markup:
        rules = [f'.ico-{name} {{ background-image: url("{self.set.uri(name)}"); }}' for name in self.names]
        return Markup("\n".join(rules))
