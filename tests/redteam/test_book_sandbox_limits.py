"""forge's Jinja sandbox (its own layouts' second wall) bounds time and memory, not only `*` and `**`.

Before: `{{ lipsum(100000000) }}` in a book's prose ran for minutes; nested `range(100000)` loops
ran 10^10 steps and filled gigabytes; `'x'|center(10**9)`, `'{0:>999999999}'.format(1)` and
`'%*d' % (10**9, 1)` each built a gigabyte string. Book prose no longer reaches Jinja at all
(tests/redteam/test_prose_*.py); the sandbox still bounds forge's own templates.
"""
from __future__ import annotations

import time
from pathlib import Path

import jinja2
from jinja2.sandbox import SecurityError
import pytest

from forge.core import sandbox

ATTACKS = [
    "{{ lipsum(100000000) }}",
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "{% for i in range(100000) %}{% for j in range(1000) %}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}{% endfor %}",
    "{{ 'x'|center(1000000000) }}",
    "{{ 'x'|indent(1000000000, true) }}",
    "{{ '{0:>999999999}'.format(1) }}",
    "{{ '{0:>{1}}'.format(1, 999999999) }}",
    "{{ '%*d' % (999999999, 1) }}",
    "{{ '%999999999d' % 1 }}",
    "{{ '%999999999d'|format(1) }}",
]
FINE = {
    "{{ range(3)|list }}": "[0, 1, 2]",
    "{{ '%5d' % 3 }}": "    3",
    "{{ '{0:>5}'.format(1) }}": "    1",
    "{{ 'x'|center(5) }}": "  x  ",
    "{{ '%s-%s'|format(1, 2) }}": "1-2",
}


@pytest.mark.parametrize("source", ATTACKS)
def test_a_costly_template_is_refused_quickly(source, no_hang):
    env = sandbox.environment(jinja2.DictLoader({}))
    start = time.monotonic()
    with pytest.raises((SecurityError, jinja2.UndefinedError)):  # refused before the work, not a MemoryError after
        env.from_string(source).render()
    assert time.monotonic() - start < 10


@pytest.mark.parametrize("source, expected", sorted(FINE.items()))
def test_ordinary_use_still_works(source, expected):
    assert sandbox.environment(jinja2.DictLoader({})).from_string(source).render() == expected


def test_lipsum_in_the_rulebook_is_template_code_at_its_line(shipped: Path, no_hang, cli):
    prose = shipped / "templates" / "books" / "rulebook.en.md"
    text = prose.read_text(encoding="utf-8") + "\n"
    prose.write_text(text + "{{ lipsum(100000000) }}\n", encoding="utf-8")
    result = cli(["render", "rulebook", "--root", str(shipped), "--lang", "en"])
    assert result.exit_code == 1, result.output
    assert f"templates/books/rulebook.en.md:{text.count(chr(10)) + 1}:1: [book]" in result.output
    assert "template code" in result.output and "internal error" not in result.output
    assert not (shipped / "output" / "books" / "rulebook-en.pdf").exists()
