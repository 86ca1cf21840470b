"""`forge diff --format markdown` (a pull-request comment) shows what the cards say as inert text.

Before, an ``@mention`` in a card's id or name notified that GitHub user when CI posted the
comment, a bare URL became a link, and the markers were lost (``- + ember-fox`` renders as a plain
bullet). A line break in an id forged a line of the report of its own (``+ a-card-never-added``),
in the text format too. Now the cards' lines sit in a ``diff`` code block (added green, removed red;
GitHub reads no Markdown, mention or link there, and the fence outlasts any backtick run), every
line is one line, and the rest is escaped by ``forge.core.escape.markdown_text``.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.diff.test_diff import SPARK, WARD
from ..conftest import invoke

#: A card's id as a pull request may write it (the diff shows ids even of cards that do not validate).
HOSTILE_ID = "@octocat see https://evil.example/x www.evil.example <img src=x onerror=alert(1)> [a](javascript:b) #12 ```"
FORGED_ID = "sneaky\n+ a-card-never-added\n::error file=README.md::forged"


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", *args],
                   cwd=root, check=True, capture_output=True)


def card(cid: str) -> str:
    quoted = '"' + cid.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return WARD.replace("id: ward", f"id: {quoted}")


@pytest.fixture
def repo(project):
    project("red.yaml", "cards:\n" + SPARK)
    git(project.root, "init", "-q")
    git(project.root, "add", "cards", "locales")
    git(project.root, "commit", "-qm", "first")
    project("red.yaml", "cards:\n" + WARD + card(HOSTILE_ID) + card(FORGED_ID))
    git(project.root, "commit", "-qam", "second")
    return project.root


def run(root: Path, fmt: str) -> str:
    result = invoke(["diff", "HEAD~1", "HEAD", "--root", str(root), "--format", fmt])
    assert result.exit_code == 0, result.output
    return result.stdout


def outside_code(md: str) -> str:
    """The Markdown's text outside fenced code blocks, as markdown-it reads it."""
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    code = [t.map for t in tokens if t.type in ("fence", "code_block")]
    lines = md.splitlines()
    return "\n".join(line for n, line in enumerate(lines) if not any(a <= n < b for a, b in code))


def test_mentions_links_and_markup_in_the_cards_are_inert(repo):
    md = run(repo, "markdown")
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in (t.children or [])}
    assert not kinds & {"html_inline", "html_block", "link_open", "image"}, kinds
    rest = outside_code(md)
    assert not re.search(r"@\w", rest) and not re.search(r"https?://\w", rest) and "www.evil" not in rest
    assert "#12" not in rest
    fences = [t for t in tokens if t.type == "fence"]
    assert len(fences) == 1 and fences[0].info == "diff"
    assert any("@octocat" in line for line in fences[0].content.splitlines())  # shown, in code: no notification


def test_added_and_removed_cards_read_differently(repo):
    md = run(repo, "markdown")
    [fence] = [t for t in MarkdownIt("commonmark").parse(md) if t.type == "fence"]
    lines = fence.content.splitlines()
    assert "+ ward" in lines and "- spark" in lines


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_a_line_break_in_a_card_cannot_forge_a_line(repo, fmt):
    out = run(repo, fmt)
    assert not any(line.strip() == "+ a-card-never-added" for line in out.splitlines())
    assert not any(line.lstrip().startswith("::") for line in out.splitlines())
    added = [line for line in out.splitlines() if line.startswith("+ ")]
    assert len(added) == 3 and any("sneaky" in line and "a-card-never-added" in line for line in added)
