"""`forge build` on a folder it cannot read as a project is exit 2 (I/O), like validate and check.

Before: `forge build --root /proc` (or any folder without `cards/`) said so and exited 1, the code
for findings in the cards, so CI could not tell "your cards are wrong" from "nothing was read".
"""
from __future__ import annotations

import json
from pathlib import Path


def test_build_without_a_cards_folder_is_an_io_error(tmp_path: Path, cli):
    result = cli(["build", "--root", str(tmp_path), "--games", "1", "--jobs", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == f"forge: error: cards: no `cards/` folder in {tmp_path}"


def test_build_json_names_the_io_error(tmp_path: Path, cli):
    result = cli(["build", "--root", str(tmp_path), "--format", "json"])
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is False and "no `cards/` folder" in report["error"]


def test_validate_agrees(tmp_path: Path, cli):
    assert cli(["validate", "--root", str(tmp_path)]).exit_code == 2
