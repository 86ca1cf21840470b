"""A locale phrase is validated when the locale is loaded: `{name}` and `{name|singular|plural}` only.

Before, `{n:>900000000}`, `{n.__class__}`, `{x!r}`, `{0}` or `{a[0]}` in locales/<lang>.yaml passed
`forge validate` and `forge parity` without a word (the game log, the play page and the web pages
printed them as written; forge's own str.format would have padded or reached into the value), and an
unknown placeholder in a frame surfaced only at use, once per card that used it. Now each is one
`[placeholder]` finding at its locale line, whatever table it is in.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest


#: (table key as written in locales/en.yaml, the phrase, an attack on it, what the finding says).
ATTACKS = [
    ('  threshold: "{n} {faction}: {effect}"', '{n} {faction}: {effect}', "{n:>900000000} {faction}: {effect}",
     "format spec"),
    ('  may: "You may: {effect}"', "You may: {effect}", "You may: {effect.__class__.__mro__}", "attribute"),
    ('  wound: "**Wound** {n}"', "**Wound** {n}", "**Wound** {n!r}", "conversion"),
    ('  aegis: "**Aegis** {n}"', "**Aegis** {n}", "**Aegis** {0}", "positional"),
    ('  turn: "— Turn {turn}: {player} —"', "— Turn {turn}: {player} —", "— Turn {turn:>900000000}: {player} —",
     "format spec"),
    ('  player: "Player {n}"', "Player {n}", "Player {n[0]}", "index"),
    ('  "opt:buy": "Buy {card} ({n} essence)"', "Buy {card} ({n} essence)", "Buy {card} ({} essence)", "positional"),
    ('  shown: "{n} of {total} cards"', "{n} of {total} cards", "{n} of {total:,} cards", "format spec"),
    ('  trigger: "Each time {event}: {effect}"', "Each time {event}: {effect}", "Each time {event}: {effect", "never closed"),
    ('  rush: "**Rush**"', "**Rush**", "**Rush** {n}", "unknown placeholder {n}"),
    ('  destroy: Destroy', "Destroy", "Destroy {secret}", "unknown placeholder {secret}"),
]


def attack(root: Path, key: str, old: str, new: str) -> int:
    """Rewrite the first phrase written as ``key`` in locales/en.yaml; the line it is on."""
    path = root / "locales" / "en.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index(key)
    line = key.replace(old, new, 1) if old in key else key.replace(old.strip('"'), new, 1)
    assert line != key
    path.write_text(text[:at] + line + text[at + len(key):], encoding="utf-8")
    return text.count("\n", 0, at) + 1


@pytest.mark.parametrize("key, old, new, says", ATTACKS, ids=[a[3] + ":" + a[0].split(":")[0].strip() for a in ATTACKS])
def test_validate_reports_the_phrase_at_its_line(shipped: Path, key, old, new, says, cli):
    line = attack(shipped, key, old, new)
    result = cli(["validate", "--root", str(shipped), "--quick"])
    assert result.exit_code == 1, result.output
    found = re.findall(r"^locales/en\.yaml:(\d+):(\d+): \[placeholder\] (.*)$", result.output, re.M)
    assert [int(n) for n, _, _ in found] == [line], result.output
    assert says in found[0][2], result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert "[locale]" not in result.output  # one finding at the phrase, not one per card that prints it


def test_parity_reports_it_too(shipped: Path, cli):
    line = attack(shipped, '  turn: "— Turn {turn}: {player} —"', "— Turn {turn}: {player} —",
                  "— Turn {turn:>900000000}: {player} —")
    result = cli(["parity", "--root", str(shipped), "--format", "json"])
    import json

    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "placeholder"]
    assert [(f["file"], f["line"]) for f in found] == [("locales/en.yaml", line)], found
    assert result.exit_code == 1


def test_the_log_prints_a_refused_placeholder_as_written_never_formatted(shipped: Path):
    from forge.text.narrate import phrase

    assert phrase("— Turn {turn:>900000000}: {player} —", "en", turn=3, player="Ann") == \
        "— Turn {turn:>900000000}: Ann —"
    assert phrase("{player.__class__} {0} {n!r}", "en", player="Ann", n=1) == "{player.__class__} {0} {n!r}"


def test_the_shipped_locales_pass(shipped: Path):
    from forge.text.cardtext import load_phrasebooks

    assert all(not book.problems for book in load_phrasebooks(shipped).values())


def test_a_phrase_of_stray_braces_is_a_few_findings_not_thousands(shipped: Path):
    from forge.text.cardtext import load_phrasebooks

    attack(shipped, '  rush: "**Rush**"', "**Rush**", "**Rush** " + "}{" * 100_000)
    problems = load_phrasebooks(shipped)["en"].problems
    assert 1 <= len(problems) <= 3 and all(p.reason.startswith("`frames.rush`") for p in problems)
