"""forge parity: English and French compared, each difference at its file:line:col."""
from __future__ import annotations

import json
from pathlib import Path

from forge.i18n.checks.typography import english, french
from ..conftest import invoke


CARD = """\
cards:
  - id: ember-imp
    type: creature
    factions: [red]
    cost: 2
    allegiance: {{red: 1}}
    copies: 3
    name: {{en: "{name_en}", fr: "{name_fr}"}}
    flavor: {{en: "{flavor_en}", fr: "{flavor_fr}"}}
    activate:
      - wound: 2
        text: {{en: "**Wound** 2", fr: "{wording_fr}"}}
"""


def card(name_en="Ember Imp", name_fr="Diablotin des Braises", flavor_en="It laughs.",
         flavor_fr="Il rit.", wording_fr="**Blessures** 2") -> str:
    return CARD.format(name_en=name_en, name_fr=name_fr, flavor_en=flavor_en, flavor_fr=flavor_fr,
                       wording_fr=wording_fr)


def run(root: Path, fmt: str = "text"):
    result = invoke(["parity", "--root", str(root), "--format", fmt])
    return result.exit_code, result.stdout


def findings(root: Path) -> list[str]:
    code, out = run(root, "json")
    return [f"{f['file']}:{f['line']}:{f['column']}: [{f['rule']}] {f['message']}" for f in json.loads(out)["findings"]]


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_shipped_project_is_in_parity(shipped):
    code, out = run(shipped)
    assert code == 0, out
    assert "✓ English and French are in parity" in out


def test_a_clean_project_reports_its_counts(project):
    project("red.yaml", card())
    code, out = run(project.root)
    assert code == 0
    assert out.splitlines()[-1].startswith("✓ English and French are in parity (")


def test_a_key_missing_in_french_is_reported_at_the_english_line(project):
    fr = project.root / "locales/fr.yaml"
    edit(fr, "  rush: Ruée\n", "")
    project("red.yaml", card())
    line = line_of(project.root / "locales/en.yaml", "  rush: Rush")
    assert f"locales/en.yaml:{line}:3: [parity-key] `keywords.rush` has no `fr` version in locales/fr.yaml" \
        in findings(project.root)
    assert run(project.root)[0] == 1


def test_a_key_missing_in_english_is_reported_at_the_french_line(project):
    edit(project.root / "locales/fr.yaml", "  rush: Ruée\n", "  rush: Ruée\n  charge: Charge\n")
    project("red.yaml", card())
    line = line_of(project.root / "locales/fr.yaml", "charge: Charge")
    assert f"locales/fr.yaml:{line}:3: [parity-key] `keywords.charge` has no `en` version in locales/en.yaml" \
        in findings(project.root)


def test_placeholders_and_markup_must_match(project):
    fr = project.root / "locales/fr.yaml"
    edit(fr, 'do: "Piochez {n} {n|carte|cartes}."', 'do: "Piochez une carte."')
    edit(fr, 'poison: "**Poison** {n}"', 'poison: "Poison {n}"')
    project("red.yaml", card())
    draw, poison = line_of(fr, "Piochez une carte"), line_of(fr, 'poison: "Poison {n}"')
    found = findings(project.root)
    assert (f"locales/fr.yaml:{draw}:10: [parity-placeholder] `locales/phrases.draw.do`: different placeholders: "
            "en {n|…|…} {n}, fr none") in found
    assert (f"locales/fr.yaml:{poison}:12: [parity-markup] `locales/phrases.poison`: different markup (bold, icons): "
            "en **…**, fr none") in found


def test_an_identical_name_is_an_error_unless_listed(project):
    project("red.yaml", card(name_fr="Ember Imp", flavor_en="Verdict.", flavor_fr="Verdict."))
    code, out = run(project.root)
    assert code == 1
    assert ("cards/red.yaml:9:34: [untranslated] `cards/ember-imp/name` is the same in English and French: "
            "\"Ember Imp\"\n    hint: translate it, or list it under `identical:` in locales/termbase.yaml if it "
            "is the same on purpose") in out
    assert "flavor` is the same" not in out


def test_french_typography_in_a_flavour(project):
    project("red.yaml", card(flavor_fr="Il rit: « fort »."))
    assert findings(project.root) == [
        "cards/red.yaml:10:43: [typography] `cards/ember-imp/flavor`: no space before `:`; French takes a no-break space",
        "cards/red.yaml:10:45: [typography] `cards/ember-imp/flavor`: no no-break space after `«`",
        "cards/red.yaml:10:52: [typography] `cards/ember-imp/flavor`: no no-break space before `»`",
    ]


def test_english_takes_no_space_before_a_colon(project):
    project("red.yaml", card(flavor_en="It laughs : loud."))
    assert findings(project.root) == [
        "cards/red.yaml:10:28: [typography] `cards/ember-imp/flavor`: a space before `:` (English takes none)"]


def test_a_wording_that_changes_a_number_breaks_the_line_parity(project):
    project("red.yaml", card(wording_fr="**Blessures** 3"))
    line = line_of(project.root / "cards/red.yaml", "**Blessures** 3")
    assert findings(project.root) == [
        f"cards/red.yaml:{line}:54: [parity-number] `cards/ember-imp/activate.0.text`: the numbers differ: en 2, fr 3"]


def test_typography_rules():
    assert french("Vous pouvez\u00a0: piocher\u202f!") == []
    assert [p[0] for p in french('Il dit "oui" ?')] == [7, 11, 13]
    assert french("10:30 http://x") == []
    assert english("Note: fine") == []
    assert [p[4] for p in french("l'aube")] == [(1, 2, "’")]


def write_books(root: Path, en: str, fr: str, strings: str = "en: {a: A}\nfr: {a: B}\n") -> None:
    books = root / "templates/books"
    books.mkdir(parents=True)
    (books / "guide.en.md").write_text(en, encoding="utf-8")
    (books / "guide.fr.md").write_text(fr, encoding="utf-8")
    (books / "strings.yaml").write_text(strings, encoding="utf-8")


def test_books_have_the_same_headings_and_blocks(project):
    project("red.yaml", card())
    write_books(project.root,
                "# Title\n\n## Goal\n\n{block:factions}\n\nUse {kw:wound} now.\n",
                "# Titre\n\n### But\n\nUtilisez les blessures maintenant.\n",
                "en: {a: Ay, b: Bee}\nfr: {a: Aïe}\n")
    found = findings(project.root)
    assert ("templates/books/guide.fr.md:3:1: [parity-structure] the French has a heading ### where the English has "
            "a heading ## at templates/books/guide.en.md:3") in found
    assert any(f.startswith("templates/books/guide.fr.md:") and "[parity-structure] the French has nothing where "
               "the English has a paragraph" in f for f in found)
    assert any("[parity-key] `b` has no `fr` version in strings.yaml" in f for f in found)
    assert run(project.root)[0] == 1


def test_json_summary(project):
    project("red.yaml", card(name_fr="Ember Imp"))
    code, out = run(project.root, "json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    assert report["summary"]["by_rule"] == {"untranslated": 1}
    assert report["summary"]["strings"]["en"] == report["summary"]["strings"]["fr"] > 100


def test_a_missing_locale_is_an_io_error(project):
    project("red.yaml", card())
    (project.root / "locales/fr.yaml").unlink()
    code, out = run(project.root)
    assert code == 2
    assert "locales/fr.yaml: [io] no such file" in out
