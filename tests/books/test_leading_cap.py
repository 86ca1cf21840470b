"""Issue 24 §4: the balance never stretches a closing block's leading visibly.

forge.books.balance sets the credits' leading looser to fill a mostly blank last page; at 1.8 times
their own the English rulebook's credits read double-spaced. The factor is capped (``LOOSEST``): read
here on a made-up book laid out twice, and on the shipped rulebooks' credits as printed in the PDF.
"""
from __future__ import annotations

import pytest

from forge.books import balance

#: The credits' leading in book.css (a factor of their size) and the most the balance may add to it.
CREDITS_LEADING = 1.3
CAP = 1.15


def test_a_mostly_blank_last_page_loosens_the_credits_by_15_percent_at_most():
    import weasyprint

    from forge.books.pdf import _with_style

    def book(lines: int) -> str:
        body = "".join(f"<p>Paragraph {i} of the rules, long enough to fill a line or so.</p>" for i in range(lines))
        return ("<html lang=en><head><style>@page { size: 60mm 60mm; margin: 5mm } p { margin: 0; font-size: 8pt; "
                "line-height: 1.2 } .credits p { font-size: 6pt }</style></head><body>" + body +
                '<div class="credits">' + "<p>Credits: a name.</p>" * 3 + "</div></body></html>")

    for lines in range(10, 40):  # a last page nearly empty: the credits alone cannot fill it
        first = balance.shape(weasyprint.HTML(string=book(lines)).render().pages)
        if first.blank > 0.75:
            break
    css = balance.leading_css(first)
    assert css and ".credits, .credits * { line-height:" in css, (first, css)
    again = balance.shape(weasyprint.HTML(string=_with_style(book(lines), css)).render().pages)
    before, after = first.blocks["credits"][1], again.blocks["credits"][1]
    assert before < after <= before * CAP + 0.05, (before, after, css)


def _credits_pitch(pdf_path, heading: str) -> list[tuple[float, float]]:
    """(baseline to baseline, font size) of each pair of lines after ``heading`` on the page that has it, in pt."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        for i in reversed(range(len(pdf))):
            text = pdf[i].get_textpage()
            whole = text.get_text_range()
            at = whole.rfind(heading)
            if at < 0:
                continue
            rows: dict[float, float] = {}
            x, y = ctypes.c_double(), ctypes.c_double()
            for index in range(at + len(heading), text.count_chars()):
                if not text.get_text_range(index, 1).strip():
                    continue
                pdfium_c.FPDFText_GetCharOrigin(text.raw, index, x, y)  # on the baseline, in pt
                baseline = round(y.value * 2) / 2
                if baseline < 40:  # the folio
                    continue
                # WeasyPrint draws in CSS px scaled by 0.75: the font's size in pt
                size = pdfium_c.FPDFText_GetFontSize(text.raw, index) * 0.75
                rows[baseline] = max(rows.get(baseline, 0.0), size)
            ys = sorted(rows, reverse=True)
            return [(a - b, rows[b]) for a, b in zip(ys, ys[1:])]
    finally:
        pdf.close()
    return []


@pytest.mark.slow
def test_the_rulebooks_credits_keep_their_leading_in_print(rendered):
    """Read on the shipped rulebooks as the session laid them out once (``rendered``)."""
    from .pages import pdf_path

    for lang, heading in (("en", "Credits"), ("fr", "Crédits")):
        pairs = _credits_pitch(pdf_path(rendered, "rulebook", lang), heading)
        small = min(size for _, size in pairs)  # the credits' small print, not the text above them
        credits = [pitch for pitch, size in pairs if abs(size - small) < 0.05]
        assert len(credits) >= 3, (lang, pairs)
        # the closest two lines: a credit's own lines (between two credits the list's spacing adds);
        # the baselines are read to 0.5 pt
        assert min(credits) <= small * CREDITS_LEADING * CAP + 0.5, (lang, small, credits)
