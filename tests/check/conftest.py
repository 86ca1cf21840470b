"""Fixtures of the gate's tests."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..conftest import REPO


@pytest.fixture
def gated(shipped: Path) -> Path:
    """The shipped project with its design notes, as CI checks it."""
    shutil.copytree(REPO / "docs", shipped / "docs")
    return shipped
