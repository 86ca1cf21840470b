"""Whatever a card file holds, validation answers with findings, never with an exception."""
from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forge.validate import validate

from ..conftest import REPO, SCHEMA_LINE

BASE = yaml.safe_load((REPO / "cards" / "red.yaml").read_text(encoding="utf-8"))
CARDS = BASE["cards"]

junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.text(max_size=8),
                 st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


def _paths(value, prefix=()):
    """Every path into a nested structure of dicts and lists."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


@st.composite
def mutated_card_files(draw):
    data = {"cards": copy.deepcopy(CARDS[: draw(st.integers(1, 4))])}
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "rename"]))
        if action == "replace":
            parent[path[-1]] = draw(junk)
        elif action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = parent.pop(path[-1])
    return SCHEMA_LINE + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=mutated_card_files())
def test_mutated_card_files_give_findings_not_exceptions(project, text):
    project("red.yaml", text, header=False)
    report = validate(project.root, extra=True)
    assert all(f.rule and f.message for f in report.findings)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200))
def test_arbitrary_bytes_give_findings_not_exceptions(project, raw):
    project("red.yaml", raw)
    report = validate(project.root, extra=False)
    assert report.findings
