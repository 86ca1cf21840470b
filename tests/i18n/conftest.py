"""The shipped game's translators' files, exported once a session (``Exports`` in tests/i18n/helpers.py)."""
from __future__ import annotations

import pytest

from .helpers import Exports


@pytest.fixture(scope="session")
def exports(tmp_path_factory) -> Exports:
    """READ-ONLY: a test copies an export out (``exports.to(fmt, path)``) before it changes it."""
    return Exports(tmp_path_factory.mktemp("exports"))
