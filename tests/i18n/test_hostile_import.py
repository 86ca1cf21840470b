"""An import file is hostile: each attack is a finding at its line, exit 1 or 2, and no source changes."""
from __future__ import annotations

import os
from pathlib import Path

import polib
import pytest

from .helpers import changed, prose_id, run_import, snapshot



def exported_po(exports, out: Path) -> polib.POFile:
    """The unchanged game's export (``forge i18n export``'s default: po, French), a copy to edit."""
    return polib.pofile(str(exports.to("po", out)))


def refused(root: Path, file: Path, rule: str, code: int = 1) -> dict:
    before = snapshot(root)
    got, report = run_import(root, file)
    assert got == code, report
    assert rule in {f["rule"] for f in report["findings"]}, report["findings"]
    assert changed(before, snapshot(root)) == []
    return report


def test_an_unknown_id_or_a_path_as_id_writes_nothing(shipped, tmp_path, exports):
    po = exported_po(exports, tmp_path / "fr.po")
    po.find("Kindle", msgctxt="cards/kindle/name").msgstr = "Braise"  # a good change, not written either
    po.append(polib.POEntry(msgctxt="../../etc/passwd", msgid="x", msgstr="y"))
    po.append(polib.POEntry(msgctxt="cards/no-such-card/name", msgid="x", msgstr="y"))
    po.save(str(tmp_path / "fr.po"))
    report = refused(shipped, tmp_path / "fr.po", "import-unknown-id")
    lines = {f["line"] for f in report["findings"] if f["rule"] == "import-unknown-id"}
    text = (tmp_path / "fr.po").read_text(encoding="utf-8").split("\n")
    assert {text[n - 1] for n in lines} >= {'msgctxt "../../etc/passwd"'}


def test_another_language_is_refused(shipped, tmp_path, exports):
    po = exported_po(exports, tmp_path / "fr.po")
    po.metadata["Language"] = "de"
    po.save(str(tmp_path / "fr.po"))
    refused(shipped, tmp_path / "fr.po", "import-language")
    xlf = tmp_path / "de.xlf"
    xlf.write_text('<?xml version="1.0"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" '
                   'srcLang="en" trgLang="de"><file id="f"><unit id="u"><segment><source>a</source></segment>'
                   '</unit></file></xliff>', encoding="utf-8")
    refused(shipped, xlf, "import-language")


def test_a_billion_laughs_is_refused_before_parsing(shipped, tmp_path):
    bomb = tmp_path / "bomb.xlf"
    entities = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    bomb.write_text(f'<?xml version="1.0"?><!DOCTYPE xliff [<!ENTITY l0 "ha">{entities}]>'
                    '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">'
                    '<file id="f"><unit id="u" name="cards/kindle/name"><segment><source>Kindle</source>'
                    '<target>&l9;</target></segment></unit></file></xliff>', encoding="utf-8")
    refused(shipped, bomb, "xliff-doctype")


def test_an_external_entity_is_refused(shipped, tmp_path):
    xxe = tmp_path / "xxe.xlf"
    xxe.write_text('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                   '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">'
                   '<file id="f"><unit id="u" name="cards/kindle/name"><segment><source>Kindle</source>'
                   '<target>&e;</target></segment></unit></file></xliff>', encoding="utf-8")
    refused(shipped, xxe, "xliff-doctype")


def test_malformed_files_are_findings_not_tracebacks(shipped, tmp_path):
    (tmp_path / "bad.xlf").write_text("<xliff><unit>", encoding="utf-8")
    refused(shipped, tmp_path / "bad.xlf", "xliff-syntax")
    (tmp_path / "bad.po").write_text('msgid "a"\nfoo bar baz\n', encoding="utf-8")
    assert refused(shipped, tmp_path / "bad.po", "po-syntax")["findings"][0]["line"] == 2
    (tmp_path / "latin1.po").write_bytes(b'msgid ""\nmsgstr "Language: fr\\n"\n\nmsgid "\xe9"\nmsgstr "x"\n')
    refused(shipped, tmp_path / "latin1.po", "encoding")
    (tmp_path / "v1.xlf").write_text('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"/>',
                                     encoding="utf-8")
    refused(shipped, tmp_path / "v1.xlf", "xliff-version")


def test_inline_markup_and_split_segments_are_refused(shipped, tmp_path):
    xlf = tmp_path / "m.xlf"
    xlf.write_text('<?xml version="1.0"?><xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" '
                   'srcLang="en" trgLang="fr"><file id="f"><unit id="u" name="cards/kindle/name"><segment>'
                   '<source>Kindle</source><target>É<ph id="1"/>tincelle</target></segment></unit>'
                   '<unit id="v" name="cards/kindle/flavor"><segment><source>a</source></segment>'
                   '<segment><source>b</source></segment></unit></file></xliff>', encoding="utf-8")
    report = refused(shipped, xlf, "xliff-markup")
    assert "xliff-segments" in {f["rule"] for f in report["findings"]}


def test_a_one_line_po_naming_a_file_is_not_read_as_that_file(shipped, tmp_path):
    secret = tmp_path / "secret.po"
    secret.write_text('msgid ""\nmsgstr "Language: fr\\n"\n\nmsgctxt "../x"\nmsgid "a"\nmsgstr "b"\n', encoding="utf-8")
    (tmp_path / "trick.po").write_text(str(secret), encoding="utf-8")
    code, report = run_import(shipped, tmp_path / "trick.po")
    assert code == 1 and "import-unknown-id" not in {f["rule"] for f in report["findings"]}


def test_a_missing_file_or_a_folder_is_an_io_error(shipped, tmp_path):
    assert run_import(shipped, tmp_path / "none.po")[0] == 2
    code, report = run_import(shipped, tmp_path)
    assert code in (1, 2) and report["findings"][0]["rule"] == "special-file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_not_read(shipped, tmp_path, no_hang):
    os.mkfifo(tmp_path / "pipe.po")
    code, report = run_import(shipped, tmp_path / "pipe.po")
    assert code in (1, 2) and report["findings"][0]["rule"] == "special-file"


def test_a_string_that_would_break_the_prose_is_refused(shipped, tmp_path, exports):
    po = exported_po(exports, tmp_path / "fr.po")
    entry = po.find(prose_id(shipped, "rulebook", "reduce your opponent's health"), by="msgctxt")
    entry.msgstr = "Premier paragraphe.\n\nUn second qui casserait la structure."
    title = po.find("books/rulebook/title", by="msgctxt")
    title.msgstr = "Règles: du jeu"  # front matter is YAML: `: ` would break it
    po.save(str(tmp_path / "fr.po"))
    report = refused(shipped, tmp_path / "fr.po", "import-edit")
    assert len([f for f in report["findings"] if f["rule"] == "import-edit"]) == 2
