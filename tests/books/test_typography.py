"""Typography by language: French spacing and quotes, curly apostrophes, tags left alone."""
from __future__ import annotations

from forge.books.typography import NBSP, glue_inline, typeset


def test_french_spaces_before_double_punctuation_and_inside_guillemets():
    out = typeset("<p>Tour adverse : quand ? « oui » et \"non\" ; fin!</p>", "fr")
    assert out == (f"<p>Tour adverse{NBSP}: quand{NBSP}? «{NBSP}oui{NBSP}» et «{NBSP}non{NBSP}»{NBSP}; fin{NBSP}!</p>")


def test_french_colon_after_a_tag_gets_its_space():
    out = typeset("<p><em>Créatures</em>: x</p>", "fr")
    assert out == f'<p><span class="nw"><em>Créatures</em>{NBSP}:</span> x</p>'


def test_english_curly_quotes_and_apostrophes_numbers_glued():
    assert typeset("<p>it's \"up to X\" 5 cards...</p>", "en") == f"<p>it’s “up to X” 5{NBSP}cards…</p>"


def test_tags_entities_and_styles_are_untouched():
    html = '<p class="a:b">A &amp; B</p><style>p { content: "a:b" }</style>'
    assert typeset(html, "fr") == html


def test_units_glued_to_inline_elements_do_not_wrap():
    out = glue_inline(f'<p>sur «{NBSP}<span class="kw">Destruction</span>{NBSP}» une</p>')
    assert out == f'<p>sur <span class="nw">«{NBSP}<span class="kw">Destruction</span>{NBSP}»</span> une</p>'
    assert glue_inline('<p>a <b>b</b> c</p>') == '<p>a <b>b</b> c</p>'


def test_escaped_apostrophes_and_quotes_are_typeset_too():
    assert typeset('<p title="l&#39;a">Porte de l&#39;Oubli, &quot;x&quot;</p>', "fr") == \
        f'<p title="l&#39;a">Porte de l’Oubli, «{NBSP}x{NBSP}»</p>'
