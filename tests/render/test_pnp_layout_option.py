"""``forge render cards --pnp-layout gutter|butted`` end to end: pages, the preflight report's spec,
re-rendering when the layout changes, and a usage error for an unknown layout."""
from __future__ import annotations

import json
import math

import pytest
from pypdf import PdfReader

from forge.core import atomic
from forge.carddb.database import load_database

from .helpers import aid_count
from .pdfread import texts
from .test_command import CARDS, run

pytest.importorskip("pypdfium2")


@pytest.fixture(autouse=True)
def _unconfined():
    """The command confines this process's writes to its output folder; later tests write elsewhere."""
    yield
    atomic.release()


def test_gutter_by_default_and_butted_on_request(project):
    project("game.yaml", CARDS)
    root = project.root
    db = load_database(root).db
    n = sum(db.box_count(c) for c in db.cards) + aid_count()  # the cards and the player-aid cards

    def pages(per_page: int) -> int:  # a page of faces and a page of backs per sheet
        return 2 * math.ceil(n / per_page)
    pdf = {paper: root / f"output/pnp/rift-commanders-en-{paper}.pdf" for paper in ("a4", "letter")}
    result = run("--root", str(root), "--profile", "pnp", "--lang", "en", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [len(PdfReader(pdf[p]).pages) for p in ("a4", "letter")] == [pages(8), pages(6)]
    spec = json.loads((root / "output/pnp/preflight.json").read_text())["spec"]
    assert spec["layout"] == "gutter" and spec["cards_per_page"] == {"a4": 8, "letter": 6}
    assert spec["card_bleed_mm"] == 2.5

    gutter = {p: pdf[p].read_bytes() for p in pdf}
    result = run("--root", str(root), "--profile", "pnp", "--lang", "en", "--pnp-layout", "butted")
    assert result.exit_code == 0, result.output
    assert "2 files written" in result.output  # the sheets again, not the calibration pages
    butted = {paper: root / f"output/pnp/rift-commanders-en-{paper}-butted.pdf" for paper in ("a4", "letter")}
    assert [len(PdfReader(butted[p]).pages) for p in ("a4", "letter")] == [pages(9), pages(8)]
    assert {p: pdf[p].read_bytes() for p in pdf} == gutter  # its own files: the gutter sheets are left alone
    spec = json.loads((root / "output/pnp/preflight.json").read_text())["spec"]
    assert spec["layout"] == "butted" and spec["cards_per_page"] == {"a4": 9, "letter": 8}
    assert "9 cards a page" in texts(butted["a4"])[0]
    again = run("--root", str(root), "--profile", "pnp", "--lang", "en")
    assert again.exit_code == 0 and "0 files written" in again.output  # and the butted ones stay too
    assert all(f.exists() for f in butted.values())


def test_an_unknown_layout_is_a_usage_error(project):
    project("game.yaml", CARDS)
    result = run("--root", str(project.root), "--profile", "pnp", "--pnp-layout", "tiled")
    assert result.exit_code == 2
