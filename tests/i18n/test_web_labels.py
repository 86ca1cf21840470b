"""The web edition's labels (templates/books/web/strings.yaml: the search button, navigation, the index) are in
the translators' workflow: exported with an id, checked by parity, imported back into their file."""
from __future__ import annotations

import polib

from forge.i18n import inventory

from .helpers import changed, parity, run_import, snapshot

WEB = "templates/books/web/strings.yaml"


def test_the_web_labels_are_translatable_strings(shipped):
    pairs = {p.id: p for p in inventory.build(shipped).pairs}
    search = pairs["web/search"]
    assert (search.kind, search.en.text, search.fr.text) == ("web-label", "Search", "Rechercher")
    assert search.fr.file == WEB and "web edition" in search.context
    assert sum(p.kind == "web-label" for p in pairs.values()) >= 17


def test_parity_finds_french_typography_in_a_web_label(shipped):
    path = shipped / WEB
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("1 section en parle\u00a0:", "1 section en parle :"), encoding="utf-8")
    line = next(i for i, s in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if "en parle :" in s)
    code, found = parity(shipped)
    assert code == 1
    assert [(f["file"], f["line"], f["rule"]) for f in found] == [(WEB, line, "typography")]


def test_a_web_label_is_imported_into_its_own_file(shipped, tmp_path, exports):
    file = exports.to("po", tmp_path / "fr.po")
    po = polib.pofile(str(file))
    po.find("web/top", by="msgctxt").msgstr = "Revenir en haut"
    po.save(str(file))
    before = snapshot(shipped)
    code, report = run_import(shipped, file)
    assert code == 0, report
    assert changed(before, snapshot(shipped)) == [WEB]  # the English is unchanged: its fingerprint stands
    text = (shipped / WEB).read_text(encoding="utf-8")
    assert "  top: Revenir en haut\n" in text and "  top: Back to the top\n" in text
