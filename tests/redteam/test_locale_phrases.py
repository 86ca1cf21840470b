"""A locale phrase is filled by forge's own placeholder grammar, never by str.format.

`{secret}` or `{__class__}` in a phrase is an unknown placeholder, and `{n.__class__.__mro__}`, `{0}`
or `{n!r}` no placeholder at all: each is a finding from validate when the locale is loaded (see
test_phrase_placeholders), and `forge render cards` refuses to print. Before, the renderer stopped
with "internal error: PhraseError".
"""
from __future__ import annotations

from pathlib import Path

import pytest


#: Placeholders of forge's grammar that no phrase defines: findings.
UNKNOWN = ["{secret}", "{__class__}"]
#: str.format's position, attribute, conversion and width forms: not placeholders at all, findings when
#: loaded, and printed as written by whoever uses the phrase all the same.
NOT_PLACEHOLDERS = ["{0}", "{n.__class__.__mro__}", "{n!r}", "{n:>99999999}", "{effect.__init__.__globals__}"]


def with_threshold(root: Path, attack: str) -> None:
    path = root / "locales" / "en.yaml"
    text = path.read_text(encoding="utf-8")
    old = 'threshold: "{n} {faction}: {effect}"'
    assert old in text
    path.write_text(text.replace(old, f'threshold: "{attack} {{faction}}: {{effect}}"', 1), encoding="utf-8")


@pytest.mark.parametrize("attack", UNKNOWN)
def test_render_reports_a_format_string_attack_as_a_finding(shipped: Path, attack, cli):
    with_threshold(shipped, attack)
    result = cli(["render", "cards", "--root", str(shipped), "--lang", "en",
                  "--profile", "tts", "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output
    assert "[placeholder]" in result.output and "unknown placeholder" in result.output
    assert "<class" not in result.output and "__builtins__" not in result.output
    assert not (shipped / "output" / "tts").exists()


@pytest.mark.parametrize("attack", UNKNOWN)
def test_validate_reports_it(shipped: Path, attack, cli):
    with_threshold(shipped, attack)
    result = cli(["validate", "--root", str(shipped)])
    assert result.exit_code == 1, result.output
    assert "unknown placeholder" in result.output


@pytest.mark.parametrize("attack", NOT_PLACEHOLDERS)
def test_format_syntax_is_never_evaluated(shipped: Path, attack):
    from forge.carddb.database import load_database
    from forge.text.cardtext import load_phrasebooks

    with_threshold(shipped, attack)
    db = load_database(shipped).db
    book = load_phrasebooks(shipped)["en"]
    assert [p.reason.split(": ", 1)[0] for p in book.problems] == ["`frames.threshold`"]
    texts = [line for card in db.cards for line in book.card_text(card)]
    assert any(attack in t for t in texts)  # printed as written
    assert not any("<class" in t or "__builtins__" in t or " " * 1000 in t for t in texts)
