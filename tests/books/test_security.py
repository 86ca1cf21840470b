"""Hostile prose and styles: the books run no code, read no file outside templates/ and forge's assets, reach no network.

Each payload is one a pull request could carry. Raw HTML in the prose is text (the
grammar has no HTML), template code is a finding at its line, and a URL of the
styles is refused at its line; no byte of the secret aimed at appears in any output.
"""
from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from forge.books.build import build_books
from forge.books.compose import compose, url_policy
from forge.books.fetch import FetchRefused, css_urls, scan_html

from .conftest import KINDS, LANGS, copy_project, project_of
from .miniproject import mini_project

from ..conftest import invoke

BOOKS = [(k, lang) for k in KINDS for lang in LANGS]
#: Random bytes: zlib stores incompressible data as is, so a leaked copy shows verbatim in a PDF.
SECRET = os.urandom(2048)


def _secret_file(folder: Path) -> Path:
    path = folder / "secret.bin"
    path.write_bytes(SECRET)
    return path


def _outputs_leak(folder: Path) -> list[str]:
    """Files under ``folder`` that hold a piece of the secret."""
    pieces = [SECRET[i:i + 48] for i in range(0, 1024, 256)]
    return [p.as_posix() for p in folder.rglob("*")
            if p.is_file() and not p.is_symlink() and any(x in p.read_bytes() for x in pieces)]


# -- URLs in the prose, the layout and the styles -------------------------------------------------
#: (name, a line of prose, the reason's words)
URL_PAYLOADS = [
    ("attachment", '<a rel="attachment" href="file://{secret}">see</a>', "attachments"),
    ("attachment-environ", '<a rel="attachment" href="file:///proc/self/environ">env</a>', "attachments"),
    ("image-file-outside", '<img src="file://{secret}">', "outside the project"),
    ("stylesheet-link", '<link rel="stylesheet" href="file://{secret}">', "outside the project"),
    ("passwd", '<img src="file:///etc/passwd">', "outside the project"),
    ("relative-escape", '<img src="../../../../../../../../{secret_rel}">', "outside the project"),
    ("entity-encoded", '<img src="&#102;ile://{secret}">', "outside the project"),
    ("inline-style-url", '<div style="background: url(\'file://{secret}\')">x</div>', "outside the project"),
    ("style-import", '<style>@import "file://{secret}";</style>', "outside the project"),
    ("css-escape", '<style>p {{ background: u\\72l(file://{secret}) }}</style>', "outside the project"),
    ("http", '<img src="http://127.0.0.1:{port}/x.png">', "never fetched"),
    ("https", '<link rel="stylesheet" href="https://127.0.0.1:{port}/x.css">', "never fetched"),
    ("ftp", '<img src="ftp://127.0.0.1:{port}/x.png">', "never fetched"),
    ("object-data", '<object data="file://{secret}"></object>', "outside the project"),
    ("link-to-local-file", '<a href="file://{secret}">click</a>', "local file"),
    ("symlink-in-templates", '<img src="templates/books/leak.png">', "outside the project"),
    ("fifo-in-templates", '<img src="templates/books/pipe.png">', "not an ordinary file"),
]


class Listener:
    """A loopback TCP server that counts the connections it gets (there must be none)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The small books project (tests/books/miniproject.py) whose four prose files end with every URL payload,
    one per paragraph; its books built once, each composed once for its PDF and for the tests. The escaping
    and the refusals do not depend on the prose around a payload: four short books prove them as the
    shipped ones did, in a fifth of the time."""
    base = tmp_path_factory.mktemp("hostile")
    secret = _secret_file(base)
    root = mini_project(base / "game")
    (root / "templates/books/leak.png").symlink_to(secret)
    os.mkfifo(root / "templates/books/pipe.png")
    listener = Listener()
    values = {"secret": secret.as_posix(), "secret_rel": secret.as_posix().lstrip("/"), "port": listener.port}
    lines: dict[tuple[str, str], dict[str, int]] = {}
    for kind, lang in BOOKS:
        path = root / f"templates/books/{kind}.{lang}.md"
        text = path.read_text(encoding="utf-8").rstrip("\n") + "\n"
        at = {}
        for name, payload, _ in URL_PAYLOADS:
            text += "\n"
            at[name] = text.count("\n") + 1
            text += payload.format(**values).replace("{", "\\{") + "\n"  # a brace is written \{ in prose
        path.write_text(text, encoding="utf-8")
        lines[(kind, lang)] = at
    out = root / "output"
    composed: dict = {}  # build_books composes each book here, before laying it out
    outcomes = {(o.kind, o.lang): o for o in build_books(root, KINDS, LANGS, out, workers=1, composed=composed)}
    listener.close()
    assert set(composed) == set(BOOKS)
    yield {"root": root, "out": out, "outcomes": outcomes, "lines": lines, "listener": listener, "base": base,
           "composed": composed}


