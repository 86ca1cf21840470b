"""pypdf's internals forge uses: the raw (still encoded) bytes of a stream object.

Tested with pypdf 7.1 (constraints.txt; pyproject allows >=4,<8). ``StreamObject._data`` holds a
stream's bytes as they are in the file; the preflight scan digests them without decoding
(``render.pdfscan``), which ``get_data()`` would do at the cost of a decompression each.
"""
from __future__ import annotations

from . import MissingInternal

TESTED = "7.1"


def raw_stream_data(stream) -> bytes:
    """The bytes of a ``pypdf.generic.StreamObject`` as stored (b"" when it has none)."""
    return stream._data or b""


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    from pypdf.generic import StreamObject  # lazy: loads pypdf only when needed

    stream = StreamObject()
    stream.set_data(b"x")
    if getattr(stream, "_data", None) != b"x":
        raise MissingInternal("pypdf", "StreamObject._data", TESTED)
