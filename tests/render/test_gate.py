"""One gate (issue 9 §2): `render cards` refuses what `forge validate` refuses about the cards; --force renders
a draft marked DRAFT on every card and page; fixing the cards renders them clean again."""
from __future__ import annotations

import pypdf
import pytest


from .pdfread import texts
from .test_command import CARDS

from ..conftest import invoke

pytest.importorskip("pypdfium2")

DUPLICATE = CARDS.replace("  - id: lost-soul\n", "  - id: spark\n")


def run(*args):
    return invoke(["render", "cards", *args])


def _text(path) -> list[str]:
    return texts(path)


def test_a_duplicate_id_renders_nothing(project):
    project("game.yaml", DUPLICATE)
    result = run("--root", str(project.root), "--profile", "proof", "--lang", "en")
    assert result.exit_code == 1
    assert "[duplicate-id]" in result.output and "--force" in result.output
    assert not (project.root / "output").exists()


def test_force_marks_every_card_and_page_and_a_fix_renders_them_clean(project):
    project("game.yaml", DUPLICATE)
    root = project.root
    forced = run("--root", str(root), "--profile", "proof,mpc", "--lang", "en", "--force", "--jobs", "1")
    assert forced.exit_code == 1 and "DRAFT" in forced.stderr
    proof = root / "output/proof/rift-commanders-en-proof.pdf"
    assert all("DRAFT, not for print" in text for text in _text(proof))
    assert pypdf.PdfReader(proof).metadata.title.startswith("DRAFT")
    images = sorted((root / "output/mpc/en").glob("*.png"))
    drafted = {p.name: p.read_bytes() for p in images}
    project("game.yaml", CARDS)
    clean = run("--root", str(root), "--profile", "proof,mpc", "--lang", "en", "--workers", "1")
    assert clean.exit_code == 0, clean.output
    assert not any("DRAFT" in text for text in _text(proof))
    after = {p.name: p.read_bytes() for p in sorted((root / "output/mpc/en").glob("*.png"))}
    assert set(after) & set(drafted) and all(after[n] != drafted[n] for n in set(after) & set(drafted))


def test_the_composition_of_the_set_does_not_stop_a_prototype(project):
    """Ten cards are not the game's 80, but they print: the counts are validate's to report."""
    project("game.yaml", CARDS)
    result = run("--root", str(project.root), "--profile", "proof", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "DRAFT" not in "".join(_text(project.root / "output/proof/rift-commanders-en-proof.pdf"))


def test_a_draft_embeds_the_font_of_its_mark(project):
    """The mark is set in Lato, embedded like every other font: a draft passes the same font check."""
    project("game.yaml", DUPLICATE)
    run("--root", str(project.root), "--profile", "proof", "--lang", "fr", "--force")
    fonts = set()
    for page in pypdf.PdfReader(project.root / "output/proof/rift-commanders-fr-proof.pdf").pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add((str(font.get_object()["/BaseFont"]), "/FontFile2" in font.get_object().get(
                "/FontDescriptor", {}) if font.get_object().get("/FontDescriptor") else False))
    assert fonts and all(embedded for _, embedded in fonts), fonts
