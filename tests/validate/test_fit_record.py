"""`forge validate` keeps what its text-fit pass learned in a record of its own, outside the project (issue 9,
Fast to start): a re-validate gives the same findings without laying out a text it already knows, a changed
text is measured again, and a record this machine did not seal, or a link in its place, is not trusted."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

import forge.render.face as face_module
import forge.render.fit as fit_module
from forge.carddb.database import load_database
from forge.render import fitmemo
from forge.render.face import build_face, measure_face, with_text_classes
from forge.render.template import load_template
from forge.text.cardtext import load_phrasebooks

from ..conftest import REPO, invoke

MEASURES = ("text_fill", "best_size", "layout_fixed", "fit_text", "fit_line")


def findings(root) -> list[dict]:
    result = invoke(["validate", "--root", str(root), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["findings"]


def overflows(root) -> list[dict]:
    return [f for f in findings(root) if f["rule"] == "text-overflow"]


@pytest.fixture(autouse=True)
def cache_home(tmp_path_factory, monkeypatch):
    """Records (and a seal key) in a folder of this test's own."""
    home = tmp_path_factory.mktemp("cache-home")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def record(root):
    memo = fitmemo.validate_memo(root)
    return memo.record.path


def edit(root, name: str, change) -> None:
    path = root / "cards" / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data["cards"])
    path.write_text("# yaml-language-server: $schema=../schema/cards.schema.json\n"
                    + yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture
def crowded(shipped):
    """The shipped game with a name too long for its bar, a type line too long for its bar (in French)
    and a flavour text that fits at no size: one finding of each kind the fit pass makes."""
    def crowd(cards):
        cards[0]["name"]["en"] = "Unbelievablyverylongnamethatcannotpossiblyfitonthetitlebar " * 2
        cards[1]["flavor"] = {"en": "Short.",
                              "fr": " ".join(["Une phrase interminable qui ne tiendra jamais sur une carte."] * 12)}
    edit(shipped, "red.yaml", crowd)
    fr = shipped / "locales" / "fr.yaml"
    text = fr.read_text(encoding="utf-8")
    assert "spell: Magie, trap" in text
    fr.write_text(text.replace("spell: Magie, trap", "spell: " + "Magie interminable " * 6 + ", trap"),
                  encoding="utf-8")
    return shipped


def forbid_measuring(patch) -> None:
    def measured(*args, **kwargs):
        raise AssertionError("a text was laid out again although the record knew it")

    for name in MEASURES:
        patch.setattr(face_module, name, measured)


def test_a_revalidate_reads_the_record_and_reports_exactly_what_a_fresh_one_does(crowded, monkeypatch):
    fresh = findings(crowded)
    kinds = [f["message"] for f in fresh if f["rule"] == "text-overflow"]
    assert any("the name" in m for m in kinds) and any("the type line" in m for m in kinds)
    assert any("the rules text" in m and m.startswith("fr:") for m in kinds)
    assert record(crowded).is_file()

    with monkeypatch.context() as patch:
        forbid_measuring(patch)
        assert findings(crowded) == fresh  # same files, lines, columns, rules, messages and hints
    record(crowded).unlink()
    assert findings(crowded) == fresh  # and without the record again


def test_the_fit_pass_agrees_with_the_renderers_own_measure(crowded):
    """The record's facts say what ``measure_face`` (the renderer's measure) says, face by face."""
    from forge.render.fitcheck import check_text_fit

    load = load_database(crowded)
    books = load_phrasebooks(crowded)
    first = check_text_fit(load.db, books, crowded, fitmemo.validate_memo(crowded))
    again = check_text_fit(load.db, books, crowded, fitmemo.validate_memo(crowded))
    tpl = load_template(crowded)
    faces = with_text_classes({lang: [build_face(c, load.db, books[lang], lang, crowded) for c in load.db.cards]
                               for lang in sorted(books)}, tpl)
    expected = sorted(f"{lang}: {p}" for lang, fs in faces.items() for f in fs for p in measure_face(f, tpl).problems)
    assert sorted(f.message for f in first) == sorted(f.message for f in again) == expected
    assert len(expected) >= 3


def test_a_changed_text_is_measured_again(crowded, monkeypatch):
    before = overflows(crowded)
    calls = []
    original = fit_module.layout_fixed

    def counting(*args, **kwargs):
        calls.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(fit_module, "layout_fixed", counting)

    def fix(cards):
        cards[1]["flavor"]["fr"] = "Court."
    edit(crowded, "red.yaml", fix)
    after = overflows(crowded)
    assert len(after) == len(before) - 1 and not any("the rules text" in f["message"] for f in after)

    def flood(cards):
        cards[2]["flavor"] = {"en": " ".join(["An endless sentence that will never fit on a card."] * 12),
                              "fr": "Court."}
    edit(crowded, "red.yaml", flood)
    calls.clear()
    flooded = overflows(crowded)
    assert any(f["message"].startswith("en: the rules text") for f in flooded)
    assert calls  # the new text was laid out…
    assert len(calls) < 20  # …and only the texts that changed (the shipped game has 128)


def test_a_change_of_fonts_or_fitting_code_measures_everything_again(crowded, monkeypatch):
    fresh = findings(crowded)
    monkeypatch.setattr(face_module, "assets_hash", lambda: "other fonts and renderer code")
    calls = []
    original = fit_module.text_fill
    monkeypatch.setattr(fit_module, "text_fill", lambda *a: calls.append(a) or original(*a))
    assert findings(crowded) == fresh
    assert len(calls) >= 100  # every text again: the record's keys hold the fonts' and the code's hash


@pytest.mark.parametrize("damage", ["forged", "garbage", "foreign-shape"])
def test_a_record_this_machine_did_not_write_is_ignored(crowded, damage):
    from forge.core.seal import SealedRecord
    from forge.render.fitmemo import KIND

    fresh = findings(crowded)
    path = record(crowded)
    sealed = json.loads(path.read_text(encoding="utf-8"))
    facts = sealed["data"]
    for entry in facts.values():  # every text short, at full size, fitting everywhere
        entry.update(fill=0.1, best=9.0, lines=[True, True], fits={k: True for k in entry.get("fits", {})})
    if damage == "forged":
        path.write_text(json.dumps(sealed), encoding="utf-8")  # the old seal: it no longer matches
    elif damage == "garbage":
        path.write_bytes(b"\x00not json{")
    else:  # sealed here, by another version of forge, in another shape
        SealedRecord(path, KIND).save({k: {"fill": "full", "lines": "yes", "fits": [1]} for k in facts})
    assert findings(crowded) == fresh


def test_validate_writes_nothing_into_the_project(crowded):
    def files():
        return sorted(str(p.relative_to(crowded)) for p in crowded.rglob("*"))

    before = files()
    assert findings(crowded)
    assert files() == before and not (crowded / "output").exists()
    assert record(crowded).is_file()


def test_a_link_in_place_of_the_record_is_neither_read_nor_written_through(crowded, tmp_path_factory):
    from forge.core.seal import SealedRecord
    from forge.render.fitmemo import KIND

    fresh = findings(crowded)
    target = tmp_path_factory.mktemp("elsewhere") / "facts.json"
    facts = json.loads(record(crowded).read_text(encoding="utf-8"))["data"]
    for entry in facts.values():  # sealed here, and saying that every text fits: read, it would hide the findings
        entry.update(fill=0.1, best=9.0, lines=[True, True], fits={k: True for k in entry.get("fits", {})})
    SealedRecord(target, KIND).save(facts)
    record(crowded).unlink()
    record(crowded).symlink_to(target)
    target_bytes = target.read_bytes()
    assert findings(crowded) == fresh
    assert target.read_bytes() == target_bytes  # the link is replaced by a record of its own, never followed


def test_the_records_of_the_least_recently_validated_projects_are_removed(shipped, tmp_path_factory, monkeypatch):
    import shutil

    monkeypatch.setattr(fitmemo, "VALIDATE_RECORDS", 2)
    roots = []
    for name in ("one", "two", "three"):
        root = tmp_path_factory.mktemp(name)
        for part in ("cards", "locales", "templates"):
            shutil.copytree(shipped / part, root / part)
        roots.append(root)
        findings(root)
    kept = sorted(p.name for p in record(roots[0]).parent.glob("*.json"))
    assert kept == sorted(record(r).name for r in roots[1:])


def test_a_revalidate_does_not_load_the_fitter_nor_reportlabs_fonts(shipped, cache_home):
    """What makes the re-run fast: with every text known, neither the fitter nor the font metrics load."""
    code = ("import sys; from forge.checks.validate import validate; r = validate(sys.argv[1]); "
            "print(len(r.findings), 'forge.render.fit' in sys.modules, 'reportlab.pdfbase.pdfmetrics' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # XDG_CACHE_HOME: this test's (cache_home)
    runs = [subprocess.run([sys.executable, "-c", code, str(shipped)], env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs[0] == ["0", "True", "True"]  # the first run measures
    assert runs[1] == ["0", "False", "False"]
