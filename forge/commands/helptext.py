"""Tidier ``--help`` panels than Typer 0.29 draws: a flag shows no ``<bool>`` (it takes no value), and a
long list of choices breaks at its bars instead of inside a word (``<text|json|github|junit|sari`` / ``f>``
in an 80-column terminal)."""
from __future__ import annotations

#: Longest line of an option's type column.
WIDTH = 20


def fold(label: str | None, width: int = WIDTH) -> str | None:
    """``label`` split into lines of at most ``width`` characters after a ``|`` (a longer piece stays whole)."""
    if label is None or len(label) <= width or "|" not in label:
        return label
    lines, line = [], ""
    for piece in label.replace("|", "|\n").split("\n"):
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    return "\n".join([*lines, line])


def install() -> None:
    """Patch Typer's option type column; a Typer without it is left as it is."""
    try:
        from typer.core import TyperOption  # lazy: an optional extra, imported when used
    except ImportError:
        return
    original = getattr(TyperOption, "display_type_rich", None)
    if original is None or getattr(original, "_forge", False):
        return

    def display_type_rich(self, ctx):
        if self.is_flag:
            return None
        return fold(original(self, ctx))

    display_type_rich._forge = True
    TyperOption.display_type_rich = display_type_rich
