"""Typography by language: French spacing and quotes, curly apostrophes, tags left alone."""
from __future__ import annotations

from forge.books.typography import NBSP, bind_last_words, glue_inline, typeset


def test_french_spaces_before_double_punctuation_and_inside_guillemets():
    out = typeset("<span>Tour adverse : quand ? « oui » et \"non\" ; fin!</span>", "fr")
    assert out == (f"<span>Tour adverse{NBSP}: quand{NBSP}? «{NBSP}oui{NBSP}» et «{NBSP}non{NBSP}»{NBSP}; fin{NBSP}!</span>")


def test_french_colon_after_a_tag_gets_its_space():
    out = typeset("<p><em>Créatures</em>: x</p>", "fr")
    assert out == f'<p><span class="nw"><em>Créatures</em>{NBSP}:</span> x</p>'


def test_english_curly_quotes_and_apostrophes_numbers_glued():
    assert typeset("<span>it's \"up to X\" 5 cards...</span>", "en") == f"<span>it’s “up to X” 5{NBSP}cards…</span>"


def test_tags_entities_and_styles_are_untouched():
    html = '<span class="a:b">A &amp; B</span><style>p { content: "a:b" }</style>'
    assert typeset(html, "fr") == html


def test_units_glued_to_inline_elements_do_not_wrap():
    out = glue_inline(f'<p>sur «{NBSP}<span class="kw">Destruction</span>{NBSP}» une</p>')
    assert out == f'<p>sur <span class="nw">«{NBSP}<span class="kw">Destruction</span>{NBSP}»</span> une</p>'
    assert glue_inline('<p>a <b>b</b> c</p>') == '<p>a <b>b</b> c</p>'


def test_escaped_apostrophes_and_quotes_are_typeset_too():
    assert typeset('<span title="l&#39;a">Porte de l&#39;Oubli, &quot;x&quot;</span>', "fr") == \
        f'<span title="l&#39;a">Porte de l’Oubli, «{NBSP}x{NBSP}»</span>'


def test_a_paragraph_s_last_two_words_never_part():
    """No one-word last line, and no last word hyphenated ("sum-/mon."): WeasyPrint has no hyphenate-limit-last."""
    assert typeset("<p>Pay the cost to summon.</p>", "en") == '<p>Pay the cost <span class="nw">to summon.</span></p>'
    assert typeset("<li>Read <b>Poison</b> 1.</li>", "en") == '<li>Read <span class="nw"><b>Poison</b> 1.</span></li>'
    # bound inside the element the text ends in; the last word alone when an element opens between the two
    assert bind_last_words("<p>a <em>b c d</em></p>") == '<p>a <em>b <span class="nw">c d</span></em></p>'
    assert bind_last_words("<p>a b <em>c</em>.</p>") == '<p>a <span class="nw">b <em>c</em>.</span></p>'
    # one word, a long tail, and text already bound are left alone; binding twice changes nothing
    assert bind_last_words("<p>Word.</p>") == "<p>Word.</p>"
    assert bind_last_words("<p>x anticonstitutionnellement anticonstitutionnel</p>") == \
        '<p>x anticonstitutionnellement <span class="nw">anticonstitutionnel</span></p>'
    once = typeset("<p>Garde : une créature prête.</p>", "fr")
    assert typeset(once, "fr") == once


def test_a_quoted_example_holding_an_icon_is_one_unit():
    icon = '<img class="icon" src="x.svg" alt="black"/>'
    out = typeset(f'<div>for example "5 {icon}: <b>Poison</b> 1" on a card</div>', "en")
    assert f'<span class="nw">“5 {icon}: <b>Poison</b> 1”</span> on' in out
    out = typeset(f'<div>par exemple "5 {icon} : <b>Poison</b> 1" sur une carte</div>', "fr")
    assert f'<span class="nw">«{NBSP}5 {icon}{NBSP}: <b>Poison</b> 1{NBSP}»</span> sur' in out.replace(
        f'<span class="nw">{icon}{NBSP}:</span>', f"{icon}{NBSP}:")
    assert typeset('<span>he said "a long quotation with no icon at all"</span>', "en").count("nw") == 0


def test_english_inside_french_keeps_english_punctuation():
    """A gloss marked lang="en" in the French reference is not given French spacing ("Opponent's turn : …")."""
    out = typeset('<div>Tour adverse : <span class="other" lang="en">Opponent\'s turn: when "x"</span> fin : oui</div>', "fr")
    assert '<span class="other" lang="en">Opponent’s turn: when “x”</span>' in out
    assert f"fin{NBSP}: oui" in out
    out = typeset('<div>Wound: <td lang="fr">Blessures : <b>x</b></td> end: ok</div>', "en")
    assert f"Blessures{NBSP}:" in out and "end: ok" in out


def test_a_card_button_keeps_its_punctuation():
    button = '<span class="card"><button type="button" class="card-ref">Lost Soul</button></span>'
    assert f'<span class="nw">{button},</span> and' in typeset(f"<div>a {button}, and so on</div>", "en")
    assert f'<span class="nw">{button}{NBSP}:</span> et' in typeset(f"<div>a {button} : et ainsi de suite</div>", "fr")
