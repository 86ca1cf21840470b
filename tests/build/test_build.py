"""`forge build`: validate, simulate, render, each stage gating the next."""
from __future__ import annotations

import json
import re

import pytest
import yaml

from ..conftest import invoke
@pytest.mark.slow
def test_build_produces_the_kit_from_the_shipped_game(shipped):
    result = invoke(["build", "--root", str(shipped), "--format", "json", "--lang", "en",
                                 "--games", "12"])
    report = json.loads(result.stdout)
    assert [s["name"] for s in report["stages"]] == ["validate", "simulate", "render", "books", "gallery"]
    assert report["ok"] and result.exit_code == 0
    assert report["stages"][1]["summary"]["games"] == 12
    assert (shipped / "output" / "pnp" / "rift-commanders-en-a4.pdf").is_file()
    assert not (shipped / "output" / "pnp" / "rift-commanders-fr-a4.pdf").exists()
    assert (shipped / "output" / "books" / "rulebook-en.pdf").is_file()
    assert (shipped / "output" / "books" / "reference-en.pdf").is_file()
    assert report["stages"][3]["summary"]["books"] == ["rulebook-en", "reference-en"]
    for book in ("rulebook-en", "reference-en"):  # the print files too (issue 10 §1)
        assert (shipped / "output" / "books" / "press" / f"{book}.pdf").is_file()
        assert (shipped / "output" / "books" / "booklet" / f"{book}-a4.pdf").is_file()
        assert (shipped / "output" / "books" / "booklet" / f"{book}-letter.pdf").is_file()
    assert report["stages"][3]["summary"]["web"] == ["rulebook-en.html", "reference-en.html"]
    assert (shipped / "output" / "books" / "reference-en.html").is_file()
    assert not (shipped / "output" / "books" / "reference-fr.html").exists()
    gallery = report["stages"][4]["summary"]  # the card gallery (issue 13 §3): its links land on what was rendered
    assert gallery["langs"] == ["en"] and gallery["written"]
    page = (shipped / "output" / "gallery.html").read_text(encoding="utf-8")
    links = {href.split("#")[0] for href in re.findall(r'<a href="([^"#][^"]*)"', page)}
    assert links and all((shipped / "output" / link).is_file() for link in links), links
    from forge.render.pdftext import page_texts  # each card's proof link names the page of the proof sheet that shows it

    texts = [" ".join(text.split()) for text in page_texts(shipped / "output" / "proof" / "rift-commanders-en-proof.pdf")]
    found = re.findall(r'id="card-([^"]+)".*?proof\.pdf#page=(\d+)"', page, re.S)
    assert len(found) == gallery["cards"] and len({n for _, n in found}) > 1  # the cards fill more than one page
    for card_id, number in found:
        assert card_id in texts[int(number) - 1], (card_id, number)


def test_build_stops_at_an_invalid_database_and_writes_nothing(shipped):
    path = shipped / "cards" / "red.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["cards"][0]["cost"] = -1
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = invoke(["build", "--root", str(shipped)])
    assert result.exit_code == 1
    assert "[schema] cost: -1 is less than the minimum of 0" in result.stdout
    assert "build stopped" in result.stdout
    assert not (shipped / "output").exists()


def test_build_refuses_an_unknown_language(shipped):
    result = invoke(["build", "--root", str(shipped), "--lang", "de"])
    assert result.exit_code == 2
