"""Whatever a card file holds, validation answers with findings, never with an exception.

Hypothesis runs these under the profile chosen by ``HYPOTHESIS_PROFILE`` (tests/conftest.py):
``ci``, the default, is derandomized with no example database, so a run is the same every
time; the inputs that once broke forge are kept below as explicit ``@example``s. For a
long local hunt with fresh random inputs (20,000 per test):

    HYPOTHESIS_PROFILE=soak nice -n 10 pytest tests/validate/test_fuzz.py -p no:cacheprovider \
        --hypothesis-show-statistics -q
"""
from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from forge.checks.validate import validate

from ..conftest import REPO, SCHEMA_LINE

RED = (REPO / "cards" / "red.yaml").read_text(encoding="utf-8")
BASE = yaml.safe_load(RED)
CARDS = BASE["cards"]
#: The first three cards of red.yaml as written (comments, flow mappings, quotes), for raw mutations.
RED_HEAD = RED[: RED.index("  - id: flame-lash")]

#: What once crashed the loader, or could: YAML 1.1's `=`, tags, numbers past Python's
#: int-string limit, characters the YAML reader refuses, and YAML's own punctuation.
HOSTILE = ["=", "!$", "!foo", "!!python/object/apply:os.system [id]", "!!binary", "!!timestamp", "!!set",
           "9" * 5000, "0x" + "f" * 300, "1:" * 200 + "1", "1" + "0" * 400 + ".5", ".nan", "1.0e999", "2.0",
           "\x00", "\x07", "\x1b", "\x7f", "\ufffe", "\t", "\r", "\x85", "\u2028", "\ufeff",
           "&a ", "*a", "<<: *a", "? ", ": ", "- ", "{", "}", "[", "]", "'", '"', "#", "|", ">", "%YAML 1.1\n",
           "---\n", "...\n", "\n", "    ", "2001-13-45"]

SUITE = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.text(max_size=8),
                 st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
                 st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30))


def _paths(value, prefix=()):
    """Every path into a nested structure of dicts and lists."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def places(draw, data, times: int):
    """``times`` places in ``data`` to mutate, drawn one after the other (each after the last one's change):
    (the mapping or list that holds it, its key)."""
    for _ in range(times):
        paths = [p for p in _paths(data) if p]
        if not paths:
            return
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        yield parent, path[-1]


@st.composite
def mutated_card_files(draw):
    data = {"cards": copy.deepcopy(CARDS[: draw(st.integers(1, 4))])}
    for parent, last in places(draw, data, draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["replace", "delete", "rename"]))
        if action == "replace":
            parent[last] = draw(junk)
        elif action == "delete" and isinstance(parent, dict):
            del parent[last]
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = parent.pop(last)
    return SCHEMA_LINE + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@st.composite
def mutated_card_text(draw):
    """A real card file's text with raw edits: what yaml.safe_dump never writes (a bare `=`, a tag, a NUL)."""
    text = RED_HEAD
    piece = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=6),
                      st.integers(10, 6000).map(lambda n: "7" * n))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "replace-value", "delete", "duplicate-line"]))
        if action == "insert":
            text = text[:at] + draw(piece) + text[at:]
        elif action == "replace-value":
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            key, sep, _ = lines[i].partition(": ")
            lines[i] = key + (sep or ": ") + draw(piece)
            text = "\n".join(lines)
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            line = text[start:end if end >= 0 else len(text)]
            text = text[:start] + line + "\n" + text[start:]
    return text


def _check(report) -> None:
    for f in report.findings:
        assert f.rule and f.message, f
        if f.rule.startswith("yaml-"):
            assert f.position.line >= 1 and f.position.col >= 1, f


@SUITE
@given(text=mutated_card_files())
@example(text=SCHEMA_LINE + "cards:\n  - id: x\n    cost: =\n")
@example(text=SCHEMA_LINE + "cards:\n  - id: x\n    copies: " + "9" * 5000 + "\n")
@example(text=SCHEMA_LINE + "cards:\n  - id: x\n    cost: 2.0\n    copies: .inf\n")
def test_mutated_card_files_give_findings_not_exceptions(project, text):
    project("red.yaml", text, header=False)
    report = validate(project.root, extra=True)
    _check(report)


@SUITE
@given(text=mutated_card_text())
@example(text=RED_HEAD.replace("cost: 1", "cost: ="))
@example(text=RED_HEAD.replace("cost: 1", "cost: !$"))
@example(text=RED_HEAD.replace("copies: 3", "copies: !!python/object/apply:os.system [id]"))
@example(text=RED_HEAD.replace("copies: 3", "copies: " + "9" * 5000))
@example(text=RED_HEAD.replace("Kindle", "Kin\x00dle"))
@example(text=RED_HEAD.replace("    type: spell", "\ttype: spell"))
def test_raw_text_mutations_give_findings_not_exceptions(project, text):
    project("red.yaml", text, header=False)
    report = validate(project.root, extra=True)
    _check(report)


@SUITE
@given(raw=st.binary(max_size=200))
@example(raw=b"=")
@example(raw=b"!$")
@example(raw=b"a: !foo 1")
@example(raw=b"a: " + b"9" * 5000)
@example(raw=b"\x00")
@example(raw=b"a: b\x00c")
def test_arbitrary_bytes_give_findings_not_exceptions(project, raw):
    project("red.yaml", raw)
    report = validate(project.root, extra=False)
    assert report.findings
    _check(report)
