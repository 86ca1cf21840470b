"""One laid-out book, written several times from WeasyPrint's PDF objects (pydyf) without painting it again.

Painting a book (its text, and the SVG icons drawn anew at every use) is most of the cost
of writing a PDF. WeasyPrint's ``finisher`` hook hands over the painted objects just before
they are serialised: the screen PDF, the booklets and the print file are each a few
changes to those objects and one ``serialise``, which undoes what pydyf's ``write`` leaves
behind, so the same objects can be written again.

Writing them again re-encodes every stream: pydyf joins a content stream's thousands of
operators and deflates them (level 9) at each ``write``, and twice in the print file (once
more for its document ID). ``kept_streams`` encodes each stream once for as long as its
operators stay the same: the fonts once for the five writes, a page's drawing once for the
screen PDF and the booklets and once more after the press conversion rewrote its colours.
"""
from __future__ import annotations

import io
import zlib
from contextlib import contextmanager
from typing import Iterator

import pydyf

from ..core.compat import pydyf as pydyf_internals


def number(reference) -> int:
    """The object number of an indirect reference as pydyf writes them (``b"12 0 R"``)."""
    return int(bytes(reference).split()[0])


def pages(pdf: pydyf.PDF) -> list[pydyf.Dictionary]:
    """The page dictionaries, in order."""
    return [pdf.objects[n] for n in pdf.pages["Kids"][::3]]  # pydyf's Kids: number, 0, "R", ...


def serialise(pdf: pydyf.PDF, version: str | None = None, identifier: bool | bytes = False) -> bytes:
    """The PDF as WeasyPrint writes it (compressed object streams; PDF 1.7 unless ``version``), leaving
    ``pdf`` as it was: pydyf's ``write`` appends the Info dictionary, the object stream and the
    cross-reference stream to the document, and moves its write position."""
    count = len(pdf.objects)
    out = io.BytesIO()
    pdf.write(out, version, identifier, True)
    del pdf.objects[count:]
    pdf.current_position, pdf.xref_position = 0, None
    return out.getvalue()


#: pydyf's own ``Stream.data``, which ``kept_streams`` stands in for while it lasts.
_STREAM_DATA = pydyf.Stream.data


def _payload(stream: pydyf.Stream) -> bytes:
    """What pydyf writes between ``stream`` and ``endstream``: the items joined, deflated if asked."""
    data = b"\n".join(pydyf_internals.to_bytes(item) for item in stream.stream)
    if stream.compress:
        compressor = zlib.compressobj(level=9)
        data = compressor.compress(data) + compressor.flush()
    return data


@contextmanager
def kept_streams() -> Iterator[None]:
    """While it lasts, each stream whose items are all bytes is encoded once for as long as they stay the
    same (compared item by item, so a rewritten operator is seen); the bytes written are pydyf's own
    (tested against a write without it). Not thread-safe: the books write one document at a time."""
    kept: dict[int, tuple] = {}  # id(stream) -> (stream, its items then, compress then, payload)

    def data(self: pydyf.Stream) -> bytes:
        items = self.stream
        entry = kept.get(id(self))
        if entry is not None and entry[0] is self and entry[2] == self.compress and entry[1] == items:
            payload = entry[3]
        else:
            payload = _payload(self)
            if all(type(item) is bytes for item in items):  # immutable: equal items give equal bytes
                kept[id(self)] = (self, list(items), self.compress, payload)
        extra = pydyf.Dictionary(self.extra.copy())
        if self.compress:
            extra["Filter"] = "/FlateDecode"
        extra["Length"] = len(payload)
        return b"\n".join((extra.data, b"stream", payload, b"endstream"))

    pydyf.Stream.data = property(data)
    try:
        yield
    finally:
        pydyf.Stream.data = _STREAM_DATA
