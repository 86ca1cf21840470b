"""Fixtures of forge diff's tests."""
from __future__ import annotations

import pytest

from .test_diff import IMP, SPARK, WARD, git


@pytest.fixture
def repo(project):
    """Two commits: ember-imp and spark, then ember-imp changed, spark removed, ward added."""
    project("red.yaml", "cards:\n" + IMP.format(cost=2, wound=2) + SPARK)
    git(project.root, "init", "-q")
    git(project.root, "add", "cards", "locales")
    git(project.root, "commit", "-qm", "first")
    project("red.yaml", "cards:\n" + IMP.format(cost=3, wound=3) + WARD)
    git(project.root, "commit", "-qam", "second")
    return project.root
