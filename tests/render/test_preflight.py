"""Preflight catches what a print shop would reject: wrong size or DPI, RGB in CMYK, unembedded fonts."""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from forge.render.pdf import PdfBuffer
from forge.render.preflight import check_pdf, check_png


def png(path: Path, size, mode="RGB", dpi=(300, 300)) -> Path:
    from PIL import Image

    Image.new(mode, size).save(path, dpi=dpi) if dpi else Image.new(mode, size).save(path)
    return path


def test_a_good_png_passes(tmp_path):
    assert check_png(png(tmp_path / "a.png", (825, 1125)), (825, 1125))["problems"] == []


def test_png_size_dpi_and_mode_are_checked(tmp_path):
    problems = check_png(png(tmp_path / "a.png", (800, 1100), "RGBA", dpi=None), (825, 1125))["problems"]
    assert problems == ["is 800×1100 px, expected 825×1125", "declares 0 DPI, expected 300", "is RGBA, expected RGB"]
    assert check_png(png(tmp_path / "b.png", (5000, 100)), None, max_side=4096)["problems"] == [
        "is 5000×100 px, more than 4096 px a side"]


def test_rgb_in_a_cmyk_profile_and_unembedded_fonts_are_caught(tmp_path):
    path = tmp_path / "bad.pdf"
    c = Canvas(str(path), pagesize=(200, 200), invariant=1)
    c.setFillColorRGB(1, 0, 0)
    c.rect(10, 10, 50, 50, fill=1)
    c.setFont("Helvetica", 10)
    c.drawString(10, 100, "hello")
    c.showPage()
    c.save()
    problems = check_pdf(path, (200, 200), 2, cmyk=True, lang="en")["problems"]
    assert "has 1 pages, expected 2" in problems
    assert "does not embed the font /Helvetica" in problems
    assert "uses the colour space DeviceRGB; the press takes DeviceCMYK only" in problems
    assert "has no title in its metadata" in problems and "does not declare the language en" in problems


def test_a_forge_pdf_passes(tmp_path):
    doc = PdfBuffer((200, 200), "Rift Commanders — test", "fr", cmyk=True, trim=(9, 9, 182, 182))
    from forge.render.paint import Painter

    p = Painter(doc.canvas, cmyk=True)
    p.text(10, 100, "Épreuve", "Lato", 10, "#b3261e")
    p.radial(100, 100, 50, ["#ffffff", "#2f63a8"])
    doc.canvas.showPage()
    path = tmp_path / "good.pdf"
    path.write_bytes(doc.finish())
    report = check_pdf(path, (200, 200), 1, cmyk=True, lang="fr")
    assert report["problems"] == [] and report["colour_space"] == "CMYK"
