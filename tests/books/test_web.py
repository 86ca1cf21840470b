"""The web edition (``forge render books --html``), read back without a browser: one self-contained page per
book and language, the PDF's text, card previews, a keyword index, links that land, the same bytes every time."""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

import pytest

from forge.books.web import WEB_RECORD, build_web, equivalents, web_path
from forge.books.webrewrite import Heading, rewrite

from .conftest import KINDS, LANGS, copy_project
from .miniproject import mini_project

from ..conftest import invoke

PAGE_LINK = re.compile(r"^(?:(rulebook|reference)-(\w+)\.html(?:#(.+))?|#(.+))$")  # a page of the edition, an anchor


def page(web_edition, kind: str, lang: str) -> str:
    return (web_edition[1] / f"{kind}-{lang}.html").read_text(encoding="utf-8")


def ids(text: str) -> list[str]:
    """The anchors of a page (not what its script's text mentions)."""
    return [html.unescape(i) for i in re.findall(r'\bid="([^"]+)"', re.sub(r"<script>.*?</script>", "", text, flags=re.S))]


def book_data(text: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="book-data">(.*?)</script>', text, re.S).group(1))


def urls(text: str) -> list[tuple[str, str]]:
    from forge.books.fetch import _urls

    return _urls(text)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_each_book_is_one_page_that_loads_nothing_from_outside(web_edition, kind, lang):
    outcomes, folder = web_edition
    outcome = outcomes[(kind, lang)]
    assert outcome.written and not outcome.findings and not outcome.io_error
    text = page(web_edition, kind, lang)
    assert Path(outcome.path) == folder / f"{kind}-{lang}.html" and outcome.size == len(text.encode())
    assert text.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in text
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text).group(1)
    assert "default-src 'none'" in policy and "img-src data:" in policy and "font-src data:" in policy
    fetched = [url for role, url in urls(text) if role in ("fetch", "css")]
    alternates = re.findall(r'<link rel="alternate" hreflang="\w+" href="([^"]+)">', text)  # never fetched
    assert alternates == [f"{kind}-{other}.html" for other in LANGS if other != lang]
    fetched = [url for url in fetched if url not in alternates]
    assert fetched and all(url.startswith("data:") for url in fetched), [u[:60] for u in fetched]
    for role, url in urls(text):
        if role == "link":
            assert PAGE_LINK.match(url) or url.startswith(("https:", "mailto:")), url


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_script_is_allowed_by_its_hash_and_nothing_else_runs(web_edition, kind, lang):
    text = page(web_edition, kind, lang)
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    assert len(scripts) == 1 and "addEventListener" in scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}';" in text
    assert not re.search(r"\son[a-z]+\s*=", re.sub(r"<script.*?</script>|<style>.*?</style>", "", text, flags=re.S))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_link_lands_on_an_anchor_of_its_page(web_edition, kind, lang):
    text = page(web_edition, kind, lang)
    anchors = ids(text)
    assert len(anchors) == len(set(anchors)), "an id is used twice"
    pages = {}
    for role, url in urls(text):
        m = PAGE_LINK.match(url) if role == "link" else None
        if not m:
            continue
        target = (m.group(1), m.group(2)) if m.group(1) else (kind, lang)
        if target not in pages:
            pages[target] = set(ids(page(web_edition, *target)))
        anchor = m.group(3) or m.group(4)
        assert anchor is None or html.unescape(anchor) in pages[target], f"{url} in {kind}-{lang}.html"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_text_is_the_pdf_s(web_edition, composed, kind, lang):
    """Every heading, paragraph and list item of the composed book is in the page, word for word, in order."""
    from forge.books.typography import typeset

    def plain(markup: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())

    text = page(web_edition, kind, lang)
    body = str(composed[(kind, lang)].context["body"])
    for level, ident in re.findall(r'<h([1-4]) id="([^"]+)"', body):
        assert f'<h{level} id="{ident}"' in text
    page_text = plain(re.sub(r"<script.*?</script>|<style>.*?</style>", "", text, flags=re.S))
    at = 0
    pieces = re.findall(r"<(p|li)>(.*?)</\1>", body, re.S)
    assert len(pieces) > 20
    for _, piece in pieces:
        words = plain(typeset(piece, lang))
        found = page_text.find(words, at)
        assert found >= 0, words
        at = found


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_named_previews_its_picture_and_reads_as_text(web_edition, shipped_root, kind, lang):
    from forge.carddb.database import load_database

    db = load_database(shipped_root).db
    text = page(web_edition, kind, lang)
    data = book_data(text)
    named = set(re.findall(r'<button type="button" class="card-ref" data-card="([^"]+)">', text))
    assert named and named == set(data["cards"])
    for card_id in named:
        uri, alt = data["cards"][card_id]
        card = db.by_id()[card_id]
        assert uri.startswith("data:image/jpeg;base64,/9j/")  # a JPEG
        assert alt.startswith(card.name[lang]) and len(alt) > len(card.name[lang]) + 5
    # every card name the PDF prints in the prose is a preview on the page
    assert text.count('<span class="card"><button') == len(re.findall(r'<span class="card">', text))


