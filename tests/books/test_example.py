"""Issue 10 §2: the setup diagram, the worked example of play and the quick-reference back cover.

The example is a real game record replayed against the current cards and rules: these tests
replay it, read the composed books and the rendered PDFs back, and break the record on purpose.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from forge.books import example
from forge.books.compose import compose
from forge.database import load_database
from forge.engine.state import HAND_SIZE, WOUND_PROTECTION

from .conftest import REPO, copy_project, project_of

RECORD = REPO / "templates" / "books" / example.EXAMPLE_FILE


def _text(html: str) -> str:
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", text.replace("\u2019", "'").replace("\u202f", " ").replace("\xa0", " "))


def test_the_record_replays_and_its_shown_turns_show_everything():
    """The record is replayed by the engine (a decision the rules forbid would stop it), and the two
    turns the rulebook tells hold a purchase, an activation, a trap in the opponent's window, a Guard
    and a Rite taken."""
    db = load_database(REPO).db
    game = example.read(db, RECORD.read_text(encoding="utf-8"))
    assert len(game.turns) == 2 and game.turns[0].player != game.turns[1].player
    events = [e for t in game.turns for e, _ in t.events]
    assert example.shows_everything(events)
    assert len(game.row) == 8 and len(game.rites) == len(db.rites())


def test_the_record_is_the_game_the_engine_plays_from_its_seed(tmp_path):
    """Regenerating the record from its seed writes the same bytes: the example is the engine's game."""
    root = copy_project(tmp_path / "game")
    head = RECORD.read_text(encoding="utf-8").splitlines()[0]
    seed = int(re.search(r'"seed":(\d+)', head).group(1))
    factions = ",".join(re.search(r'"factions":\["(\w+)","(\w+)"\]', head).groups())
    last = int(re.search(r'"turn_cap":(\d+)', head).group(1))
    assert example.main(["--root", str(root), "--seed", str(seed), "--factions", factions, "--last-turn", str(last)]) == 0
    assert (root / "templates/books" / example.EXAMPLE_FILE).read_bytes() == RECORD.read_bytes()


def test_shows_everything_wants_a_trap_in_the_opponents_window():
    base = [{"e": "buy", "player": 0}, {"e": "activate", "player": 0}, {"e": "guard", "player": 1},
            {"e": "rite", "player": 0}]
    answered = [{"e": "summon", "player": 0}, {"e": "trap", "player": 1}]
    idle = [{"e": "trap", "player": 1}, {"e": "summon", "player": 0}]
    assert example.shows_everything(base + answered)
    assert not example.shows_everything(base + idle)
    assert not example.shows_everything(answered)


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_the_worked_example_tells_every_action_of_the_record(composed, lang):
    db = load_database(REPO).db
    game = example.read(db, RECORD.read_text(encoding="utf-8"))
    html = composed[("rulebook", lang)].html
    part = html[html.index('<div class="worked-example">'):]
    part = part[:part.index("</div>\n</section>\n</div>") if "</div>\n</section>\n</div>" in part else None]
    text = _text(part)
    names = {c.id: c.name[lang] for c in db.cards}
    for turn in game.turns:
        for event, _ in turn.events:
            if event["e"] in ("play", "summon", "activate", "buy", "trap", "guard", "destroy"):
                assert names[event["card"]].replace("\u2019", "'") in text
    words = {"en": ("In the opponent's window, right after this", "to guard", "takes", "buys"),
             "fr": ("dans la fenêtre de l'adversaire", "pour garder", "prend", "achète")}[lang]
    for word in words:
        assert word in text, word
    assert len(re.findall(r'class="play-turn"', part)) == 2
    assert len(re.findall(r'class="play-card"', part)) >= 8  # the cards that act, pictured


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_the_setup_diagram_draws_the_deal_with_the_setup_steps(composed, lang):
    html = composed[("rulebook", lang)].html
    figure = html[html.index('<figure class="setup-table">'):]
    figure = figure[:figure.index("</figure>")]
    db = load_database(REPO).db
    game = example.read(db, RECORD.read_text(encoding="utf-8"))
    # decks and hands as card backs, the 8 cards of the row and the Rites, all real card images
    assert len(re.findall(r'class="table-card"', figure)) == 2 + 3 + HAND_SIZE + 1 + 8 + len(game.rites)
    alts = re.findall(r'class="table-card" src="data:image/jpeg;base64,[^"]+" alt="([^"]*)"', figure)
    assert [a for a in alts if a][:8] == [db.by_id()[c].name[lang].replace("'", "&#39;") for c in game.row]
    assert sorted({int(n) for n in re.findall(r'class="callout"[^>]*>(\d)<', figure)}) == [1, 2, 3, 4, 5, 6, 7]


def test_a_record_that_no_longer_replays_is_a_finding_not_a_wrong_example(tmp_path):
    root = copy_project(tmp_path / "game")
    path = root / "templates/books" / example.EXAMPLE_FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[5] = lines[5].replace('"n":', '"n":9', 1) if '"n":' in lines[5] else lines[5].replace("}", ',"x":1}')
    path.write_text("".join(lines), encoding="utf-8")
    result = compose(project_of(root), "rulebook", "en")
    found = [f for f in result.findings if "does not replay" in f.message]
    assert len(found) == 1 and found[0].position.file == "templates/books/example.jsonl"
    assert found[0].severity == "warning" and result.ok  # the book stands, without an example it cannot prove
    assert 'class="worked-example"' not in result.html and 'class="setup-table"' not in result.html


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_the_back_cover_is_a_quick_reference_in_the_engines_order(rendered, lang):
    """The last page, read back from the PDF: the turn's phases in the engine's order, the six steps,
    what meets a Wound in the engine's order, and the engine's numbers."""
    from forge.engine.state import TURN_PHASES
    from forge.text import load_phrasebooks

    from .pages import page_texts

    book = load_phrasebooks(REPO)[lang]
    strings = project_of(REPO).strings[lang]["quick"]
    for kind in ("rulebook", "reference"):
        text = " ".join(page_texts(rendered, kind, lang)[-1].split()).replace("’", "'")
        order = [m.start() if (m := re.search(rf"\b{re.escape(book.keyword(k))}\b", text)) else -1
                 for k in WOUND_PROTECTION]
        assert -1 not in order and order == sorted(order), (kind, order)
        phases = [text.find(strings["phases"][p]["title"]) for p in TURN_PHASES]
        assert -1 not in phases and phases == sorted(phases), (kind, phases)
        steps = [" ".join(step.split(" (")[0].replace("\u2019", "'").split()) for step in strings["steps"]]
        assert [step for step in steps if step not in text] == []
        assert f"{HAND_SIZE} " in text
