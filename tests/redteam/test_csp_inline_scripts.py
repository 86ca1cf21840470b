"""A web page's Content-Security-Policy allows forge's own scripts only, hashed from forge's files.

Before, the web edition's policy hashed every inline ``<script>`` found in the finished page: a
``<script>`` that a book's prose (or a translator's French, imported from a .po) slipped into the
page was whitelisted by the page itself, and ran. A project's own ``templates/books/web/web.js``
(a pull request can change it) was whitelisted the same way. Now the policy is made from forge's
file alone; what the page holds is never read for it.
"""
from __future__ import annotations

import base64
import hashlib
import re
import shutil
from pathlib import Path

import pytest

from ._prose import shorten

REPO = Path(__file__).resolve().parents[2]
EVIL = 'alert("pwned")'


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _script_src(page: str) -> set[str]:
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page).group(1)
    return set(re.search(r"script-src ([^;]*)", policy).group(1).split())


@pytest.fixture
def book_project(tmp_path, monkeypatch):
    """A copy of the shipped game, its books cut to their first section (the attack is one paragraph); the web
    edition built without its slow parts (fonts, card pictures)."""
    import forge.books.web as web
    import forge.books.webassets as webassets

    root = tmp_path / "game"
    for part in ("cards", "locales", "templates", "docs"):
        shutil.copytree(REPO / part, root / part)
    for kind in ("rulebook", "reference"):  # the edition composes every book
        shorten(root, kind)
    monkeypatch.setattr(webassets, "font_faces", lambda cache=None: "")
    monkeypatch.setattr(web.Edition, "preview", lambda self, lang, card_id: ("data:,", "a card"))
    return root


def _rulebook(root: Path) -> str:
    from forge.books.web import build_web

    [outcome] = build_web(root, ("rulebook",), ("en",), root / "output")
    assert outcome.written, (outcome.findings, outcome.io_error)
    return Path(outcome.path).read_text(encoding="utf-8")


@pytest.mark.slow  # composes the four books (4 s alone, 10 s on a loaded machine; cut short here)
def test_a_script_in_the_prose_or_the_project_is_not_allowed_by_the_web_edition_policy(book_project):
    """The prose's ``<script>`` is text and a project's own ``web.js`` (a pull request may replace it) is not
    inlined; the policy allows only the hash of forge's file (one build: the edition is slow)."""
    prose = book_project / "templates/books/rulebook.en.md"
    prose.write_text(prose.read_text(encoding="utf-8") + f"\n\nA paragraph. <script>{EVIL}</script>\n",
                     encoding="utf-8")
    (book_project / "templates/books/web/web.js").write_text(EVIL + ";", encoding="utf-8")
    page = _rulebook(book_project)
    assert EVIL + ";" not in page  # the project's web.js is ignored: the page inlines forge's own
    assert "&lt;script&gt;" in page and f"<script>{EVIL}" not in page  # the prose's script is text
    forge_js = (REPO / "forge/books/layout/web.js").read_bytes().decode("utf-8")
    assert _script_src(page) == {_hash(forge_js)}
    assert _hash(EVIL) not in page and _hash(EVIL + ";") not in page


def test_a_picture_whose_address_ends_the_style_sheet_is_not_moved_into_it():
    """The web edition draws each repeated picture once, as a style rule; a ``data:`` address holding
    ``</style>`` (from the prose) would end the page's style sheet and open markup in its head."""
    from forge.books.webassets import share_images

    evil = '<img class="icon" src="data:,x</style><meta http-equiv=refresh content=0;url=https://evil.example>" alt="a">'
    page, rules = share_images(f"<p>{evil} and {evil}</p>")
    assert "</style>" not in rules and "evil.example" not in rules
    good = '<img class="icon icon-soul" src="data:image/svg+xml;base64,PHN2Zy8+" alt="Soul"/>'
    page, rules = share_images(f"<p>{good} {good}</p>")
    assert rules == '.pic-1 { background-image: url("data:image/svg+xml;base64,PHN2Zy8+"); }'
    assert page.count('role="img" aria-label="Soul"') == 2
