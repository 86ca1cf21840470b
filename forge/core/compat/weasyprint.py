"""WeasyPrint's internals forge uses: a laid-out page's box tree.

Tested with WeasyPrint 70 (constraints.txt; pyproject allows >=60,<71). ``Page._page_box`` is the
root of a page's boxes after layout, and ``weasyprint.formatting_structure.boxes`` their classes;
forge walks them to balance columns (``books.balance``) and to find page turns (``books.pageturn``).
"""
from __future__ import annotations

from . import MissingInternal

TESTED = "70"


def page_box(page):
    """The root box of a laid-out ``weasyprint.Page``."""
    return page._page_box


def boxes():
    """WeasyPrint's module of box classes (``BlockBox``, ``LineBox``, ``MarginBox``…)."""
    from weasyprint.formatting_structure import boxes as module  # lazy: loads weasyprint only when needed

    return module


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    import weasyprint  # lazy: loads weasyprint only when needed

    if "_page_box" not in weasyprint.Page.__init__.__code__.co_names:
        raise MissingInternal("weasyprint", "Page._page_box", TESTED)
    for name in ("BlockBox", "BlockContainerBox", "LineBox", "MarginBox", "ReplacedBox"):
        if not hasattr(boxes(), name):
            raise MissingInternal("weasyprint", f"formatting_structure.boxes.{name}", TESTED)
