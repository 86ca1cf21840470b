"""The books check reports a broken locale file as a finding at its place, like validate does.

`forge check` skips the books when validate fails, so this path runs only when the phrasebooks break
between the two (a locale file edited during the run) or when the books check runs alone (`run_check`); it raised
an ImportError there (it imported a helper validate never had), which a user would have read as a
traceback."""
from __future__ import annotations

from pathlib import Path

from forge.checks.check import run_check


def test_a_broken_locale_file_is_a_finding_of_the_books_check(shipped: Path):
    en = shipped / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8") + "phrases:\n  - [unclosed\n", encoding="utf-8")

    books = run_check("books", shipped)

    assert books.status == "failed" and books.summary == {"books": []}
    [finding] = books.findings
    assert finding.position.file.endswith("locales/en.yaml")
    assert finding.position.line > 300
    assert finding.rule == "yaml-syntax"
