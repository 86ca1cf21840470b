"""Writing a book's objects several times (forge.books.pdfobjects): ``kept_streams`` encodes a stream
once while its items stay the same, and writes the very bytes pydyf writes, however they change."""
from __future__ import annotations

import pydyf

from forge.books import pdfobjects
from forge.books.pdfobjects import kept_streams, serialise


def _document() -> tuple[pydyf.PDF, pydyf.Stream, pydyf.Stream]:
    pdf = pydyf.PDF()
    content = pydyf.Stream([b"q", b"0.2 0.4 0.6 rg", b"0 0 10 10 re f", b"Q"], compress=True)
    font = pydyf.Stream([b"\x00font program\x01" * 50], pydyf.Dictionary({"Length1": 700}), compress=True)
    pdf.add_object(content)
    pdf.add_object(font)
    pdf.add_page(pydyf.Dictionary({"Type": "/Page", "Parent": pdf.pages.reference, "Contents": content.reference,
                                   "MediaBox": pydyf.Array([0, 0, 10, 10])}))
    return pdf, content, font


def _as_pydyf_writes_it(pdf: pydyf.PDF) -> bytes:
    """``serialise`` with pydyf's own ``Stream.data``, inside ``kept_streams`` too."""
    kept, pydyf.Stream.data = pydyf.Stream.data, pdfobjects._STREAM_DATA
    try:
        return serialise(pdf, "1.6", b"id")
    finally:
        pydyf.Stream.data = kept


def test_kept_streams_write_what_pydyf_writes_while_the_streams_change(monkeypatch):
    pdf, content, font = _document()
    encoded = []

    def payload(stream, encode=pdfobjects._payload):
        encoded.append(stream)
        return encode(stream)

    monkeypatch.setattr(pdfobjects, "_payload", payload)
    changes = [
        lambda: None,
        lambda: content.stream.__setitem__(1, b"0 0 0 1 k"),  # an operator rewritten in place
        lambda: content.stream.__setitem__(slice(0, 0), [b"q", b"0 0 10 10 re W n"]),  # a clip before
        lambda: setattr(content, "compress", False),
        lambda: setattr(font, "stream", [b"another program"]),
        lambda: content.extra.update(Type="/XObject"),  # its dictionary only: the payload is kept
    ]
    with kept_streams():
        for change in changes:
            change()
            kept = serialise(pdf, "1.6", b"id")
            assert kept == serialise(pdf, "1.6", b"id") == _as_pydyf_writes_it(pdf)
    assert pydyf.Stream.data is pdfobjects._STREAM_DATA  # pydyf's own again
    assert encoded.count(font) == 2  # once, then once more after its program changed: not at every write
    assert encoded.count(content) == 4  # at each change of its items or of its compression, not of its keys


def test_a_stream_holding_objects_is_encoded_at_every_write():
    """A stream whose items are not all bytes (a pydyf object may change inside) is never kept."""
    pdf, content, _ = _document()
    marked = pydyf.Dictionary({"MCID": 0})
    content.stream[1:1] = [b"/P", marked, b"BDC"]
    with kept_streams():
        first = serialise(pdf, "1.6", b"id")
        marked["MCID"] = 7
        second = serialise(pdf, "1.6", b"id")
        assert first != second and second == _as_pydyf_writes_it(pdf)
