"""`forge sync`'s fingerprints (issue 26 §1): new French recorded, removed cards dropped, kept French kept."""
from __future__ import annotations

from forge.i18n import fingerprints, inventory

from .helpers import edit


def _synced(root, review=frozenset()):
    inv = inventory.build(root)
    return inv, fingerprints.synced(inv, fingerprints.load(inv.sources), set(review))


def test_a_new_card_written_in_both_languages_is_recorded_and_listed(shipped):
    edit(shipped, "cards/red.yaml", 'name: {en: "Ash Runner", fr: "Coureur des Cendres"}',
         'name: {en: "Ember Fox", fr: "Renard des Braises"}')
    edit(shipped, "cards/red.yaml", "id: ash-runner", "id: ember-fox")
    inv, done = _synced(shipped)
    assert done.recorded == ["cards/ember-fox/name", "cards/ember-fox/flavor"]
    assert "cards/ash-runner/name" in done.removed and "cards/ash-runner/flavor" in done.removed
    assert not set(done.removed) & {p.id for p in inv.pairs}
    assert fingerprints.untracked(inv, done.record) == [] and fingerprints.stale(inv, done.record) == []
    # every other fingerprint is kept as it was
    before = fingerprints.load(inv.sources).prints
    kept = {k: v for k, v in done.record.prints.items() if not k.startswith("cards/ember-fox/")}
    assert kept == {k: v for k, v in before.items() if not k.startswith("cards/ash-runner/")}


def test_french_whose_english_changed_stays_stale(shipped):
    edit(shipped, "cards/red.yaml", 'name: {en: "Kindle"', 'name: {en: "Kindling"')
    inv, done = _synced(shipped)
    assert done.recorded == [] and done.removed == []
    assert [p.id for p in fingerprints.stale(inv, done.record)] == ["cards/kindle/name"]


def test_a_removed_cards_fingerprints_disappear_from_the_sidecar(shipped):
    path = shipped / "cards/red.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: ash-runner")
    path.write_text(text[:start] + text[text.index("\n  - id:", start + 5) + 1:], encoding="utf-8")
    _, done = _synced(shipped)
    assert done.removed == ["cards/ash-runner/flavor", "cards/ash-runner/name"]
    assert fingerprints.save(shipped, done.record)
    sidecar = (shipped / fingerprints.SIDECAR).read_text(encoding="utf-8")
    assert "ash-runner" not in sidecar
    _, again = _synced(shipped)
    assert again.removed == [] and again.recorded == [] and not fingerprints.save(shipped, again.record)


def test_flagged_french_is_stale_until_reviewed(shipped):
    inv = inventory.build(shipped)
    pid = "cards/kindle/name"
    _, done = _synced(shipped, {pid})
    assert done.flagged == [pid] and done.record.prints[pid] == fingerprints.REVIEW
    assert [p.id for p in fingerprints.stale(inv, done.record)] == [pid]
    found = [f for f in fingerprints.findings(inv, done.record) if f.rule == "stale-translation"]
    assert len(found) == 1 and "played again" in found[0].message
    new, marked, _ = fingerprints.mark_reviewed(inv, done.record, [pid])
    assert marked == [pid] and fingerprints.stale(inv, new) == []


def test_a_project_without_the_sidecar_is_left_untracked(shipped):
    (shipped / fingerprints.SIDECAR).unlink()
    _, done = _synced(shipped, {"cards/kindle/name"})
    assert not done.record.tracked and done.recorded == done.removed == done.flagged == []