@pytest.mark.slow
@pytest.mark.parametrize("kind,lang", BOOKS)
@pytest.mark.parametrize("name,payload,reason", URL_PAYLOADS, ids=[p[0] for p in URL_PAYLOADS])
def test_html_in_prose_is_text_never_an_element(hostile, kind, lang, name, payload, reason):
    root = hostile["root"]
    result = hostile["composed"][(kind, lang)]
    line = hostile["lines"][(kind, lang)][name]
    written = (root / f"templates/books/{kind}.{lang}.md").read_text(encoding="utf-8").split("\n")[line - 1]
    element = written.split(">", 1)[0]  # `<img src="file:///…"`, `<a rel="attachment" href="…"`, `<style`…
    tag = written.split(" ", 1)[0]
    main = result.html[result.html.index("<main>"):result.html.index("</main>")]
    assert element not in main and "&lt;" + tag[1:].replace(">", "&gt;") in main
    assert not [f for f in result.findings if f.rule == "url"], [f.render() for f in result.findings]


@pytest.mark.parametrize("kind,lang", BOOKS)
def test_a_book_with_html_in_its_prose_is_written_and_nothing_leaks(hostile, kind, lang):
    outcome = hostile["outcomes"][(kind, lang)]
    assert outcome.written, [f.render() for f in outcome.findings]
    assert _outputs_leak(hostile["out"]) == []


def test_nothing_reached_the_network(hostile):
    assert hostile["listener"].connections == 0


# -- the styles of a project: book.css ---------------------------------------------------------------
def test_urls_in_book_css_are_refused_at_the_css_line(tmp_path):
    secret = _secret_file(tmp_path)
    root = mini_project(tmp_path / "game")
    css = root / "templates/books/book.css"
    text = css.read_text(encoding="utf-8").rstrip("\n") + "\n"
    line = text.count("\n") + 1
    css.write_text(text + f'@import url("file://{secret}");\n', encoding="utf-8")
    project = project_of(root)
    for kind, lang in BOOKS:
        result = compose(project, kind, lang)
        assert [(f.position.file, f.position.line, f.rule) for f in result.findings if f.severity == "error"] == \
            [("templates/books/book.css", line, "url")]


def test_fonts_and_images_of_the_project_templates_are_allowed(tmp_path):
    """The policy is not a blanket refusal: files under templates/ and forge's fonts load."""
    root = mini_project(tmp_path / "game")
    (root / "templates/books/paper.png").write_bytes((root / "templates/books/book.css").read_bytes()[:10])
    project = project_of(root)
    base = root.resolve().as_uri() + "/"
    html = '<img src="templates/books/paper.png"><a href="#rules">x</a><a href="https://example.org">web</a>'
    assert scan_html(html, base, url_policy(project)) == []
    result = compose(project, "rulebook", "en")
    assert scan_html(result.html, base, url_policy(project)) == []


# -- the fetcher: what the scan could miss, WeasyPrint still cannot read ------------------------------
@pytest.mark.parametrize("url", ["file://{secret}", "file:///etc/passwd", "http://127.0.0.1:{port}/x.png",
                                 "templates/books/leak.png"])
def test_the_fetcher_refuses_what_the_policy_refuses(tmp_path, url):
    from forge.books.pdf import render_pdf

    secret = _secret_file(tmp_path)
    root = mini_project(tmp_path / "game")
    (root / "templates/books/leak.png").symlink_to(secret)
    listener = Listener()
    try:
        html = f'<html><body><p>x</p><img src="{url.format(secret=secret, port=listener.port)}"></body></html>'
        with pytest.raises(FetchRefused) as refused:
            render_pdf(html, None, root.resolve().as_uri() + "/", url_policy(project_of(root)))
    finally:
        listener.close()
    assert refused.value.refused and listener.connections == 0


def test_css_urls_sees_through_escapes_and_imports():
    css = '@import "a.css"; @import url(b.css); p { background: u\\72l(c.png) } @font-face { src: url("d.ttf") }'
    assert css_urls(css) == ["a.css", "b.css", "c.png", "d.ttf"]


def test_a_pdf_carrying_an_attachment_is_caught_when_read_back():
    """The last line of defence: a PDF with an embedded file is never a book forge writes."""
    import io

    from pypdf import PdfWriter

    from forge.books.pdf import smuggled

    writer = PdfWriter()
    writer.add_blank_page(100, 100)
    writer.add_attachment("environ", b"SECRET=1")
    buffer = io.BytesIO()
    writer.write(buffer)
    assert smuggled(buffer.getvalue()) == ["the PDF embeds files"]


# -- code in the templates -----------------------------------------------------------------------------
JINJA_PAYLOADS = [
    ("globals-popen", "{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}", "template code"),
    ("mro-subclasses", "{{{{ ''.__class__.__mro__[1].__subclasses__() }}}}", "template code"),
    ("self-module", "{{{{ self._TemplateReference__context.cycler.__init__.__globals__.os.system('touch {marker}') }}}}",
     "template code"),
    ("mutate-strings", "{{{{ s.update({{'and': 'HACKED'}}) }}}}", "template code"),
    ("memory-bomb", "{{{{ 'x' * 10 ** 10 }}}}", "template code"),
    ("statement", "{{% for i in range(10**9) %}}HACKED{{% endfor %}}", "template code"),
    ("helper-misuse", "{{card:1 2 3}}", "takes 1 argument"),
    ("database-methods", "{{db.by_id}}", "is not a directive"),
    ("format-spec", "{{n:>900000000}}", "is not an id or a key"),
]