def test_the_reference_previews_every_card_of_the_game(web_edition, shipped_root):
    from forge.carddb.database import load_database

    db = load_database(shipped_root).db
    for lang in LANGS:
        assert set(book_data(page(web_edition, "reference", lang))["cards"]) == {c.id for c in db.cards}


@pytest.mark.parametrize("lang", LANGS)
def test_the_keyword_index_points_at_each_section_that_uses_a_keyword(web_edition, lang):
    text = page(web_edition, "rulebook", lang)
    index = text[text.index('<section class="index"'):]
    entries = re.findall(r'<dt id="index-(\w+)">(.*?)</dt>\s*<dd>(.*?)</dd>', index, re.S)
    assert len(entries) == 14
    names = [name for _, name, _ in entries]
    assert names == sorted(names, key=lambda n: n.casefold().replace("É", "E").replace("é", "e"))
    wound = dict((key, dd) for key, _, dd in entries)["wound"]
    anchors = re.findall(r'href="#(kw-wound-\d+)"', wound)
    assert len(anchors) >= 3
    for anchor in anchors:  # each anchor is on the keyword itself
        assert re.search(rf'<(?:span|b) id="{anchor}" class="kw">', text)
    assert f'href="reference-{lang}.html#entry-wound"' in wound


def test_the_language_switch_pairs_the_same_sections(web_edition):
    en, fr = (book_data(page(web_edition, "rulebook", lang)) for lang in LANGS)
    assert en["langs"]["fr"]["href"] == "rulebook-fr.html" and fr["langs"]["en"]["href"] == "rulebook-en.html"
    assert en["langs"]["fr"]["map"]["setup"] == "mise-en-place"
    assert fr["langs"]["en"]["map"]["mise-en-place"] == "setup"
    reference = book_data(page(web_edition, "reference", "en"))["langs"]["fr"]["map"]
    assert reference["entry-aegis"] == "entry-aegis"


def test_equivalents_pair_by_position_when_the_structure_matches_else_by_anchor():
    en = [Heading(2, "goal", "Goal"), Heading(3, "entry-wound", "Wound"), Heading(2, "setup", "Setup")]
    fr = [Heading(2, "but", "But"), Heading(3, "entry-wound", "Blessures"), Heading(2, "mise", "Mise en place")]
    assert equivalents(en, fr) == {"goal": "but", "entry-wound": "entry-wound", "setup": "mise"}
    assert equivalents(en, fr[:2]) == {"entry-wound": "entry-wound"}
    # each language lists the entries in its own order: a shared anchor wins over the position
    en = [Heading(3, "entry-guard", "Guard"), Heading(3, "entry-aegis", "Aegis")]
    fr = [Heading(3, "entry-aegis", "Égide"), Heading(3, "entry-guard", "Garde")]
    assert equivalents(en, fr) == {"entry-guard": "entry-guard", "entry-aegis": "entry-aegis"}


