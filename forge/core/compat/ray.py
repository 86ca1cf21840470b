"""Ray's internals forge uses: the switch that keeps a local cluster on this machine.

Tested with Ray 2.60 (constraints.txt; the ``ray`` extra allows >=2.9,<3). Ray reads its
environment switches once, when ``ray._private.ray_constants`` is
imported; ``ENABLE_RAY_CLUSTER`` is its reading of the multi-machine one. A process that imported
Ray before ``forge simulate --backend ray`` started its local cluster has read it already, so
forge sets that reading for the start and puts it back (``forge.sim.cluster``).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from . import MissingInternal

TESTED = "2.60"
NAME = "_private.ray_constants.ENABLE_RAY_CLUSTER"


def _constants():
    try:
        from ray._private import ray_constants  # lazy: Ray is an optional extra, imported when used
    except ImportError:
        raise MissingInternal("ray", NAME, TESTED) from None
    if not hasattr(ray_constants, "ENABLE_RAY_CLUSTER"):
        raise MissingInternal("ray", NAME, TESTED)
    return ray_constants


@contextmanager
def single_machine_reading() -> Iterator[None]:
    """Within the block, this process's Ray reads the multi-machine switch as off; then as it was."""
    constants = _constants()
    was = constants.ENABLE_RAY_CLUSTER
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = was


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    _constants()