@pytest.mark.parametrize("kind,lang", BOOKS)
@pytest.mark.parametrize("name,payload,reason", JINJA_PAYLOADS, ids=[p[0] for p in JINJA_PAYLOADS])
def test_template_code_is_a_finding_never_run(tmp_path_factory, kind, lang, name, payload, reason):
    base = tmp_path_factory.mktemp("jinja")
    root = mini_project(base / "game")
    marker = base / "pwned"
    path = root / f"templates/books/{kind}.{lang}.md"
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    line = text.count("\n") + 1
    path.write_text(text + payload.format(marker=marker) + "\n", encoding="utf-8")
    result = compose(project_of(root), kind, lang)
    errors = [f for f in result.findings if f.severity == "error"]
    assert [(f.position.file, f.position.line, f.rule) for f in errors][:1] == \
        [(f"templates/books/{kind}.{lang}.md", line, "book")], [f.render() for f in errors]
    assert reason in errors[0].message
    assert not marker.exists()
    assert "HACKED" not in result.html


def test_the_command_refuses_and_exits_1(tmp_path):
    secret = _secret_file(tmp_path)
    root = mini_project(tmp_path / "game")
    css = root / "templates/books/book.css"
    css.write_text(css.read_text(encoding="utf-8") + f'\n@import url("file://{secret}");\n', encoding="utf-8")
    result = invoke(["render", "rulebook", "--root", str(root), "--lang", "en"])
    assert result.exit_code == 1, result.output
    assert "templates/books/book.css:" in result.output and "[url]" in result.output
    assert "Traceback" not in result.output
    assert not (root / "output/books/rulebook-en.pdf").exists()


def test_strings_are_escaped_not_markup(tmp_path):
    """A label of strings.yaml holding HTML prints as text: the `and` of every list, the table headers
    (the shipped rulebook's prose uses the label; the small project's does not)."""
    root = copy_project(tmp_path / "game")
    strings = root / "templates/books/strings.yaml"
    text = strings.read_text(encoding="utf-8")
    strings.write_text(text.replace("  and: and\n", '  and: "<img src=\'file:///etc/passwd\'>"\n', 1), encoding="utf-8")
    result = compose(project_of(root), "rulebook", "en")
    assert not [f for f in result.findings if f.severity == "error"], [f.render() for f in result.findings]
    assert "&lt;img src=" in result.html and "<img src='file:///etc/passwd'>" not in result.html


# -- template files that are not ordinary files ----------------------------------------------------------
def _forge(*args: str, timeout: float = 120):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", "from forge.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("name,make,words", [
    ("rulebook.en.md", lambda p: os.mkfifo(p), "named pipe"),
    ("book.css", lambda p: p.symlink_to("/dev/zero"), "outside the project"),
    ("rulebook.en.md", lambda p: p.mkdir(), "folder"),
    ("strings.yaml", lambda p: p.write_bytes(b"#" * (11 * 1024 * 1024)), "more than the limit"),
], ids=["fifo", "dev-zero", "folder", "huge"])
def test_template_files_that_are_not_ordinary_are_refused_before_reading(tmp_path, name, make, words):
    """Today's failure modes were a hang (FIFO) or filling the memory (/dev/zero): now exit 2 at once."""
    root = mini_project(tmp_path / "game")
    path = root / "templates/books" / name
    path.unlink()
    make(path)
    result = _forge("render", "rulebook", "--root", str(root), "--lang", "en")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"templates/books/{name}" in result.stderr and words in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert not (root / "output/books/rulebook-en.pdf").exists()


def test_a_book_is_scanned_for_urls_once_for_its_findings_and_its_key(tmp_path, monkeypatch):
    """compose scans a book's documents for its findings, build.book_key for the files it hashes: the
    second scan reuses the first (forge.books.fetch), and gives the same URLs as a fresh scan."""
    from forge.books import fetch
    from forge.books.build import book_key

    project = project_of(mini_project(tmp_path / "game"))
    fetch._document_urls.cache_clear()
    fetch._css_urls.cache_clear()
    feeds = []
    monkeypatch.setattr(fetch._UrlCollector, "feed", lambda self, data, feed=fetch._UrlCollector.feed:
                        feeds.append(len(data)) or feed(self, data))
    result = compose(project, "reference", "en")
    composed_feeds = len(feeds)
    key = book_key(result, project.root)
    documents = 1 + 4  # the book and its back cover with 0 to 3 blank pages before it
    assert composed_feeds == 2 and len(feeds) == documents  # the book and its back cover (0 blanks) once each
    kept = fetch._urls(result.html)
    kept.append(("fetch", "file:///etc/passwd"))  # a caller's list is its own: the kept scan is untouched
    fetch._document_urls.cache_clear()
    fetch._css_urls.cache_clear()
    assert fetch._urls(result.html) == kept[:-1] and book_key(result, project.root) == key
