"""The vendored icon subset holds exactly the icons forge draws, each with its author (for the books' credits)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.carddb.database import load_database
from forge.carddb.model import IconArt
from forge.render import vendor
from forge.render.assets import DERIVED_ICONS, ICONS_FILE, SYMBOL_ICONS, icon_author

REPO = Path(__file__).resolve().parents[2]


def test_the_shipped_subset_is_exactly_the_icons_in_use():
    vendored = set(json.loads(ICONS_FILE.read_text(encoding="utf-8"))["icons"])
    assert vendored == vendor.wanted_icons(REPO, []) - set(DERIVED_ICONS)
    db = load_database(REPO).db
    used = {n for c in db.cards if isinstance(c.art, IconArt) for n in c.art.icons()}
    assert used <= vendored and {f.icon for f in db.factions} <= vendored
    assert {DERIVED_ICONS.get(n, (n,))[0] for n in SYMBOL_ICONS.values()} <= vendored


def test_every_vendored_icon_names_its_author():
    icons = json.loads(ICONS_FILE.read_text(encoding="utf-8"))["icons"]
    assert {name: i.get("author") for name, i in icons.items() if not i.get("author")} == {}
    assert icon_author("tombstone-cross") == icon_author("tombstone") == "Lorc"


@pytest.fixture
def fake_set(tmp_path, monkeypatch):
    """A tiny icon set and a project whose one card uses two of its icons; the subset goes to tmp_path."""
    body = '<path fill="currentColor" d="M0 0h10v10H0z"/>'
    names = {"wolf-head", "fire-dash", "imp", "unused-one"} | {DERIVED_ICONS.get(n, (n,))[0]
                                                                 for n in SYMBOL_ICONS.values()}
    names |= {"burning-embers"}
    (tmp_path / "icons.json").write_text(json.dumps({"icons": {n: {"body": body} for n in names}}), encoding="utf-8")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "a.yaml").write_text(
        "factions:\n  - id: red\n    name: {en: R, fr: R}\n    color: '#aa0000'\n    icon: burning-embers\n"
        "    identity: {en: x, fr: x}\n"
        "cards:\n  - id: a\n    type: creature\n    factions: [red]\n    copies: 1\n    name: {en: A, fr: A}\n"
        "    art: {icon: fire-dash, accents: [imp]}\n", encoding="utf-8")
    out = tmp_path / "out" / "game-icons.json"
    monkeypatch.setattr(vendor, "ICONS_FILE", out)
    return tmp_path, out, names


def test_vendor_keeps_only_the_used_icons_with_their_authors(fake_set):
    root, out, names = fake_set
    authors = {n: "Lorc" for n in names}
    assert vendor.vendor(root / "icons.json", root, [], authors) == []
    kept = json.loads(out.read_text(encoding="utf-8"))["icons"]
    assert "fire-dash" in kept and "imp" in kept and "unused-one" not in kept
    assert all(i["author"] == "Lorc" for i in kept.values())


def test_vendor_refuses_an_icon_without_author_or_missing_from_the_set(fake_set):
    root, out, names = fake_set
    problems = vendor.vendor(root / "icons.json", root, ["no-such-icon"], {n: "Lorc" for n in names - {"imp"}})
    assert any("no author for imp" in p for p in problems) and any("no-such-icon" in p for p in problems)
    assert not out.exists()  # nothing half-written
