"""`forge sync` (issue 26 §1): the README's card swap, then one command, and `forge check` passes."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ..conftest import invoke


REPO = Path(__file__).resolve().parents[2]


def game(tmp_path: Path) -> Path:
    for part in ("cards", "locales", "templates", "schema", "docs"):
        shutil.copytree(REPO / part, tmp_path / part)
    return tmp_path


def readme_swap(root: Path) -> None:
    """The README's "Writing a card": the `ash-runner` block of cards/red.yaml replaced by its `ember-fox` block."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## Writing a card"):].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = root / "cards" / "red.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: ash-runner")
    path.write_text(text[:start] + block + text[text.index("\n  - id:", start + 5) + 1:], encoding="utf-8")


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def sync(root: Path, *args: str):
    return invoke(["sync", "--root", str(root), *args])


def test_the_shipped_game_is_in_sync(tmp_path):
    root = game(tmp_path)
    result = sync(root, "--check")
    assert result.exit_code == 0, result.output
    assert "nothing changed" in result.output


@pytest.mark.slow
def test_the_readme_swap_then_sync_passes_check_and_a_second_sync_changes_nothing(tmp_path, cli):
    root = game(tmp_path)
    readme_swap(root)
    before = files(root)
    checked = sync(root, "--check", "--format", "json")
    assert checked.exit_code == 1 and files(root) == before  # --check changes nothing
    would = {c["path"] for c in json.loads(checked.stdout)["changed"]}
    result = sync(root, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    changed = {c["path"] for c in report["changed"]}
    assert changed == would == {"cards/red.yaml", "templates/books/example.jsonl", "locales/fr.fingerprints.yaml",
                                "docs/design.md"}
    assert changed == {k for k in files(root) if files(root)[k] != before.get(k)}
    assert report["recorded"] == ["cards/ember-fox/name", "cards/ember-fox/flavor"]
    assert "cards/ash-runner/name" in report["removed"] and report["flagged"]
    assert "Vif, puis\u00a0: des cendres." in (root / "cards/red.yaml").read_text(encoding="utf-8")
    after = files(root)
    again = sync(root)
    assert again.exit_code == 0 and "nothing changed" in again.output and files(root) == after
    assert sync(root, "--check").exit_code == 0
    gate = cli(["check", "--root", str(root), "--format", "json"])
    assert gate.exit_code == 0, gate.output
    findings = [f for c in json.loads(gate.stdout)["checks"] for f in c["findings"]]
    # the only warnings left: the example's French, flagged for a translator to read
    assert findings and all(f["severity"] == "warning" and f["rule"] == "stale-translation"
                            and f["file"] == "templates/books/rulebook.fr.md" for f in findings)


def test_cards_that_do_not_validate_stop_sync_before_any_write(tmp_path):
    root = game(tmp_path)
    path = root / "cards" / "red.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("cost: 2", "cost: -7", 1), encoding="utf-8")
    before = files(root)
    result = sync(root)
    assert result.exit_code == 1 and "sync stopped" in result.output
    assert files(root) == before


def test_sync_without_a_project_folder_is_a_usage_error(tmp_path):
    assert sync(tmp_path / "missing").exit_code == 2
