"""Typer's coercion of forge's plain option values without importing pydantic (issue 9, Fast to start).

Typer 0.29 turns every option value (a path, an enum, an int) into its type through a pydantic
TypeAdapter, and importing pydantic was about a tenth of a first ``forge validate``. Forge's
options are plain: ``str``, ``bool``, ``int`` without bounds, ``Path`` and enums. For those, this module
gives each parameter a ``PlainRuntimeParam`` that converts a value the way Typer's adapter would,
through Typer's own pydantic-free helpers (``coerce_cli_choice``, ``coerce_cli_path``, reached through
``forge.core.compat.typer`` like every Typer internal); any other
value (a bad enum name, "1e3" for an int…), and any other kind of parameter, goes to Typer's
adapter, so every error message is Typer's own. ``tests/cli/test_plain_params.py`` compares the
two on every option of every command. A Typer without these internals is left as it is.
"""
from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Any

_DIGITS = re.compile(r"[0-9]+")
#: A value this module leaves to Typer's adapter.
UNSURE = object()


def plain_value(annotation: Any, info: Any, value: Any, param: Any = None, ctx: Any = None) -> Any:
    """``value`` as Typer's adapter coerces it for ``annotation``, or ``UNSURE`` (then the adapter decides)."""
    from ..core.compat.typer import coerce_cli_choice, coerce_cli_path  # lazy: loads forge.core only when needed

    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
        return UNSURE
    if annotation is str:
        return value if type(value) is str else UNSURE
    if annotation is bool:  # a flag's None (not given) never reaches here: ``RuntimeParam.coerce`` returns it
        return value if type(value) is bool else UNSURE
    if annotation is int:
        if info.min is not None or info.max is not None or info.clamp:
            return UNSURE
        if type(value) is int:
            return value
        return int(value) if type(value) is str and _DIGITS.fullmatch(value) else UNSURE
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        if isinstance(value, annotation):
            return value
        if type(value) is not str:
            return UNSURE
        try:
            return coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return UNSURE  # Typer's adapter says what is wrong, in its words
    if annotation is Path and info.path_type in (None, Path):
        if info.exists or not info.file_okay or not info.dir_okay:
            return UNSURE  # a path that must be (or not be) a folder: the adapter checks it, in its words
        if type(value) is str and value:
            value = Path(value)  # what the adapter's Path validation makes of a string
        if not isinstance(value, Path):
            return UNSURE
        return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
    return UNSURE


def _plain(annotation: Any) -> bool:
    """Whether a parameter of this annotation gets ``plain_value`` first."""
    return annotation in (str, int, bool, Path) or (isinstance(annotation, type) and issubclass(annotation, Enum))


def install() -> bool:
    """Give Typer's parameters plain coercion where it applies; False when this Typer's internals differ."""
    from ..core.compat import typer as typer_internals  # lazy: loads forge.core only when needed

    return typer_internals.coerce_plain(_plain, plain_value, UNSURE)
