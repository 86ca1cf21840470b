"""Typer's internals forge uses: the Click it vendors, and the coercion of option values.

Tested with Typer 0.29 (pyproject pins typer>=0.29,<0.30). Typer 0.29 vendors Click as
``typer._click``: its ``ClickException`` is what a usage error raises (``forge.cli`` words it
its own way). ``typer._param_types`` converts a choice or a path without pydantic, and
``typer.core._TyperParameter.get_runtime_param`` builds (``typer._coercion``) the object that
coerces a parameter's values: ``coerce_plain`` gives forge's plain options a converter of its
own there (``forge.commands.plainparams``). The imports are lazy, in the functions: these
modules are not needed before a command line is parsed, and each costs start-up time.
"""
from __future__ import annotations

from typing import Any, Callable
from dataclasses import dataclass
import importlib

from . import MissingInternal

TESTED = "0.29"


def click_exception() -> type[Exception]:
    """The ``ClickException`` class a Typer usage error is an instance of."""
    try:
        from typer._click.exceptions import ClickException  # lazy: an optional extra, imported when used
    except ImportError:
        raise MissingInternal("typer", "_click.exceptions.ClickException", TESTED) from None
    return ClickException


def coerce_cli_choice(value: str, **kwargs) -> Any:
    """Typer's pydantic-free conversion of a choice (raises ValueError when ``value`` is not one)."""
    from typer._param_types import coerce_cli_choice  # lazy: loads typer only when needed

    return coerce_cli_choice(value, **kwargs)


def coerce_cli_path(value, info, **kwargs) -> Any:
    """Typer's pydantic-free conversion of a path, for the parameter whose info is ``info``."""
    from typer._param_types import coerce_cli_path  # lazy: loads typer only when needed

    return coerce_cli_path(value, info, **kwargs)


def coerce_plain(plain: Callable[[Any], bool], convert: Callable[..., Any], unsure: object) -> bool:
    """Have every parameter whose annotation is ``plain(annotation)`` coerce its values with
    ``convert(annotation, parameter_info, value, param, ctx)``, Typer's own runtime param taking each value
    ``convert`` returns ``unsure`` for. False (and nothing changed) when this Typer's internals differ."""
    try:
        from typer import core  # lazy: an optional extra, imported when used
        from typer._coercion import RuntimeParam, build_runtime_param  # lazy: an optional extra, imported when used
        # lazy: an optional extra, imported when used
        from typer._param_types import coerce_cli_choice, coerce_cli_path  # noqa: F401 - present, or no install
    except ImportError:
        return False
    parameter = getattr(core, "_TyperParameter", None)
    if parameter is None or not hasattr(parameter, "get_runtime_param") or getattr(parameter, "_forge_plain", False):
        return getattr(parameter, "_forge_plain", False)


    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """Plain values converted by ``convert``, every other one by the runtime param Typer would have built."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            done = convert(self.annotation, self.parameter_info, value, param, ctx)
            if done is not unsure:
                return done
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self):
        if self._runtime_param is None:
            d = self.type_descriptor
            if d.file_annotation is None and plain(d.annotation):
                self._runtime_param = PlainRuntimeParam(parameter_info=d.parameter_info, annotation=d.annotation,
                                                        descriptor=d)
            else:
                self._runtime_param = build_runtime_param(d)
        return self._runtime_param

    parameter.get_runtime_param = get_runtime_param
    parameter._forge_plain = True
    return True


def check() -> None:
    """Raise ``MissingInternal`` when an internal named here is gone (see ``tests/core/test_compat.py``)."""
    click_exception()
    for module, names in (("typer._param_types", ("coerce_cli_choice", "coerce_cli_path")),
                          ("typer._coercion", ("RuntimeParam", "build_runtime_param")),
                          ("typer.core", ("_TyperParameter",))):
        try:
            found = importlib.import_module(module)
        except ImportError:
            raise MissingInternal("typer", module, TESTED) from None
        for name in names:
            if not hasattr(found, name):
                raise MissingInternal("typer", f"{module}.{name}", TESTED)
    from typer._coercion import RuntimeParam  # lazy: loads typer only when needed
    from typer.core import _TyperParameter  # lazy: loads typer only when needed

    for owner, name in ((RuntimeParam, "_coerce_value"), (_TyperParameter, "get_runtime_param")):
        if not hasattr(owner, name):
            raise MissingInternal("typer", f"{owner.__module__}.{owner.__name__}.{name}", TESTED)
