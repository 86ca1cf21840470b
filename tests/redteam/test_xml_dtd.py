"""XML from a contributor has no DTD, in any encoding: one parser (``forge.core.safeio.parse_xml``) refuses it.

Before: `forge i18n import` looked for the bytes `<!DOCTYPE` before parsing, so the same XLIFF
saved as UTF-16 (with or without a byte-order mark) went through with its DOCTYPE and entities;
an SVG's DOCTYPE was parsed (entities left unexpanded, but the DTD read); openpyxl read an XLSX
part's DTD with expat (see test_xlsx_budget). Now the document is decoded by its byte-order mark,
its first bytes or its declaration, scanned for any DTD declaration, and checked once more in
what libxml2 itself parsed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ..conftest import invoke


XLIFF = ('<?xml version="1.0" encoding="{enc}"?>{dtd}'
         '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">'
         '<file id="f"><unit id="u" name="cards/kindle/name"><segment state="final"><source>Kindle</source>'
         '<target>{target}</target></segment></unit></file></xliff>')
DTD = '<!DOCTYPE xliff [<!ENTITY e "Braise"><!ENTITY x SYSTEM "file:///etc/hostname">]>'
#: (the declared encoding, the Python codec that writes the file).
ENCODINGS = [("UTF-16", "utf-16"), ("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be"), ("UTF-8", "utf-8-sig"),
             ("ISO-8859-1", "latin-1"), ("UTF-32", "utf-32")]


def xliff(declared: str, codec: str, dtd: str = DTD, target: str = "&e;") -> bytes:
    return XLIFF.format(enc=declared, dtd=dtd, target=target).encode(codec)


def imported(root: Path, path: Path) -> tuple[int, list[dict], dict[str, bytes]]:
    before = {p.name: p.read_bytes() for p in (root / "cards").iterdir()}
    result = invoke(["i18n", "import", str(path), "--root", str(root), "--format", "json"])
    after = {p.name: p.read_bytes() for p in (root / "cards").iterdir()}
    return result.exit_code, json.loads(result.stdout)["findings"], {k for k in after if after[k] != before.get(k)}


@pytest.mark.parametrize("declared, codec", ENCODINGS)
def test_an_xliff_with_a_doctype_is_refused_in_any_encoding(shipped: Path, tmp_path: Path, declared: str, codec: str):
    path = tmp_path / "fr.xlf"
    path.write_bytes(xliff(declared, codec))
    code, findings, changed = imported(shipped, path)
    assert code == 1 and changed == set(), findings
    assert [f["rule"] for f in findings] == ["xliff-doctype"], findings
    assert findings[0]["line"] == 1 and "document type" in findings[0]["message"]


@pytest.mark.parametrize("declared, codec", ENCODINGS[:4])
def test_the_same_file_without_a_doctype_imports(shipped: Path, tmp_path: Path, declared: str, codec: str):
    path = tmp_path / "fr.xlf"
    path.write_bytes(xliff(declared, codec, dtd="", target="Braise"))
    code, findings, changed = imported(shipped, path)
    assert code == 0 and changed == {"red.yaml"}, findings
    assert 'fr: "Braise"' in (shipped / "cards" / "red.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_an_svg_with_a_doctype_is_refused_in_any_encoding(codec: str):
    from forge.carddb.art import ArtError, read_svg

    svg = ('<?xml version="1.0" encoding="%s"?><!DOCTYPE svg [<!ENTITY a "x">]>'
           '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a;</text></svg>'
           % codec.upper().replace("-SIG", "").replace("-LE", "LE").replace("-BE", "BE")).encode(codec)
    with pytest.raises(ArtError, match="document type"):
        read_svg(svg)


def test_the_parser_itself():
    from forge.core.safeio import XMLRefused, parse_xml

    assert parse_xml("<a>é</a>".encode("utf-16")).text == "é"
    for data, kind in [(b"<!DOCTYPE a><a/>", "doctype"), (b"  <!doctype a><a/>", "doctype"),
                       ("<!DOCTYPE a><a/>".encode("utf-16-le"), "doctype"),
                       (b'<?xml version="1.0" encoding="x-unknown"?><a/>', "encoding"),
                       (b"<a>\n<b></a>", "syntax"), (b"\n\n<a/>\n<!ENTITY x 'y'>", "doctype")]:
        with pytest.raises(XMLRefused) as refused:
            parse_xml(data)
        assert refused.value.kind == kind, data
