"""The watch loop: poll the project, rebuild the state on a save, draw the queued images in between."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from .snapshot import changed, snapshot
from .state import PreviewState

POLL = 0.2  # seconds between looks when nothing is being drawn
SETTLE = 0.05  # an editor saves in several writes: wait this long for the last


def watch(root: Path, state: PreviewState, stop: threading.Event,
          on_change: Callable[[list[str], PreviewState], None] | None = None) -> None:
    """Run until ``stop`` is set; ``on_change(files, state)`` after each rebuild."""
    before = snapshot(root)
    state.rebuild()
    while not stop.is_set():
        if state.pending():
            state.render_next()
        else:
            stop.wait(POLL)
        now = snapshot(root)
        touched = changed(before, now)
        if not touched:
            continue
        stop.wait(SETTLE)
        before = snapshot(root)
        touched = sorted(set(touched) | set(changed(now, before)))
        state.rebuild()
        if on_change:
            on_change(touched, state)
