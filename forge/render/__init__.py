"""Card rendering: faces and backs, print-and-play sheets, print-shop files, TTS decks, proofs.

Public API:

- ``render_cards(db, phrasebooks, root, RenderOptions(...), progress=None) -> RenderResult``
  (``forge.render.cards``): every profile, incremental, on several cores.
- ``check_text_fit(db, phrasebooks, root) -> list[Finding]`` (``forge.render.fitcheck``): cards whose
  name or rules text cannot fit at the minimum size, rule ``text-overflow``.
- ``build_face`` / ``draw_face`` / ``draw_back`` for one card on any reportlab canvas.
"""
from __future__ import annotations

__all__ = ["PROFILES", "RenderOptions", "RenderResult", "check_text_fit", "render_cards"]


def __getattr__(name: str):
    # Lazy: importing forge.render must not register fonts or load reportlab for the CLI's other commands.
    if name in ("render_cards", "RenderOptions", "RenderResult", "PROFILES"):
        from . import cards  # lazy: loads markupsafe, reportlab ... only when needed

        return getattr(cards, name)
    if name == "check_text_fit":
        from .fitcheck import check_text_fit  # lazy: loads markupsafe, reportlab ... only when needed

        return check_text_fit
    raise AttributeError(name)