def test_the_rewrite_changes_only_what_it_means_to():
    body = ('<h2 id="a">Setup</h2><p>Play <span class="card">Cinder Imp</span> &amp; <span class="card">Nobody</span>, '
            'then <span class="kw">Wound</span> and <b class="kw">Wound</b> 2.</p>\n'
            '<svg viewBox="0 0 10 10"><line x1="0"/></svg><table><tr><td class="name">Cinder Imp<span class="sub">x'
            '</span></td></tr></table><h3>Untitled</h3><p><span class="kw">Wound</span></p>'
            '<section class="clarify"><h3 id="trap-x"><span class="cost">2</span>Cinder Imp <span class="other">O'
            '</span></h3></section>')
    out = rewrite(body, {"Cinder Imp": "cinder-imp"}, {"wound": "wound"}, lambda src: None, "Table")
    assert out.cards == ["cinder-imp"]
    assert out.html.count('<button type="button" class="card-ref" data-card="cinder-imp">Cinder Imp</button>') == 3
    assert '<span class="card">Nobody</span>' in out.html and "&amp;" in out.html
    assert '<svg viewBox="0 0 10 10"><line x1="0"/></svg>' in out.html
    assert '<div class="table-scroll" role="region" tabindex="0" aria-label="Table — Setup"><table>' in out.html
    assert [(h.level, h.id, h.title) for h in out.headings] == [(2, "a", "Setup"), (3, "s-untitled", "Untitled"),
                                                                (3, "trap-x", "Cinder Imp")]
    assert [(a, h.id) for a, h in out.keywords["wound"]] == [("kw-wound-1", "a"), ("kw-wound-2", "s-untitled")]
    assert '<span id="kw-wound-1" class="kw">Wound</span> and <b class="kw">Wound</b>' in out.html


def test_a_local_image_of_the_prose_is_inlined(tmp_path):
    from forge.books.fetch import UrlPolicy
    from forge.books.webassets import local_image

    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "dot.png").write_bytes(b"\x89PNG fake")
    (tmp_path / "secret.png").write_bytes(b"no")
    policy = UrlPolicy.for_project(tmp_path, (tmp_path / "templates",), ())
    assert local_image("templates/dot.png", tmp_path, policy) == "data:image/png;base64," + base64.b64encode(
        b"\x89PNG fake").decode()
    assert local_image("secret.png", tmp_path, policy) is None
    assert local_image("https://example.com/x.png", tmp_path, policy) is None
    out = rewrite('<p><img src="templates/dot.png" alt="x"/></p>', {}, {},
                  lambda src: local_image(src, tmp_path, policy))
    assert 'src="data:image/png;base64,' in out.html


@pytest.mark.slow
def test_the_same_project_gives_the_same_bytes_from_any_folder(web_edition, tmp_path, monkeypatch):
    outcomes, folder = web_edition
    monkeypatch.chdir(tmp_path)
    again = build_web(Path(outcomes[("rulebook", "en")].path).parents[2], ("rulebook",), ("fr",), tmp_path / "out")
    assert again[0].written
    assert web_path(tmp_path / "out", "rulebook", "fr").read_bytes() == (folder / "rulebook-fr.html").read_bytes()


@pytest.fixture
def game(tmp_path):
    """The small books project (tests/books/miniproject.py): the tests below are about how the edition is
    built (records, caches, findings, the command), not the shipped prose."""
    return mini_project(tmp_path / "game")


@pytest.mark.slow
def test_a_project_s_own_web_layout_is_never_run(game):
    out = game / "output"
    assert build_web(game, ("rulebook",), ("en",), out)[0].written
    before = web_path(out, "rulebook", "en").read_bytes()
    layout = game / "templates/books/web/page.html.j2"
    layout.parent.mkdir(parents=True, exist_ok=True)
    layout.write_text("{{ cycler.__init__.__globals__.os.popen('id').read() }}\n", encoding="utf-8")
    outcome = build_web(game, ("rulebook",), ("en",), out)[0]
    assert outcome.unchanged and web_path(out, "rulebook", "en").read_bytes() == before
    [finding] = [f for f in outcome.findings if f.position.file == "templates/books/web/page.html.j2"]
    assert finding.severity == "warning" and "forge's layout" in finding.message


