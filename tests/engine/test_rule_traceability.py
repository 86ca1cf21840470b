"""Every rule paragraph of the rulebook has a scenario test (``@pytest.mark.rule``)."""
from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest

from . import rule_coverage
from .rulebook_paragraphs import BY_ID, NOT_RULES, PARAGRAPHS

#: Test files whose tests are about the engine as a library, not about a rule paragraph.
LIBRARY_FILES = {"test_engine_api.py", "test_rule_traceability.py", "test_record_tamper.py", "test_seeded_records.py",
                 "test_tasks.py"}
#: Tests of the rulebook files that pin no paragraph, with the reason.
UNMARKED = {
    "test_setup.py::test_game_is_reproducible_from_seed_and_agents": "reproducibility is a property of the engine",
}
#: Where the rulebook texts may be found (English "Rules of play", French "Règles du jeu").
#: The project's layout puts shared/ beside the repository (as CI does); RIFT_RULEBOOK_DIR overrides.
RULEBOOK_DIR = Path(os.environ.get("RIFT_RULEBOOK_DIR", Path(__file__).resolve().parents[2].parent / "shared" / "seeds"))


def test_every_rule_paragraph_has_a_test():
    cov = rule_coverage.coverage()
    missing = [f"{p.id} ({p.en!r})" for p in PARAGRAPHS if not cov[p.id]]
    assert not missing, "rule paragraphs without a test:\n  " + "\n  ".join(missing)


def test_every_rule_marker_names_a_known_paragraph():
    bad = {t: [i for i in ids if i not in BY_ID] for t, ids in rule_coverage.rule_marks().items()}
    bad = {t: ids for t, ids in bad.items() if ids}
    assert not bad, f"unknown paragraph ids in @pytest.mark.rule: {bad}"


def test_every_rulebook_test_pins_a_paragraph():
    unmarked = [t for t, ids in rule_coverage.rule_marks().items()
                if not ids and t.split("::")[0] not in LIBRARY_FILES and t not in UNMARKED]
    assert not unmarked, "tests without @pytest.mark.rule: " + ", ".join(unmarked)


def test_paragraph_ids_are_unique_and_stable():
    ids = [p.id for p in PARAGRAPHS] + [n.id for n in NOT_RULES]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", i) for i in ids)
    for p in PARAGRAPHS:
        assert p.en and p.fr and p.section


def test_rule_marker_is_registered():
    conf = tomllib.loads((rule_coverage.REPO / "pyproject.toml").read_text(encoding="utf-8"))
    markers = conf["tool"]["pytest"]["ini_options"].get("markers", [])
    assert any(m.startswith("rule(") for m in markers)


def test_rule_coverage_doc_is_current():
    assert rule_coverage.DOC.read_text(encoding="utf-8") == rule_coverage.render(), \
        "docs/rule-coverage.md is stale: run python -m tests.engine.rule_coverage"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ").replace("\u202f", " ")).strip()


def _rulebooks() -> dict[str, str]:
    books: dict[str, str] = {}
    if RULEBOOK_DIR.is_dir():
        for path in sorted(RULEBOOK_DIR.glob("*.txt")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "Rift Commanders" not in text:
                continue
            first = text.lstrip().split("\n", 1)[0].strip()
            lang = {"Rules of play": "en", "Règles du jeu": "fr"}.get(first)
            if lang:
                books[lang] = _norm(text)
    return books


def test_first_words_are_found_in_both_rulebooks_in_order():
    books = _rulebooks()
    if set(books) != {"en", "fr"}:
        pytest.skip(f"the rulebook texts are not in {RULEBOOK_DIR} (set RIFT_RULEBOOK_DIR)")
    for lang, book in books.items():
        where = []
        for p in PARAGRAPHS:
            at = book.find(_norm(getattr(p, lang)))
            assert at >= 0, f"{p.id}: {getattr(p, lang)!r} is not in the {lang} rulebook"
            where.append(at)
        assert where == sorted(where), f"paragraphs out of the {lang} rulebook's order"
        for n in NOT_RULES:
            assert _norm(getattr(n, lang)) in book, n.id
