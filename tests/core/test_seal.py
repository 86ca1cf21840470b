"""forge.core.seal: a record is given back only as this machine's forge sealed it, for this kind and version.

Each way a record can fail is "no record" (None), never an exception: the cache's work is done again.
"""
from __future__ import annotations

import json
import os

import pytest

from forge.core import seal
from forge.core.seal import SealedBlob, SealedRecord

DATA = {"files": {"tts/en/a.png": {"key": "k", "size": 3}}, "n": 1.5}


@pytest.fixture
def out(tmp_path):
    folder = tmp_path / "output"
    (folder / ".cache").mkdir(parents=True)
    return folder


def record(out, kind="render manifest", version="1", **kw) -> SealedRecord:
    return SealedRecord(out / ".cache" / "r.json", kind, version, folder=out, **kw)


def blob(out, kind="form fragment", version="1") -> SealedBlob:
    return SealedBlob(out / ".cache" / "f.form", kind, version, folder=out)


def test_a_record_saved_is_loaded(out):
    assert record(out).save(DATA) is True
    assert record(out).load() == DATA
    assert blob(out).save(b"\x00payload") and blob(out).load() == b"\x00payload"


def test_a_missing_record_is_none(out):
    assert record(out).load() is None and blob(out).load() is None


def test_a_record_of_another_kind_is_none(out):
    record(out, kind="book build").save(DATA)
    assert record(out).load() is None
    blob(out, kind="other").save(b"x")
    assert blob(out).load() is None


def test_a_record_of_another_version_is_none(out):
    record(out, version="0").save(DATA)
    assert record(out).load() is None
    blob(out, version="0").save(b"x")
    assert blob(out).load() is None


def test_a_record_of_another_forge_version_is_none(out, monkeypatch):
    record(out).save(DATA)
    monkeypatch.setattr(seal, "__version__", "9.9.9")
    assert record(out).load() is None


def test_the_kind_and_version_fields_cannot_be_edited_past_the_seal(out):
    record(out, kind="book build").save(DATA)
    raw = json.loads(record(out).path.read_bytes())
    raw["kind"] = "render manifest"  # relabelled: the seal covers the kind
    record(out).path.write_text(json.dumps(raw))
    assert record(out).load() is None


def test_a_forged_seal_is_none(out, monkeypatch):
    monkeypatch.setattr(seal, "_KEY", {"key": b"A" * 32})  # another machine's key (a committed output/)
    record(out).save(DATA)
    blob(out).save(b"x")
    monkeypatch.setattr(seal, "_KEY", {"key": b"B" * 32})
    assert record(out).load() is None and blob(out).load() is None


def test_altered_data_under_the_old_seal_is_none(out):
    record(out).save(DATA)
    raw = json.loads(record(out).path.read_bytes())
    raw["data"]["n"] = 2
    record(out).path.write_text(json.dumps(raw))
    assert record(out).load() is None
    blob(out).save(b"payload")
    path = blob(out).path
    path.write_bytes(path.read_bytes()[:-1] + b"!")
    assert blob(out).load() is None


@pytest.mark.parametrize("cut", [1, 10, 40, 100])
def test_a_truncated_file_is_none(out, cut):
    record(out).save(DATA)
    blob(out).save(b"p" * 64)
    for path in (record(out).path, blob(out).path):
        path.write_bytes(path.read_bytes()[:-cut])
    assert record(out).load() is None and blob(out).load() is None


@pytest.mark.parametrize("raw", [b"", b"{not json", b"\xff\xfe", b"[" * 200_000, b"null", b'{"data": []}',
                                 b'{"kind": "render manifest", "data": {}, "seal": 1}'])
def test_garbage_is_none_not_an_exception(out, raw):
    record(out).path.write_bytes(raw)
    assert record(out).load() is None


def test_data_not_an_object_is_none(out):
    r = record(out)
    r.path.write_bytes(json.dumps({"kind": r.kind, "version": r.version, "data": [1],
                                   "seal": seal._mac(r._header() + b"\n" + b"[1]").hex()}).encode())
    assert r.load() is None


def test_a_file_over_the_limit_is_none(out):
    record(out).save(DATA)
    assert record(out, limit=10).load() is None


def test_a_link_planted_in_place_of_the_record_is_neither_read_nor_written_through(out, tmp_path):
    target = tmp_path / "elsewhere.json"
    record(out).save(DATA)
    os.replace(record(out).path, target)  # a record sealed here, reached through a link
    record(out).path.symlink_to(target)
    assert record(out).load() is None
    before = target.read_bytes()
    record(out).save({"other": 1})
    assert target.read_bytes() == before and not record(out).path.is_symlink()


def test_a_linked_folder_leading_out_of_the_output_folder_is_neither_read_nor_written(out, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / ".cache").rmdir()
    (out / ".cache").symlink_to(elsewhere, target_is_directory=True)
    SealedRecord(elsewhere / "r.json", "render manifest", "1").save(DATA)  # sealed here, outside output/
    assert record(out).load() is None
    with pytest.raises(OSError, match="link"):
        record(out).save(DATA)
    assert record(out).save(DATA, quiet=True) is False
    assert json.loads((elsewhere / "r.json").read_bytes())["data"] == DATA  # not overwritten


def test_a_special_file_in_place_of_the_record_is_none(out):
    os.mkfifo(record(out).path)  # opened, it would block
    assert record(out).load() is None


def test_a_record_that_cannot_be_written_raises_unless_quiet(out):
    (out / ".cache" / "r.json").mkdir()  # a folder in its place
    (out / ".cache" / "r.json" / "x").write_text("x")
    with pytest.raises(OSError):
        record(out).save(DATA)
    assert record(out).save(DATA, quiet=True) is False