@pytest.mark.slow
def test_a_draft_says_so_at_the_top_of_every_page_and_the_colours_are_the_book_s(game):
    css = game / "templates/books/book.css"
    css.write_text(css.read_text(encoding="utf-8").replace("--accent: #7a2e1c;", "--accent: #123456;"), encoding="utf-8")
    [outcome] = build_web(game, ("reference",), ("fr",), game / "output", draft="2 errors in the card database")
    text = Path(outcome.path).read_text(encoding="utf-8")
    assert "--accent: #123456;" in text and "#7a2e1c" not in text
    assert '<p class="draft" role="note"><strong>DRAFT</strong> — 2\u00a0errors in the <span class="nw">card database</span></p>' in text


@pytest.mark.slow
def test_the_fonts_and_pictures_are_made_once_and_an_unchanged_page_is_not_written_again(game, monkeypatch):
    out = game / "output"
    [first] = build_web(game, ("rulebook",), ("fr",), out)
    assert first.written and (out / ".cache/web-assets.json").is_file()
    page_file = web_path(out, "rulebook", "fr")
    mtime = page_file.stat().st_mtime_ns

    from forge.books import anatomy
    from forge.books.webassets import PREVIEW_PX

    draw = anatomy.render_card

    def refuse(*args, **kwargs):
        raise AssertionError("made again")

    def no_preview(*args, **kwargs):  # the book's own figures are drawn as before; the previews are not
        return refuse() if args[5:6] == (PREVIEW_PX,) else draw(*args, **kwargs)

    monkeypatch.setattr(anatomy, "render_card", no_preview)
    monkeypatch.setattr("forge.books.webassets._woff2", refuse)
    [again] = build_web(game, ("rulebook",), ("fr",), out)
    assert again.unchanged and not again.written and again.sha256 == first.sha256
    assert page_file.stat().st_mtime_ns == mtime
    # a record this machine did not seal is no record: everything is made again
    record = json.loads((out / ".cache/web-assets.json").read_text(encoding="utf-8"))
    record["seal"] = "0" * 64
    (out / ".cache/web-assets.json").write_text(json.dumps(record), encoding="utf-8")
    (out / WEB_RECORD).unlink()  # else nothing changed: the page is left as it is, not even composed
    [tampered] = build_web(game, ("rulebook",), ("fr",), out)  # the refusal above stops the page
    assert not tampered.ready and "made again" in tampered.findings[-1].message


