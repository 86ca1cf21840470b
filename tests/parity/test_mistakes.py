"""Each realistic translator mistake, made once in a copy of the game game, is found at the line to edit.

Issue 11, section 1: every test edits one French (or English) string the way a translator
might get it wrong, then asserts the finding's file, line and rule, and that parity fails.
"""
from __future__ import annotations

import pytest

from .memory import FAMILIES, Game


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
    """(file, line) of each finding of ``rule``: from its family on the inventory in memory when the
    inventory alone decides it, else from parity end to end (which must fail)."""
    if rule in FAMILIES:
        return game.found(rule)
    code, findings = report(game)
    assert code == 1, findings
    return {(f["file"], f["line"]) for f in findings if f["rule"] == rule}


def test_the_shipped_game_is_clean(game):
    code, findings = report(game)
    assert (code, findings) == (0, [])


# -- numbers ---------------------------------------------------------------------------------------
def test_a_number_changed_in_a_phrase_template(game):
    line = mistake(game, "locales/fr.yaml", "est réduit de 1.", "est réduit de 2.")
    assert found(game, "parity-number") >= {("locales/fr.yaml", line)}


def test_a_spelled_out_number_changed_in_book_prose(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "Chaque tour comporte trois phases",
                   "Chaque tour comporte quatre phases")
    assert found(game, "parity-number") == {("templates/books/rulebook.fr.md", line)}


def test_les_deux_premiers_is_a_count_not_both(game):
    """« les deux » is "both" (no number), but « les deux premiers tours » is "the first two turns"."""
    line = mistake(game, "cards/factions.yaml", "dès le premier tour, tandis que",
                   "dès les deux premiers tours, tandis que")
    assert found(game, "parity-number") == {("cards/factions.yaml", line)}


def test_a_digit_for_a_spelled_out_number_is_the_same_number(game):
    mistake(game, "templates/books/rulebook.fr.md", "Chaque tour comporte trois phases",
            "Chaque tour comporte 3 phases")
    assert report(game) == (0, [])


def test_a_number_changed_in_a_flavour(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Déjà loin. Déjà en flammes."',
                   'fr: "Déjà loin. Déjà deux fois en flammes."')
    assert found(game, "parity-number") == {("cards/red.yaml", line)}


# -- what is copied, never translated --------------------------------------------------------------
def test_a_placeholder_dropped(game):
    line = mistake(game, "locales/fr.yaml", 'do: "Piochez {n} {n|carte|cartes}."', 'do: "Piochez une carte."')
    assert ("locales/fr.yaml", line) in found(game, "parity-placeholder")


def test_a_directive_argument_changed(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "commence avec {count:health health}",
                   "commence avec {count:hand health}")
    assert found(game, "parity-directive") == {("templates/books/rulebook.fr.md", line)}


def test_a_directive_name_changed(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "commence avec {count:health health}",
                   "commence avec {plural:health health}")
    assert found(game, "parity-directive") == {("templates/books/rulebook.fr.md", line)}


def test_a_card_reference_changed(game):
    line = mistake(game, "templates/books/reference.fr.md", "Imprimé sur le piège {card:divine-shield}",
                   "Imprimé sur le piège {card:divine-shell}")
    assert found(game, "parity-card-ref") == {("templates/books/reference.fr.md", line)}


def test_bold_dropped(game):
    line = mistake(game, "locales/fr.yaml", 'poison: "**Poison** {n}"', 'poison: "Poison {n}"')
    assert ("locales/fr.yaml", line) in found(game, "parity-markup")


def test_an_icon_dropped_in_prose(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "- [[demise]] {kw:demise} (pierre tombale)",
                   "- {kw:demise} (pierre tombale)")
    assert found(game, "parity-markup") == {("templates/books/rulebook.fr.md", line)}


def test_a_block_key_translated(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "\n::: tip\n", "\n::: astuce\n") + 1
    assert ("templates/books/rulebook.fr.md", line) in found(game, "parity-structure")


