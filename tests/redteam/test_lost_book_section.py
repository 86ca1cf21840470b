"""Red team (issue 24 §2): a pull request whose cards make the worked example stop replaying used to pass the
gate, the rulebook printed without its setup diagram and example of play. Now the book fails the gate at the
record, and `forge sync` plays the example again; it never writes through a link out of the project."""
from __future__ import annotations

import json
import os

import pytest



from ._prose import compose_book, game


def _rename_a_card_the_example_plays(root):
    path = root / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: ash-runner", "id: ember-fox"), encoding="utf-8")


@pytest.mark.slow  # composes the rulebook twice (4 s alone, 9 s on a loaded machine)
def test_a_rulebook_that_would_lose_its_example_fails_at_the_record(tmp_path, cli):
    root = game(tmp_path / "game")
    _rename_a_card_the_example_plays(root)
    result = compose_book(root, "rulebook", "en")
    lost = [f for f in result.findings if f.position.file == "templates/books/example.jsonl"]
    assert lost and all(f.severity == "error" for f in lost) and not result.ok
    rendered = cli(["render", "rulebook", "--root", str(root), "--lang", "en", "--format", "json"])
    assert rendered.exit_code == 1


def test_the_example_is_never_played_again_through_a_link_out_of_the_project(tmp_path, cli):
    from forge.core import safeio
    from forge.books import example
    from forge.carddb.database import load_database

    root = game(tmp_path / "game")
    _rename_a_card_the_example_plays(root)
    outside = tmp_path / "elsewhere"
    (root / "templates" / "books").rename(outside)
    os.symlink(outside, root / "templates" / "books")
    before = (outside / "example.jsonl").read_bytes()
    try:
        example.refresh(root, load_database(root).db)
    except safeio.UnsafeInput as exc:
        assert exc.rule == "outside-project"
    else:
        raise AssertionError("written through the link")
    assert (outside / "example.jsonl").read_bytes() == before
    result = cli(["sync", "--root", str(root), "--format", "json"])
    assert result.exit_code in (1, 2)
    if result.exit_code == 1:
        assert "templates/books/example.jsonl" not in {c["path"] for c in json.loads(result.stdout)["changed"]}
    assert (outside / "example.jsonl").read_bytes() == before
