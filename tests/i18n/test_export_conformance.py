"""The translators' files as their tools read them (issue 11 §2): polib and ``msgfmt -c`` take the .po as it
is, stale entries included; every XLIFF unit keeps to its own size restriction (the SLR module's rule)."""
from __future__ import annotations

import shutil
import subprocess

import polib
from lxml import etree

from .helpers import export

NS = {"x": "urn:oasis:names:tc:xliff:document:2.0"}
SLR = "{urn:oasis:names:tc:xliff:sizerestriction:2.0}sizeRestriction"


def _stale(root):
    """Change one English label so its French is stale (fuzzy in the .po)."""
    path = root / "templates" / "books" / "strings.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  card: Card\n", "  card: Card name\n", 1), encoding="utf-8")


def test_polib_reads_the_po_and_writes_it_back_byte_for_byte(shipped, tmp_path):
    _stale(shipped)
    path = export(shipped, "po", tmp_path / "fr.po")
    po = polib.pofile(str(path))
    assert str(po) + "\n" == path.read_text(encoding="utf-8")  # nothing polib does not understand
    assert po.metadata["Language"] == "fr" and po.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    keys = [(e.msgctxt, e.msgid) for e in po]
    assert len(keys) == len(set(keys)) > 900  # no entry twice: msgfmt would refuse the file
    assert [e.msgctxt for e in po.fuzzy_entries()] == ["strings/card"]


def test_msgfmt_check_takes_a_po_with_stale_entries(shipped, tmp_path):
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed (scripts/install --test installs it)"
    _stale(shipped)
    done = subprocess.run([msgfmt, "-c", "-v", "-o", str(tmp_path / "fr.mo"), str(export(shipped, "po", tmp_path / "fr.po"))],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr and "1 fuzzy translation" in done.stderr, done.stderr


def oversized(doc) -> list[tuple[str, str, int, int]]:
    """Units whose source or target is longer (in code points, the file's profile) than their sizeRestriction."""
    out = []
    for unit in doc.iterfind(".//x:unit", NS):
        limit = unit.get(SLR)
        if limit is None:
            continue
        for part in ("source", "target"):
            text = unit.findtext(f"x:segment/x:{part}", default="", namespaces=NS)
            if len(text) > int(limit):
                out.append((unit.get("name"), part, len(text), int(limit)))
    return out


def test_every_unit_keeps_to_its_size_restriction(tmp_path, exports):
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    units = doc.findall(".//x:unit", NS)
    assert sum(u.get(SLR) is not None for u in units) > 300
    assert oversized(doc) == []
    # the check is not a rubber stamp: a target past its restriction is reported
    unit = next(u for u in units if u.get("name") == "strings/kind")
    unit.find("x:segment/x:target", NS).text = "Sorte de déclenchement du piège"
    assert oversized(doc) == [("strings/kind", "target", 31, int(unit.get(SLR)))]


def test_the_target_language_is_declared_where_targets_are(tmp_path, exports):
    doc = etree.parse(str(exports.to("xliff", tmp_path / "fr.xlf")))
    root = doc.getroot()
    assert root.get("version") == "2.0" and root.get("srcLang") == "en" and root.get("trgLang") == "fr"
    ids = [u.get("id") for u in doc.iterfind(".//x:unit", NS)]
    assert len(ids) == len(set(ids))  # unit ids are unique in their file
    assert all(s.get("state") for s in doc.iterfind(".//x:segment[@subState]", NS))  # a subState has a state