# -- English left in the French, and the reverse ------------------------------------------------------
def test_a_name_left_in_english(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"', 'fr: "Ash Runner"')
    assert found(game, "untranslated") == {("cards/red.yaml", line)}


def test_half_a_flavour_left_in_english(game):
    # "Already burning" has no function word: the word lists (frequent in English, rare in French) find it
    line = mistake(game, "cards/red.yaml", 'fr: "Déjà loin. Déjà en flammes."', 'fr: "Déjà loin. Already burning."')
    line2 = mistake(game, "cards/red.yaml", 'fr: "Le claquement, c’est la dernière chose qu’on entend."',
                    'fr: "The crack is the last thing they hear."')
    assert found(game, "untranslated") == {("cards/red.yaml", line), ("cards/red.yaml", line2)}


def test_a_french_name_left_in_english_words(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Étincelle"', 'fr: "Already Burning"')
    assert found(game, "untranslated") == {("cards/red.yaml", line)}


def test_french_left_in_an_english_flavour(game):
    line = mistake(game, "cards/red.yaml", 'en: "Already gone. Already burning."', 'en: "Already gone. Déjà en flammes."')
    assert found(game, "untranslated") == {("cards/red.yaml", line)}


def test_names_and_loanwords_in_french_are_not_english_left(game):
    """No false alarm: a capitalised name inside a sentence, and words French shares (deck, page), are French."""
    mistake(game, "cards/red.yaml", 'fr: "Déjà loin. Déjà en flammes."',
            'fr: "Déjà loin. Le Burning Man a vu brûler tout le deck."')
    code, findings = report(game)
    assert [f for f in findings if f["rule"] == "untranslated"] == []


def test_english_left_in_a_phrase_template(game):
    line = mistake(game, "locales/fr.yaml", "protect_creatures: \"Jusqu’à la fin du tour, vos créatures ne peuvent "
                   "pas être détruites.\"", "protect_creatures: \"Until the end of the turn, vos créatures ne peuvent "
                   "pas être détruites.\"")
    assert ("locales/fr.yaml", line) in found(game, "untranslated")


def test_french_left_in_the_english_prose(game):
    line = mistake(game, "templates/books/rulebook.en.md", "Each turn has three phases, always in this order",
                   "Chaque tour comporte trois phases, toujours dans cet ordre")
    assert ("templates/books/rulebook.en.md", line) in found(game, "untranslated")


def test_an_identical_string_listed_in_the_termbase_is_fine(game):
    mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"', 'fr: "Ash Runner"')
    mistake(game, "locales/termbase.yaml", "  - Verdict\n", "  - Verdict\n  - Ash Runner\n")
    assert report(game) == (0, [])


# -- terminology ----------------------------------------------------------------------------------------
def test_a_keyword_label_not_as_the_termbase_says(game):
    line = mistake(game, "locales/fr.yaml", "  rush: Ruée\n", "  rush: Charge\n")
    assert ("locales/fr.yaml", line) in found(game, "terminology")


def test_a_core_term_translated_another_way(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "va sur la pile d'exil commune",
                   "va sur la pile de bannissement commune")
    assert found(game, "terminology") == {("templates/books/rulebook.fr.md", line)}


def test_a_forbidden_variant_in_a_flavour(game):
    """Flavour is fiction, but never another game's word: « cimetière » is not la défausse."""
    line = mistake(game, "cards/black.yaml", 'fr: "Trois gouttes. Puis de la patience."',
                   'fr: "Trois gouttes. Puis le cimetière."')
    assert found(game, "terminology") == {("cards/black.yaml", line)}


def test_a_forbidden_variant_in_a_card_name(game):
    line = mistake(game, "cards/blue.yaml", 'fr: "Arpenteur de la Faille"', 'fr: "Arpenteur du Marché"')
    assert ("cards/blue.yaml", line) in found(game, "terminology")


def test_a_forbidden_variant_in_a_book_heading(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "## Essence d'âme\n", "## Le mana\n")
    assert ("templates/books/rulebook.fr.md", line) in found(game, "terminology")


def test_a_forbidden_english_variant(game):
    line = mistake(game, "cards/black.yaml", 'en: "Three drops. Then patience."', 'en: "Three drops. Then the graveyard."')
    assert found(game, "terminology") == {("cards/black.yaml", line)}


def test_a_card_name_that_drops_its_keyword(game):
    """Names translate the game's terms as the rules do: a Soul is an « Âme » in a name too."""
    line = mistake(game, "cards/starter.yaml", 'fr: "Âme Perdue"', 'fr: "Esprit Perdu"')
    assert found(game, "terminology") == {("cards/starter.yaml", line)}


def test_a_heading_that_drops_its_term(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "## Allégeance\n", "## Loyauté\n")
    assert found(game, "terminology") == {("templates/books/rulebook.fr.md", line)}


def test_a_loose_term_may_be_implied_in_a_heading_only(game):
    """"Card art credits" → « Crédits des illustrations » is right because `card` is loose; without it, a finding."""
    line = mistake(game, "locales/termbase.yaml", "fr_forms: [carte, cartes, Carte, Cartes], loose: true}",
                   "fr_forms: [carte, cartes, Carte, Cartes]}")
    assert line
    code, findings = report(game)
    assert [(f["file"], f["rule"]) for f in findings] == [("templates/books/reference.fr.md", "terminology")]


def test_a_forbidden_variant_that_is_also_an_allowed_form_is_a_termbase_error(game):
    line = mistake(game, "locales/termbase.yaml", "fr_forbidden: [commandeur, commandeurs]}",
                   "fr_forbidden: [commandeur, commandeurs, pioche]}")
    assert ("locales/termbase.yaml", line - 1) in found(game, "termbase")


def test_one_french_term_for_two_english_ones(game):
    line = mistake(game, "locales/termbase.yaml", "en: Rush, fr: Ruée,", "en: Rush, fr: Garde,")
    assert ("locales/termbase.yaml", line) in found(game, "terminology")


def test_two_cards_with_one_french_name(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"', 'fr: "Étincelle"')
    assert found(game, "duplicate-name") == {("cards/red.yaml", line)}


def test_a_keyword_in_bold_written_in_lower_case(game):
    """« **poison** » in a phrase: the keywords table writes Poison (and the termbase lists it as identical)."""
    line = mistake(game, "locales/fr.yaml", 'poison: "**Poison** {n}"', 'poison: "**poison** {n}"')
    assert found(game, "terminology") == {("locales/fr.yaml", line)}


# -- plurals --------------------------------------------------------------------------------------------
def test_plural_forms_in_the_wrong_slots(game):
    line = mistake(game, "locales/fr.yaml", 'do: "Piochez {n} {n|carte|cartes}."',
                   'do: "Piochez {n} {n|cartes|carte}."')
    assert found(game, "plural") == {("locales/fr.yaml", line)}


def test_a_plural_slot_left_singular(game):
    line = mistake(game, "locales/fr.yaml", 'do: "Piochez {n} {n|carte|cartes}."',
                   'do: "Piochez {n} {n|carte|carte}."')
    assert found(game, "plural") == {("locales/fr.yaml", line)}


def test_a_plural_slot_left_in_english_is_read_as_words(game):
    """The words of ``{n|card|cards}`` are printed: English left in them is found like any other."""
    line = mistake(game, "locales/fr.yaml", 'do: "Piochez {n} {n|carte|cartes}."', 'do: "Piochez {n} {n|card|cards}."')
    assert ("locales/fr.yaml", line) in found(game, "untranslated-word")


def test_a_term_inside_a_plural_slot_satisfies_the_termbase(game):
    """« {n|essence|essences} d’âme » is the termbase's essence d’âme, read at one and at many."""
    assert report(game) == (0, [])  # the game log: "{player} gains {n} soul essence."
    line = mistake(game, "locales/fr.yaml", "gagne {n} {n|essence|essences} d’âme.", "gagne {n} {n|mana|manas}.")
    assert ("locales/fr.yaml", line) in found(game, "terminology")


# -- whitespace, punctuation, typography --------------------------------------------------------------
def test_a_trailing_space_is_found_and_fixed(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"', 'fr: "Coureur des Cendres "')
    assert found(game, "whitespace") == {("cards/red.yaml", line)}
    assert report(game, "--fix") == (0, [])
    assert 'fr: "Coureur des Cendres"' in (game.written() / "cards/red.yaml").read_text(encoding="utf-8")


def test_a_trailing_no_break_space_is_found_and_fixed(game):
    line = mistake(game, "locales/fr.yaml", '  row: "Zone de recrutement"', '  row: "Zone de recrutement\u00a0"')
    assert found(game, "whitespace") == {("locales/fr.yaml", line)}
    assert report(game, "--fix") == (0, [])


def test_a_space_before_a_full_stop_is_found_and_fixed(game):
    line = mistake(game, "locales/fr.yaml", 'win: "{player} gagne."', 'win: "{player} gagne ."')
    assert found(game, "typography") == {("locales/fr.yaml", line)}
    assert report(game, "--fix") == (0, [])
    assert 'win: "{player} gagne."' in (game.written() / "locales/fr.yaml").read_text(encoding="utf-8")


def test_a_space_before_a_comma_in_prose(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "dans l'ordre de votre choix, sauf",
                   "dans l'ordre de votre choix , sauf")
    assert found(game, "typography") == {("templates/books/rulebook.fr.md", line)}


def test_a_tab_inside_a_string_is_found_and_fixed(game):
    line = mistake(game, "locales/fr.yaml", '  row: "Zone de recrutement"', '  row: "Zone de\trecrutement"')
    assert ("locales/fr.yaml", line) in found(game, "whitespace")
    assert report(game, "--fix") == (0, [])


def test_a_quotation_left_open_in_a_flavour(game):
    line = mistake(game, "cards/red.yaml", 'Maintenant, brûle.\u00a0»"', 'Maintenant, brûle."')
    assert found(game, "typography") == {("cards/red.yaml", line)}


def test_a_quotation_closed_twice_in_prose(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "- « Vous pouvez », « jusqu'à X »",
                   "- « Vous pouvez », jusqu'à X »")
    assert found(game, "typography") == {("templates/books/rulebook.fr.md", line)}


def test_a_double_space_in_prose(game):
    line = mistake(game, "templates/books/rulebook.fr.md", "Chaque tour comporte trois", "Chaque tour  comporte trois")
    assert found(game, "whitespace") == {("templates/books/rulebook.fr.md", line)}


def test_a_different_sentence_end(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Déjà loin. Déjà en flammes."', 'fr: "Déjà loin. Déjà en flammes !"')
    assert found(game, "punctuation") == {("cards/red.yaml", line)}


def test_a_frame_may_join_its_effect_with_another_mark(game):
    """« Immédiatement, {effect} » for "Immediately: {effect}": the mark before a frame's trailing
    placeholder joins it to the effect (French wants one colon a line), it ends no sentence; a frame
    whose end differs before its own text still does."""
    assert report(game)[0] == 0  # the game French frames use commas where the English has colons
    line = mistake(game, "locales/fr.yaml", '"Immédiatement, {effect}"', '"Immédiatement, {effect} !"')
    assert found(game, "punctuation") == {("locales/fr.yaml", line)}


def test_french_typography_in_factions_is_fixed_in_place(game):
    before = game.text("cards/factions.yaml")
    line = mistake(game, "cards/factions.yaml", "élan\u00a0: il doit", "élan: il doit")
    mistake(game, "cards/factions.yaml", "L’Ost des Braises gagne", "L'Ost des Braises gagne")
    assert found(game, "typography") == {("cards/factions.yaml", line)}
    code, left = report(game, "--fix")
    assert (code, left) == (0, [])
    assert (game.written() / "cards/factions.yaml").read_text(encoding="utf-8") == before  # comments, quoting and layout kept, byte for byte


def test_fix_leaves_what_it_cannot_fix(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Déjà loin. Déjà en flammes."', 'fr: "Déjà \\"loin\\". Déjà en flammes."')
    code, left = report(game, "--fix")
    assert code == 1 and {(f["file"], f["line"], f["rule"]) for f in left} == {("cards/red.yaml", line, "typography")}


# -- structure of the books -----------------------------------------------------------------------------
def test_a_list_item_dropped(game):
    line = mistake(game, "templates/books/rulebook.fr.md",
                   "6. Choisissez le premier joueur au hasard, ou, pour une revanche, le perdant de la partie précédente.\n",
                   "")
    # reported at the item after which the missing one goes
    assert ("templates/books/rulebook.fr.md", line - 1) in found(game, "parity-structure")


def test_two_paragraphs_merged(game):
    text = game.text("templates/books/rulebook.fr.md")
    opening = "{spell:factions capital} {plural:factions faction} s'affrontent"
    assert opening + " :\n\n{block:factions}" in text
    line = mistake(game, "templates/books/rulebook.fr.md", "partie.\n\n" + opening, "partie. " + opening)
    assert ("templates/books/rulebook.fr.md", line) in found(game, "parity-structure")


# -- length ----------------------------------------------------------------------------------------------
def test_a_name_that_does_not_fit_in_french(game):
    line = mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"',
                   'fr: "Coureur Infatigable des Cendres Rougeoyantes du Grand Brasier Éternel"')
    assert found(game, "length") == {("cards/red.yaml", line)}


def test_a_card_type_too_long_for_the_type_bar(game):
    """Found at the locale word, not at each card whose type line it makes too long (issue 11: limits)."""
    line = mistake(game, "locales/fr.yaml", "creature: Créature,",
                   "creature: Créature Invocable des Profondeurs Abyssales du Néant,")
    assert found(game, "length") == {("locales/fr.yaml", line)}


def test_a_faction_name_that_leaves_its_type_lines_no_room(game):
    line = mistake(game, "locales/fr.yaml", "red: Rouge,", "red: Rouge Flamboyant des Cendres Éternelles du Volcan,")
    assert found(game, "length") == {("locales/fr.yaml", line)}


def test_a_keyword_longer_than_a_line_of_rules_text(game):
    line = mistake(game, "locales/fr.yaml", "  rush: Ruée\n",
                   "  rush: Ruée Foudroyante et Irrésistible des Légions Ardentes du Brasier\n")
    assert ("locales/fr.yaml", line) in found(game, "length")


def test_a_book_heading_longer_than_its_line(game):
    line = mistake(game, "templates/books/reference.fr.md", "## Pièges\n",
                   "## Pièges, embuscades, traquenards et autres surprises\n")
    assert found(game, "length") == {("templates/books/reference.fr.md", line)}


def test_an_english_heading_longer_than_its_line_is_found_in_english(game):
    line = mistake(game, "templates/books/reference.en.md", "## Traps\n",
                   "## Traps, ambushes, snares and other battlefield surprises\n")
    assert ("templates/books/reference.en.md", line) in found(game, "length")


# -- nothing silently left out ------------------------------------------------------------------------------
def test_a_locale_that_does_not_parse(game):
    line = mistake(game, "locales/fr.yaml", "  rush: Ruée\n", "  rush: [Ruée\n")
    code, findings = report(game)
    assert code == 1
    assert any(f["file"] == "locales/fr.yaml" and f["rule"].startswith("yaml") and abs(f["line"] - line) <= 2
               for f in findings)


def test_a_card_failing_the_schema_is_reported(game):
    line = mistake(game, "cards/red.yaml", "    cost: 2\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"",
                   "    cost: two\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"")
    code, findings = report(game)
    assert code == 1
    assert any(f["file"] == "cards/red.yaml" and f["line"] == line for f in findings)


def test_a_card_failing_the_schema_still_has_its_strings_compared(game):
    mistake(game, "cards/red.yaml", "    cost: 2\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"",
            "    cost: two\n    allegiance: {red: 1}\n    copies: 3\n    name: {en: \"Ash Runner\"")
    line = mistake(game, "cards/red.yaml", 'fr: "Coureur des Cendres"', 'fr: "Ash Runner"')
    assert ("cards/red.yaml", line) in found(game, "untranslated")


@pytest.mark.parametrize("rel", ["cards/factions.yaml", "templates/books/strings.yaml"])
def test_a_translated_file_that_does_not_parse(game, rel):
    game.replace(rel, "a: [unclosed\n")
    code, findings = report(game)
    assert code == 1 and any(f["file"] == rel for f in findings)


def test_a_label_table_missing(game):
    text = game.text("templates/books/strings.yaml")
    game.replace("templates/books/strings.yaml", text[:text.index("\nfr:")] + "\n")
    code, findings = report(game)
    assert code == 1
    assert any(f["file"] == "templates/books/strings.yaml" and f["rule"] == "parity-key" and "`fr:`" in f["message"]
               for f in findings)


def test_a_french_wording_without_an_english_one(game):
    line = mistake(game, "cards/red.yaml", "    effects:\n      - wound: 3\n",
                   "    effects:\n      - wound: 3\n        text: {fr: \"**Blessures** 4\"}\n") + 2
    code, findings = report(game)
    assert code == 1
    assert {("cards/red.yaml", line, "parity-language"), ("cards/red.yaml", line, "schema")} <= \
        {(f["file"], f["line"], f["rule"]) for f in findings}
