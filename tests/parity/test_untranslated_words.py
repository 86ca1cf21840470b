"""English left in the French found from word lists, not only function words (issue 11 §1), measured on the real text."""
from __future__ import annotations

from forge.i18n import inventory
from forge.text import termbase
from forge.i18n.checks import untranslated
from forge.i18n.inventory import Entry, Pair
from forge.text.sources import Doc


def test_the_word_lists_are_installed_and_keep_shared_words_out():
    english, french = untranslated.only_words("en"), untranslated.only_words("fr")
    assert len(english) > 5000 and len(french) > 5000
    assert {"already", "burning", "everything"} <= english and {"déjà", "flammes"} <= french
    # words both languages use are in neither list: no alarm for a loanword or a cognate
    assert not {"deck", "page", "commander", "sacrifice", "minute", "poison"} & (english | french)


def test_no_string_of_the_shipped_game_is_flagged(shipped):
    """Zero false alarms on the real French (and English): every pair, both directions."""
    inv = inventory.build(shipped)
    tb = termbase.load(inv.sources)
    flagged = [(p.id, lang) for p in inventory.build(shipped).pairs if p.en is not None and p.fr is not None
               for lang, other in (("fr", "en"), ("en", "fr")) if untranslated._frequent(p, lang, other, tb)]
    assert flagged == []
    checked = sum(1 for p in inv.pairs if p.en is not None and p.fr is not None)
    assert checked > 700


def pair(fr: str, kind: str = "card-flavor") -> Pair:
    doc = Doc("x.yaml", fr)
    return Pair("x", kind, "", Entry("en", "Some English.", doc, 1, 1, None), Entry("fr", fr, doc, 1, 1, 0))


def caught(fr: str, kind: str = "card-flavor") -> bool:
    return bool(untranslated._frequent(pair(fr, kind), "fr", "en", termbase.Termbase()))


def test_what_is_caught_and_what_is_not():
    assert caught("Déjà loin. Already burning.")
    assert caught("Burning")  # a one-word string
    assert caught("Already Burning", "card-name")  # titles: capitals do not mark names
    # not caught, on purpose: a single English word in a French sentence (a loan, a name, a pun: too
    # often right to be an error), and capitalised words inside a sentence (names: "IM FELL", "License")
    assert not caught("Les flammes montent, burning tout sur leur passage.")
    assert not caught("Police IM FELL English SC, sous licence SIL Open Font License.")
