"""The one way forge makes a Jinja environment: the immutable sandbox, autoescaped, with bounded work.

forge renders only its own package templates (the books' and the web pages' layouts,
the reports); no contributor text is ever a template (the books' prose has its own
grammar, ``forge.prose``). The sandbox stays as a second wall: a plain ``jinja2.Environment`` lets
``{{ cycler.__init__.__globals__.os.popen('id').read() }}`` run a shell command;
the sandbox refuses attribute paths into Python internals, the immutable one also
refuses calls that would change the data handed to the template, and the
intercepted operators, formats, loops and output caps stop ``'x' * 10**12``,
``10 ** 10**8``, ``'%999999999d'`` or nested ``range`` loops from eating the
machine. Every value is escaped unless a helper returned ``Markup``.
"""
from __future__ import annotations

import operator
import re
import string
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

#: The longest string or list a template may build with ``*``, and the largest integer it may make with ``**``.
MAX_REPEAT = 1_000_000
MAX_POWER_BITS = 4096
#: The most text one template call (a page, a macro, a captured block) may produce.
MAX_OUTPUT = 20_000_000
#: How many numbers all the ``range()`` calls of one environment may yield together (nested loops multiply).
MAX_RANGE_TOTAL = 2_000_000
#: The widest field a format (``'%999999999d'``, ``'{:>999999999}'``, ``|center(…)``) may pad to.
MAX_WIDTH = 10_000
_PERCENT_WIDTH = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?")


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox with bounded work: ``*``, ``**``, ``%`` and format widths refused when their
    result would be huge, ``range`` given a total budget, each call's output capped, no ``lipsum``."""

    intercepted_binops = frozenset(["*", "**", "%"])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)  # lipsum(10**8) ran for minutes: no prose needs placeholder Latin
        self.globals["range"] = self._range
        self.filters["center"] = _bounded_width(self.filters["center"], "width")
        self.filters["indent"] = _bounded_width(self.filters["indent"], "width")
        self.filters["format"] = _checked_format(self.filters["format"])
        self.concat = self._concat
        self._range_left = MAX_RANGE_TOTAL

    def _range(self, *args: Any) -> range:
        numbers = range(*args)
        self._range_left -= len(numbers)
        if self._range_left < 0:
            raise SecurityError(f"the templates' loops may count to {MAX_RANGE_TOTAL:,} in all, no more")
        return numbers

    @staticmethod
    def _concat(pieces) -> str:
        out, size = [], 0
        for piece in pieces:
            size += len(piece)
            if size > MAX_OUTPUT:
                raise SecurityError(f"a template may not produce more than {MAX_OUTPUT:,} characters")
            out.append(piece)
        return "".join(out)

    def wrap_str_format(self, value: Any):
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        _check_format(str(value.__self__))

        return wrapped

    def call_binop(self, context, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "%":
            if isinstance(left, str):
                _check_percent(left)
            return operator.mod(left, right)
        if operator_name == "**":
            if _is_int(left) and _is_int(right):
                if right > 0 and abs(left) > 1 and right * max(1, abs(left).bit_length()) > MAX_POWER_BITS:
                    raise SecurityError(f"`{left} ** {right}` is too large for a template")
            elif isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(right) > MAX_POWER_BITS:
                raise SecurityError(f"`{left} ** {right}` is too large for a template")
            return operator.pow(left, right)
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and _is_int(count) and len(seq) * count > MAX_REPEAT:
                raise SecurityError(f"a template may not build a sequence of more than {MAX_REPEAT:,} items")
        return operator.mul(left, right)


def _too_wide() -> SecurityError:
    return SecurityError(f"a format may not pad a field to more than {MAX_WIDTH:,} characters")


def _check_percent(fmt: str) -> None:
    """Refuse a ``%`` format whose width or precision is huge or taken from the arguments (``*``)."""
    for width, precision in _PERCENT_WIDTH.findall(fmt):
        if "*" in (width, precision) or any(v.isdigit() and int(v) > MAX_WIDTH for v in (width, precision)):
            raise _too_wide()


def _check_format(fmt: str) -> None:
    """Refuse a ``str.format`` string whose field widths are huge or nested (``{0:>{1}}``)."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format will raise its own error
    for _, _, spec, _ in fields:
        if spec and ("{" in spec or any(int(w) > MAX_WIDTH for w in re.findall(r"\d+", spec))):
            raise _too_wide()


def _checked_format(func: Any) -> Any:
    def checked(value: Any, *args: Any, **kwargs: Any) -> Any:
        _check_percent(str(value))
        return func(value, *args, **kwargs)

    return checked


def _bounded_width(func: Any, name: str) -> Any:
    """A Jinja filter whose ``width`` argument (``|center(10**9)``) may not exceed MAX_WIDTH."""
    def bounded(*args: Any, **kwargs: Any) -> Any:
        width = kwargs.get(name, args[1] if len(args) > 1 else None)
        if _is_int(width) and width > MAX_WIDTH or isinstance(width, str) and len(width) > MAX_WIDTH:
            raise SecurityError(f"a filter may not pad to more than {MAX_WIDTH:,} characters")
        return func(*args, **kwargs)

    for attr in ("jinja_pass_arg",):
        if hasattr(func, attr):
            setattr(bounded, attr, getattr(func, attr))
    return bounded


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def environment(loader: jinja2.BaseLoader, **options: Any) -> jinja2.Environment:
    """A sandboxed, autoescaping environment; ``options`` are Jinja's (undefined, trim_blocks…)."""
    options.setdefault("autoescape", True)
    if options["autoescape"] is not True:
        raise ValueError("forge's templates are always autoescaped")
    return BoundedSandbox(loader=loader, **options)


#: Exceptions a hostile or broken template raises while rendering, that become findings.
TEMPLATE_ERRORS = (jinja2.TemplateError, SecurityError, OverflowError, MemoryError, RecursionError)
