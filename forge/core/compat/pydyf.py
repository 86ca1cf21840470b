"""pydyf's internals forge uses: the bytes of one PDF object as pydyf writes it.

Tested with pydyf 0.13 (constraints.txt; pyproject allows >=0.13,<0.14). WeasyPrint's PDF objects
(``pydyf.Stream.stream`` items) are written by ``pydyf._to_bytes``; the books' print files
re-read and rewrite content streams the way pydyf would. pydyf is light: imported here at once.
"""
from __future__ import annotations

import pydyf

from . import MissingInternal

TESTED = "0.13"


def _missing(item) -> bytes:
    raise MissingInternal("pydyf", "_to_bytes", TESTED)


#: ``to_bytes(item)``: ``item`` (a number, a string, bytes, a pydyf object) as pydyf writes it into a PDF.
to_bytes = getattr(pydyf, "_to_bytes", None) or _missing


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    if to_bytes is _missing:
        _missing(None)
