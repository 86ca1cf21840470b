"""axe-core on the web pages forge writes (issue 25 §5): the replay viewer and the gallery, in both
languages, at a desktop's and a phone's size: no serious or critical violation.

axe-core is the tests' own (tests/data/axe, MPL-2.0); the page's Content-Security-Policy is bypassed for it
alone. The play pages are checked in tests/play/test_browser.py, the balance report in tests/balance, the
books' web editions in tests/books/test_web_browser.py (on the books' own session build of them).
"""
from __future__ import annotations

import pytest

from ..browser import DESKTOP, PHONE, Visit, serious_violations
from .conftest import LANGS

VIEWPORTS = [("desktop", DESKTOP), ("phone", PHONE)]


def _check(browser, folder, name: str, viewport) -> list[str]:
    v = Visit(browser, folder, viewport, touch=viewport is PHONE, bypass_csp=True)
    try:
        v.open(name)
        return serious_violations(v.page)
    finally:
        v.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size,viewport", VIEWPORTS)
def test_the_replay_viewer_has_no_serious_violation(browser, viewer_pages, lang, size, viewport):
    assert _check(browser, viewer_pages[0], f"game-{lang}.html", viewport) == []


@pytest.mark.slow
@pytest.mark.parametrize("size,viewport", VIEWPORTS)
def test_the_gallery_has_no_serious_violation(browser, gallery, size, viewport):
    assert _check(browser, gallery[0], "gallery.html", viewport) == []