@pytest.mark.slow
def test_an_edition_with_nothing_changed_is_not_composed_again_and_keeps_its_findings(game, monkeypatch):
    from forge.books import web as compose  # the web edition's own name for forge.books.compose.compose

    out = game / "output"
    layout = game / "templates/books/web/page.html.j2"  # a warning: forge's layout is used, never the project's
    layout.parent.mkdir(parents=True, exist_ok=True)
    layout.write_text("{{ 1 }}\n", encoding="utf-8")
    [first] = build_web(game, ("rulebook",), ("en",), out)
    assert first.written and first.findings
    composed, composing = [], compose.compose
    monkeypatch.setattr(compose, "compose", lambda *args, **kwargs: composed.append(args) or composing(*args, **kwargs))
    [again] = build_web(game, ("rulebook",), ("en",), out)
    assert again.unchanged and composed == [] and again.findings == first.findings and again.sha256 == first.sha256
    record = json.loads((out / WEB_RECORD).read_text(encoding="utf-8"))
    record["seal"] = "0" * 64  # a record this machine did not seal (one a pull request commits) is no record
    (out / WEB_RECORD).write_text(json.dumps(record), encoding="utf-8")
    [unsealed] = build_web(game, ("rulebook",), ("en",), out)
    assert unsealed.unchanged and composed  # composed again, and the same bytes
    monkeypatch.undo()
    prose = game / "templates/books/rulebook.en.md"
    prose.write_text(prose.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    [changed] = build_web(game, ("rulebook",), ("en",), out)
    assert changed.written and changed.sha256 != first.sha256


@pytest.mark.slow
def test_render_html_writes_the_pages_beside_the_pdfs(game):
    result = invoke(["render", "rulebook", "--root", str(game), "--lang", "en", "--html",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    web = [b for b in report["books"] if b.get("edition") == "web"]
    assert [(b["book"], b["lang"], b["written"]) for b in web] == [("rulebook", "en", True)]
    assert (game / "output/books/rulebook-en.html").is_file() and (game / "output/books/rulebook-en.pdf").is_file()
    assert not (game / "output/books/rulebook-fr.html").exists()


def test_every_class_the_books_style_is_styled_on_the_web_or_declared_print_only(web_edition, shipped_root):
    """A class book.css styles for the PDF reaches the web page with web.css's rules: styled there, or listed
    in its print-only comment; the web build warns at web.css otherwise, and the shipped pages need no warning."""
    from forge.books import webcss

    outcomes, folder = web_edition
    book_css = (shipped_root / "templates/books/book.css").read_text(encoding="utf-8")
    web_css = (shipped_root / "templates/books/web/web.css").read_text(encoding="utf-8")
    pages = "".join(Path(o.path).read_text(encoding="utf-8") for o in outcomes.values())
    assert webcss.unstyled(book_css, web_css, pages) == []
    assert not [f for o in outcomes.values() for f in o.findings if f.rule == "web-style"]
    assert {"play-step", "credits", "worked-example"} <= webcss.styled(web_css)  # the example and credits, styled
    assert webcss.print_only(web_css) <= webcss.styled(book_css)  # the list names no class book.css forgot
    assert "36rem" not in webcss.styled(web_css) and "table-top" in webcss.styled(web_css)


@pytest.mark.slow
def test_a_class_added_to_book_css_alone_is_a_warning_at_web_css(tmp_path):
    game = copy_project(tmp_path / "game")  # the shipped prose: its worked example uses the class play-step
    css = game / "templates/books/book.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.play-step { color: #222; }\n.no-such-class { color: red; }\n",
                   encoding="utf-8")
    web = game / "templates/books/web/web.css"
    web.write_text(web.read_text(encoding="utf-8").replace("p.play-step { margin: 0 0 0.5rem; }\n", ""), encoding="utf-8")
    [outcome] = build_web(game, ("rulebook",), ("en",), game / "output")
    found = [f for f in outcome.findings if f.rule == "web-style"]
    assert [f.message for f in found] == ["the class `play-step` is styled in book.css, not here"]
    assert found[0].position.file == "templates/books/web/web.css" and found[0].severity == "warning"
    assert outcome.written  # a warning: the page is still written


def _plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).replace("\u00a0", " ").strip()


@pytest.mark.parametrize("kind, lang", [(k, lang) for k in KINDS for lang in LANGS])
def test_the_keyword_index_is_complete(web_edition, kind, lang):
    """Issue 24 §4: every keyword of the vocabulary is indexed, with the section of each paragraph that
    opens on it ("Poison: if you have…", its main rule) and, in the rulebook, each section its heading
    names ("Destroying and exiling" for Exile)."""
    from forge.books import content

    text = page(web_edition, kind, lang)
    main = text[:text.index('<section class="index"')]
    index = text[text.index('<section class="index"'):]
    entries = {key: (_plain(name), dd) for key, name, dd in
               re.findall(r'<dt id="index-(\w+)">(.*?)</dt>\s*<dd>(.*?)</dd>', index, re.S)}
    assert set(entries) == set(content.KEYWORD_KEYS)
    missing = []
    # the sections, in order: (position, title) of each h2 and h3 of the text
    heads = [(m.start(), _plain(m.group(1))) for m in re.finditer(r"<h[23]\b[^>]*>(.*?)</h[23]>", main, re.S)]
    for name, dd in entries.values():
        labels = [_plain(a) for a in re.findall(r'<a href="#kw-[^"]*">(.*?)</a>', dd, re.S)]
        listed = {label.split(" › ")[-1] for label in labels}
        for m in re.finditer(r"<(?:p|li)\b[^>]*>((?:<[^>]+>)*)" + re.escape(name) + r"(?:<[^>]+>)*\s?:", main):
            section = next((title for at, title in reversed(heads) if at < m.start()), None)
            if section is not None and section not in listed:
                missing.append((name, "opens a paragraph of", section))
        stem = name.casefold()[:4]
        for _, title in heads if kind == "rulebook" else ():
            if any(w.casefold().startswith(stem) for w in re.findall(r"[^\W\d_]+", title)) and title not in listed:
                missing.append((name, "named by the heading", title))
    assert not missing, f"{kind}-{lang}: the index misses {missing}"
