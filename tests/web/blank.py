"""Blank card pictures for the tests of the web commands' wiring: drawing every printed face takes 7 s,
and the gallery's and the viewer's own tests (tests/web/conftest.py's pages) prove the real ones."""
from __future__ import annotations

import io


def blank_pictures(monkeypatch) -> None:
    """Make forge.web.pictures draw every card as one white WebP pixel."""
    from PIL import Image

    from forge.web import pictures

    buffer = io.BytesIO()
    Image.new("RGB", (1, 1), "white").save(buffer, "WEBP")
    pixel = buffer.getvalue()
    monkeypatch.setattr(pictures, "render_card", lambda *args, **kwargs: (pixel, None, None))
