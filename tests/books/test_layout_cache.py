"""forge's layouts compiled by one process are loaded by the next, only from a record this machine sealed."""
from __future__ import annotations

import json

import pytest

from forge.books import compose
from forge.core import seal


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh layout cache whose record lives in a throw-away cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return compose._CompiledLayouts()


def _compile(cache: compose._CompiledLayouts) -> None:
    env = compose.layout_environment()
    env.bytecode_cache = cache
    env.get_template("book.html.j2")


def test_a_new_process_loads_what_an_earlier_one_compiled(cache, monkeypatch):
    _compile(cache)
    assert cache.path().is_file()
    later = compose._CompiledLayouts()
    compiled = []
    monkeypatch.setattr(compose.jinja2.Environment, "_parse", lambda *a: compiled.append(a) or None)
    _compile(later)  # would fail on the None parse if it compiled
    assert compiled == [] and later.code.keys() == cache.code.keys()


def test_a_record_this_machine_did_not_seal_is_never_loaded(cache, monkeypatch):
    _compile(cache)
    record = json.loads(cache.path().read_bytes())
    key = next(iter(record["data"]["code"]))
    record["data"]["code"][key] = "AAAA"  # another machine's (or an attacker's) code, sealed with another key
    mine = seal.key()
    seal._KEY["key"] = b"k" * 32
    try:
        cache.record().save(record["data"])
    finally:
        seal._KEY["key"] = mine
    assert compose._CompiledLayouts()._stored() == {}
    cache.path().write_text(json.dumps(record))  # the data changed under the old seal
    assert compose._CompiledLayouts()._stored() == {}


def test_a_record_of_another_jinja_or_python_is_not_loaded(cache, monkeypatch):
    _compile(cache)
    monkeypatch.setattr(compose._CompiledLayouts, "_version", staticmethod(lambda: "jinja2 0, python 0"))
    assert compose._CompiledLayouts()._stored() == {}


def test_an_unreadable_or_unwritable_cache_is_no_loss(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # forge/layouts.json cannot be made under a file
    layouts = compose._CompiledLayouts()
    _compile(layouts)
    assert layouts.code and not layouts.path().exists()
