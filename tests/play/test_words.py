"""The play page's words live in locales/<lang>.yaml (``play:``): the page reads them there, parity checks them."""
from __future__ import annotations

import json
import re

from starlette.testclient import TestClient

from forge.play.project import make_app, read
from forge.play.words import TABLE
from forge.carddb.yamlsrc import load

from ..conftest import REPO, invoke

PLAY = REPO / "forge" / "play"


def _locale_keys(lang: str) -> set[str]:
    data, _ = load((REPO / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))
    return set(data[TABLE])


def _keys_the_code_uses() -> set[str]:
    """Every word key the server's views, the page's script and its HTML name (read from their sources)."""
    views = (PLAY / "views.py").read_text(encoding="utf-8")
    script = (PLAY / "static" / "app.js").read_text(encoding="utf-8")
    html = (PLAY / "static" / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'words\.say\(lang, "([\w:]+)"', views))
    keys |= set(re.findall(r'"(opt:[\w:]+)"', views)) | {"opt:" + k for k in ("play", "summon", "activate",
                                                                                "trap", "guard", "pick", "buy",
                                                                                "raise", "faction", "end", "yes",
                                                                                "no", "order")}
    keys |= set(re.findall(r'say\("([\w:]+)"', script)) | set(re.findall(r"\bW\.(\w+)", script))
    keys |= set(re.findall(r'data-w="([\w:]+)"', html))
    # "opt:" + kind is completed above; the faction names come from the engine's table, not the page's words
    return {k for k in keys if not k.endswith(":")} - {"factions"}


def test_every_word_the_page_uses_is_in_both_locales():
    used = _keys_the_code_uses()
    assert len(used) > 40  # the scan read the sources
    for lang in ("en", "fr"):
        assert used - _locale_keys(lang) == set(), lang
    assert _locale_keys("en") == _locale_keys("fr")


def test_the_page_reads_its_words_from_the_project_s_locales(shipped, tmp_path):
    path = shipped / "locales" / "fr.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('  health: "Points de vie"', '  health: "Vitalité du commandant"'), encoding="utf-8")
    project = read(shipped)
    with TestClient(make_app(project, tmp_path / "play"), base_url="http://127.0.0.1") as client:
        fr = client.get("/api/words?lang=fr").json()
        en = client.get("/api/words?lang=en").json()
        page = client.get("/?lang=fr").text
    assert fr["health"] == "Vitalité du commandant" and en["health"] == "Health"
    assert "<title>Rift Commanders — jouer</title>" in page


def test_a_french_key_left_out_falls_back_to_english(shipped, tmp_path):
    path = shipped / "locales" / "fr.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'(?m)^  reveal: .*\n', "", text), encoding="utf-8")
    project = read(shipped)
    assert project.game is not None, project.findings
    assert project.words.say("fr", "reveal") == "Show my hand"


def test_a_locale_without_the_play_table_is_a_finding_and_forge_play_refuses(shipped, cli):
    path = shipped / "locales" / "fr.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("\nplay:")] + "\n", encoding="utf-8")
    project = read(shipped)
    assert project.game is None
    assert [(f.position.file, f.rule) for f in project.findings] == [("locales/fr.yaml", "play-words")]
    result = cli(["play", "--root", str(shipped), "--port", "0"])
    assert result.exit_code == 1 and "play-words" in result.output


def test_a_word_that_is_not_a_text_is_a_finding_at_its_line(shipped):
    path = shipped / "locales" / "en.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('  reveal: "Show my hand"', "  reveal: [Show, my, hand]"), encoding="utf-8")
    line = path.read_text(encoding="utf-8").split("\n").index("  reveal: [Show, my, hand]") + 1
    findings = read(shipped).findings
    assert [(f.position.file, f.position.line, f.rule) for f in findings] == [("locales/en.yaml", line, "play-words")]


def _parity(root) -> list[dict]:
    result = invoke(["parity", "--root", str(root), "--format", "json"])
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)["findings"]


def test_parity_holds_the_play_words_to_the_termbase(shipped):
    """« Vie » for Health: the termbase says « points de vie »; found at the play word's line and column."""
    path = shipped / "locales" / "fr.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('  health: "Points de vie"', '  health: "Vie"', 1), encoding="utf-8")  # play:, not web:
    line = path.read_text(encoding="utf-8").split("\n").index('  health: "Vie"') + 1
    found = [(f["file"], f["line"], f["column"], f["rule"]) for f in _parity(shipped)]
    assert found == [("locales/fr.yaml", line, 12, "terminology")]


def test_parity_checks_the_play_words_placeholders(shipped):
    path = shipped / "locales" / "fr.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"Garder avec {card}"', '"Garder avec {carte}"'), encoding="utf-8")
    line = path.read_text(encoding="utf-8").split("\n").index('  "opt:guard": "Garder avec {carte}"') + 1
    rows = {(f["file"], f["line"], f["rule"]) for f in _parity(shipped)}
    assert ("locales/fr.yaml", line, "parity-placeholder") in rows, rows
