"""Each realistic translator mistake, made once in a copy of the game, is found at the line to edit.

Issue 11, section 1: every case edits one French (or English) string the way a translator
might get it wrong, then asserts the finding's file, line and rule. The cases are a table
(``MISTAKES``) run in memory by the families that report the rule (the compiled cards and their
layout too); a few runs stay end to end (``forge parity`` on a written copy): the clean game, a
whole-report assertion, ``--fix`` in place, and files that do not parse.
"""
from __future__ import annotations

import pytest

from .memory import Game

FR, EN, TERMS = "locales/fr.yaml", "locales/en.yaml", "locales/termbase.yaml"
RULEBOOK_FR, REFERENCE_FR = "templates/books/rulebook.fr.md", "templates/books/reference.fr.md"
DRAW = 'do: "Piochez {n} {n|carte|cartes}."'
FLAVOUR = 'fr: "Déjà loin. Déjà en flammes."'
ROW = '  row: "Zone de recrutement"'
PHASES = "Chaque tour comporte trois phases"
NAME = 'fr: "Coureur des Cendres"'
SCHEMA_BREAK = ("    cost: 2\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"",
                "    cost: two\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"")


@pytest.fixture
def game(tmp_path) -> Game:
    return Game(tmp_path)


def report(game: Game, *args: str) -> tuple[int, list[dict]]:
    """Parity's exit code and findings, end to end (the game written out, ``forge parity`` run on it)."""
    return game.report(*args)


def mistake(game: Game, rel: str, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in one file; return the line ``new`` starts on."""
    return game.edit(rel, old, new)


def found(game: Game, rule: str) -> set[tuple[str, int]]:
    """(file, line) of each finding of ``rule``, from the families that report it, in memory; at least one."""
    return game.found(rule)


def case(name: str, rule: str, *edits: tuple, only: bool = True):
    """One mistake: ``edits`` are (file, old, new[, lines from the edit to the finding, or None for an edit that
    is found elsewhere]); ``only``: the rule finds these lines and no other, else at least these."""
    return pytest.param(rule, [edit if len(edit) == 4 else (*edit, 0) for edit in edits], only, id=name)


MISTAKES = [
    # -- numbers ----------------------------------------------------------------------------------------
    case("a number changed in a phrase template", "parity-number",
         (FR, "est réduit de 1.", "est réduit de 2."), only=False),
    case("a spelled-out number changed in book prose", "parity-number",
         (RULEBOOK_FR, PHASES, "Chaque tour comporte quatre phases")),
    # « les deux » is "both" (no number), but « les deux premiers tours » is "the first two turns"
    case("les deux premiers is a count not both", "parity-number",
         ("cards/factions.yaml", "dès le premier tour, tandis que", "dès les deux premiers tours, tandis que")),
    case("a number changed in a flavour", "parity-number",
         ("cards/red.yaml", FLAVOUR, 'fr: "Déjà loin. Déjà deux fois en flammes."')),
    # -- what is copied, never translated ------------------------------------------------------------------
    case("a placeholder dropped", "parity-placeholder", (FR, DRAW, 'do: "Piochez une carte."'), only=False),
    case("a directive argument changed", "parity-directive",
         (RULEBOOK_FR, "commence avec {count:health health}", "commence avec {count:hand health}")),
    case("a directive name changed", "parity-directive",
         (RULEBOOK_FR, "commence avec {count:health health}", "commence avec {plural:health health}")),
    case("a card reference changed", "parity-card-ref",
         (REFERENCE_FR, "Imprimé sur le piège {card:divine-shield}", "Imprimé sur le piège {card:divine-shell}")),
    case("bold dropped", "parity-markup", (FR, 'poison: "**Poison** {n}"', 'poison: "Poison {n}"'), only=False),
    case("an icon dropped in prose", "parity-markup",
         (RULEBOOK_FR, "- [[demise]] {kw:demise} (pierre tombale)", "- {kw:demise} (pierre tombale)")),
    case("a block key translated", "parity-structure", (RULEBOOK_FR, "\n::: tip\n", "\n::: astuce\n", 1),
         only=False),
    # -- English left in the French, and the reverse ------------------------------------------------------
    case("a name left in english", "untranslated", ("cards/red.yaml", NAME, 'fr: "Ash Runner"')),
    # "Already burning" has no function word: the word lists (frequent in English, rare in French) find it
    case("half a flavour left in english", "untranslated",
         ("cards/red.yaml", FLAVOUR, 'fr: "Déjà loin. Already burning."'),
         ("cards/red.yaml", 'fr: "Le claquement, c’est la dernière chose qu’on entend."',
          'fr: "The crack is the last thing they hear."')),
    case("a french name left in english words", "untranslated",
         ("cards/red.yaml", 'fr: "Étincelle"', 'fr: "Already Burning"')),
    case("french left in an english flavour", "untranslated",
         ("cards/red.yaml", 'en: "Already gone. Already burning."', 'en: "Already gone. Déjà en flammes."')),
    case("english left in a phrase template", "untranslated",
         (FR, "protect_creatures: \"Jusqu’à la fin du tour, vos créatures ne peuvent pas être détruites.\"",
          "protect_creatures: \"Until the end of the turn, vos créatures ne peuvent pas être détruites.\""),
         only=False),
    case("french left in the english prose", "untranslated",
         ("templates/books/rulebook.en.md", "Each turn has three phases, always in this order",
          "Chaque tour comporte trois phases, toujours dans cet ordre"), only=False),
    case("a card failing the schema still has its strings compared", "untranslated",
         ("cards/red.yaml", *SCHEMA_BREAK, None), ("cards/red.yaml", NAME, 'fr: "Ash Runner"'), only=False),
    # -- terminology --------------------------------------------------------------------------------------
    case("a keyword label not as the termbase says", "terminology", (FR, "  rush: Ruée\n", "  rush: Charge\n"),
         only=False),
    case("a core term translated another way", "terminology",
         (RULEBOOK_FR, "va sur la pile d'exil commune", "va sur la pile de bannissement commune")),
    # flavour is fiction, but never another game's word: « cimetière » is not la défausse
    case("a forbidden variant in a flavour", "terminology",
         ("cards/black.yaml", 'fr: "Trois gouttes. Puis de la patience."', 'fr: "Trois gouttes. Puis le cimetière."')),
    case("a forbidden variant in a card name", "terminology",
         ("cards/blue.yaml", 'fr: "Arpenteur de la Faille"', 'fr: "Arpenteur du Marché"'), only=False),
    case("a forbidden variant in a book heading", "terminology", (RULEBOOK_FR, "## Essence d'âme\n", "## Le mana\n"),
         only=False),
    case("a forbidden english variant", "terminology",
         ("cards/black.yaml", 'en: "Three drops. Then patience."', 'en: "Three drops. Then the graveyard."')),
    # names translate the game's terms as the rules do: a Soul is an « Âme » in a name too
    case("a card name that drops its keyword", "terminology",
         ("cards/starter.yaml", 'fr: "Âme Perdue"', 'fr: "Esprit Perdu"')),
    case("a heading that drops its term", "terminology", (RULEBOOK_FR, "## Allégeance\n", "## Loyauté\n")),
    case("a forbidden variant that is also an allowed form is a termbase error", "termbase",
         (TERMS, "fr_forbidden: [commandeur, commandeurs]}", "fr_forbidden: [commandeur, commandeurs, pioche]}", -1),
         only=False),
    case("one french term for two english ones", "terminology", (TERMS, "en: Rush, fr: Ruée,", "en: Rush, fr: Garde,"),
         only=False),
    case("two cards with one french name", "duplicate-name", ("cards/red.yaml", NAME, 'fr: "Étincelle"')),
    # « **poison** » in a phrase: the keywords table writes Poison (and the termbase lists it as identical)
    case("a keyword in bold written in lower case", "terminology",
         (FR, 'poison: "**Poison** {n}"', 'poison: "**poison** {n}"')),
    # -- plurals ------------------------------------------------------------------------------------------
    case("plural forms in the wrong slots", "plural", (FR, DRAW, 'do: "Piochez {n} {n|cartes|carte}."')),
    case("a plural slot left singular", "plural", (FR, DRAW, 'do: "Piochez {n} {n|carte|carte}."')),
    # the words of ``{n|card|cards}`` are printed: English left in them is found like any other
    case("a plural slot left in english is read as words", "untranslated-word",
         (FR, DRAW, 'do: "Piochez {n} {n|card|cards}."'), only=False),
    # -- whitespace, punctuation, typography ----------------------------------------------------------------
    case("a space before a comma in prose", "typography",
         (RULEBOOK_FR, "dans l'ordre de votre choix, sauf", "dans l'ordre de votre choix , sauf")),
    case("a quotation left open in a flavour", "typography",
         ("cards/red.yaml", 'Maintenant, brûle.\u00a0»"', 'Maintenant, brûle."')),
    case("a quotation closed twice in prose", "typography",
         (RULEBOOK_FR, "- « Vous pouvez », « jusqu'à X »", "- « Vous pouvez », jusqu'à X »")),
    case("a double space in prose", "whitespace", (RULEBOOK_FR, "Chaque tour comporte trois", "Chaque tour  comporte trois")),
    case("a different sentence end", "punctuation", ("cards/red.yaml", FLAVOUR, 'fr: "Déjà loin. Déjà en flammes !"')),
    # -- structure of the books -----------------------------------------------------------------------------
    # reported at the item after which the missing one goes
    case("a list item dropped", "parity-structure",
         (RULEBOOK_FR, "6. Choisissez le premier joueur au hasard, ou, pour une revanche, le perdant de la partie "
          "précédente.\n", "", -1), only=False),
    # -- length: the compiled cards and their layout ---------------------------------------------------
    case("a name that does not fit in french", "length",
         ("cards/red.yaml", NAME, 'fr: "Coureur Infatigable des Cendres Rougeoyantes du Grand Brasier Éternel"')),
    # found at the locale word, not at each card whose type line it makes too long (issue 11: limits)
    case("a card type too long for the type bar", "length",
         (FR, "creature: Créature,", "creature: Créature Invocable des Profondeurs Abyssales du Néant,")),
    case("a faction name that leaves its type lines no room", "length",
         (FR, "red: Rouge,", "red: Rouge Flamboyant des Cendres Éternelles du Volcan,")),
    case("a keyword longer than a line of rules text", "length",
         (FR, "  rush: Ruée\n", "  rush: Ruée Foudroyante et Irrésistible des Légions Ardentes du Brasier\n"), only=False),
    case("a book heading longer than its line", "length",
         (REFERENCE_FR, "## Pièges\n", "## Pièges, embuscades, traquenards et autres surprises\n")),
    case("an english heading longer than its line is found in english", "length",
         ("templates/books/reference.en.md", "## Traps\n", "## Traps, ambushes, snares and other battlefield surprises\n"),
         only=False),
]


@pytest.mark.parametrize(("rule", "edits", "only"), MISTAKES)
def test_a_mistake_is_found_at_the_line_to_edit(game, rule, edits, only):
    lines = {(rel, mistake(game, rel, old, new) + shift) for rel, old, new, shift in edits if shift is not None}
    rows = found(game, rule)
    assert rows == lines if only else rows >= lines, rows


def test_the_shipped_game_is_clean(game):
    code, findings = report(game)
    assert (code, findings) == (0, [])


def test_a_digit_for_a_spelled_out_number_is_the_same_number(game):
    mistake(game, RULEBOOK_FR, PHASES, "Chaque tour comporte 3 phases")
    assert game.rows("parity-number") == set()


def test_names_and_loanwords_in_french_are_not_english_left(game):
    """No false alarm: a capitalised name inside a sentence, and words French shares (deck, page), are French."""
    mistake(game, "cards/red.yaml", FLAVOUR, 'fr: "Déjà loin. Le Burning Man a vu brûler tout le deck."')
    assert game.rows("untranslated") == set()


def test_an_identical_string_listed_in_the_termbase_is_fine(game):
    mistake(game, "cards/red.yaml", NAME, 'fr: "Ash Runner"')
    mistake(game, TERMS, "  - Verdict\n", "  - Verdict\n  - Ash Runner\n")
    assert game.findings() == []


def test_a_loose_term_may_be_implied_in_a_heading_only(game):
    """"Card art credits" → « Crédits des illustrations » is right because `card` is loose; without it, a finding."""
    line = mistake(game, TERMS, "fr_forms: [carte, cartes, Carte, Cartes], loose: true}",
                   "fr_forms: [carte, cartes, Carte, Cartes]}")
    assert line
    code, findings = report(game)
    assert [(f["file"], f["rule"]) for f in findings] == [(REFERENCE_FR, "terminology")]


def test_a_term_inside_a_plural_slot_satisfies_the_termbase(game):
    """« {n|essence|essences} d’âme » is the termbase's essence d’âme, read at one and at many."""
    # the game log: "{player} gains {n} soul essence."
    assert not {row for row in game.rows("terminology") if row[0] == FR}
    line = mistake(game, FR, "gagne {n} {n|essence|essences} d’âme.", "gagne {n} {n|mana|manas}.")
    assert (FR, line) in found(game, "terminology")


def test_a_frame_may_join_its_effect_with_another_mark(game):
    """« Immédiatement, {effect} » for "Immediately: {effect}": the mark before a frame's trailing
    placeholder joins it to the effect (French wants one colon a line), it ends no sentence; a frame
    whose end differs before its own text still does."""
    assert game.rows("punctuation") == set()  # the game French frames use commas where the English has colons
    line = mistake(game, FR, '"Immédiatement, {effect}"', '"Immédiatement, {effect} !"')
    assert found(game, "punctuation") == {(FR, line)}


# -- --fix: each correction found in memory, applied as ``--fix`` applies it; two runs end to end ------------
@pytest.mark.parametrize(("rel", "old", "new", "rule"), [
    pytest.param("cards/red.yaml", NAME, 'fr: "Coureur des Cendres "', "whitespace", id="a trailing space"),
    pytest.param(FR, ROW, '  row: "Zone de recrutement\u00a0"', "whitespace", id="a trailing no-break space"),
    pytest.param(FR, 'win: "{player} gagne."', 'win: "{player} gagne ."', "typography", id="a space before a full stop"),
    pytest.param(FR, ROW, '  row: "Zone de\trecrutement"', "whitespace", id="a tab inside a string"),
])
def test_a_mistake_is_found_and_fixed_in_place(game, rel, old, new, rule):
    before = game.text(rel)
    line = mistake(game, rel, old, new)
    assert (rel, line) in found(game, rule)
    assert game.fix() == {rel: 1}
    assert (game.written() / rel).read_text(encoding="utf-8") == before  # the shipped file again, byte for byte


def test_french_typography_in_factions_is_fixed_in_place(game):
    before = game.text("cards/factions.yaml")
    line = mistake(game, "cards/factions.yaml", "élan\u00a0: il doit", "élan: il doit")
    mistake(game, "cards/factions.yaml", "L’Ost des Braises gagne", "L'Ost des Braises gagne")
    assert found(game, "typography") == {("cards/factions.yaml", line)}
    code, left = report(game, "--fix")
    assert (code, left) == (0, [])
    assert (game.written() / "cards/factions.yaml").read_text(encoding="utf-8") == before  # comments, quoting and layout kept, byte for byte


def test_fix_leaves_what_it_cannot_fix(game):
    line = mistake(game, "cards/red.yaml", FLAVOUR, 'fr: "Déjà \\"loin\\". Déjà en flammes."')
    code, left = report(game, "--fix")
    assert code == 1 and {(f["file"], f["line"], f["rule"]) for f in left} == {("cards/red.yaml", line, "typography")}


def test_two_paragraphs_merged(game):
    text = game.text(RULEBOOK_FR)
    opening = "{spell:factions capital} {plural:factions faction} s'affrontent"
    assert opening + " :\n\n{block:factions}" in text
    line = mistake(game, RULEBOOK_FR, "partie.\n\n" + opening, "partie. " + opening)
    assert (RULEBOOK_FR, line) in found(game, "parity-structure")


# -- nothing silently left out ------------------------------------------------------------------------------
def test_a_locale_that_does_not_parse(game):
    line = mistake(game, "locales/fr.yaml", "  rush: Ruée\n", "  rush: [Ruée\n")
    code, findings = report(game)
    assert code == 1
    assert any(f["file"] == "locales/fr.yaml" and f["rule"].startswith("yaml") and abs(f["line"] - line) <= 2
               for f in findings)


def test_a_card_failing_the_schema_is_reported(game):
    """By any family of the compiled cards: their files' own errors come with them."""
    line = mistake(game, "cards/red.yaml", *SCHEMA_BREAK)
    assert ("cards/red.yaml", line, "schema") in {(f.position.file, f.position.line, f.rule)
                                                  for f in game.family("cards")}


@pytest.mark.parametrize("rel", ["cards/factions.yaml", "templates/books/strings.yaml"])
def test_a_translated_file_that_does_not_parse(game, rel):
    game.replace(rel, "a: [unclosed\n")
    code, findings = report(game)
    assert code == 1 and any(f["file"] == rel for f in findings)


def test_a_label_table_missing(game):
    text = game.text("templates/books/strings.yaml")
    game.replace("templates/books/strings.yaml", text[:text.index("\nfr:")] + "\n")
    assert any(f.position.file == "templates/books/strings.yaml" and f.rule == "parity-key" and "`fr:`" in f.message
               for f in game.family("presence"))


def test_a_french_wording_without_an_english_one(game):
    line = mistake(game, "cards/red.yaml", "    effects:\n      - wound: 3\n",
                   "    effects:\n      - wound: 3\n        text: {fr: \"**Blessures** 4\"}\n") + 2
    assert {("cards/red.yaml", line, "parity-language"), ("cards/red.yaml", line, "schema")} <= \
        {(f.position.file, f.position.line, f.rule) for f in game.family("presence", "cards")}
