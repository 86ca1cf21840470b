"""Shared fixtures: the repository root and throw-away game projects."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCHEMA_LINE = "# yaml-language-server: $schema=../schema/cards.schema.json\n"


@pytest.fixture
def project(tmp_path: Path):
    """A project folder with the real locales and the given card files; returns a writer."""
    shutil.copytree(REPO / "locales", tmp_path / "locales")
    (tmp_path / "cards").mkdir()

    def write(name: str, text: str | bytes, header: bool = True) -> Path:
        path = tmp_path / "cards" / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text((SCHEMA_LINE if header else "") + text, encoding="utf-8")
        return path

    write.root = tmp_path
    return write


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A copy of the shipped game project, safe to modify."""
    for part in ("cards", "locales", "schema", "templates"):
        shutil.copytree(REPO / part, tmp_path / part)
    return tmp_path
